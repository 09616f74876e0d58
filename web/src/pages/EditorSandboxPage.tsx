import { PlaceholderPage } from './PlaceholderPage';

export default function EditorSandboxPage() {
  return (
    <PlaceholderPage
      title="Editor sandbox"
      text="Type '/' on a new line to open shortcuts, and select text to style it. The offline editor arrives with its own release."
    />
  );
}
