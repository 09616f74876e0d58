// The Excalidraw canvas itself, in its own chunk.
import { Excalidraw } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';

interface Props {
  initial: { elements?: unknown[] } | null;
  readOnly: boolean;
  onScene: (json: string) => void;
}

export default function DrawingCanvas({ initial, readOnly, onScene }: Props) {
  return (
    <Excalidraw
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      initialData={{ elements: (initial?.elements ?? []) as any, scrollToContent: true }}
      viewModeEnabled={readOnly}
      onChange={(elements) => onScene(JSON.stringify({ elements: elements.filter((e) => !e.isDeleted) }))}
    />
  );
}
