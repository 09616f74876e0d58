import { PlaceholderPage } from './PlaceholderPage';

export default function ChatPage() {
  return <PlaceholderPage title="Ask AI (Beta)" text="The chat over code and docs arrives with its own release." />;
}
