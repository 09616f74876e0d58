// The Excalidraw canvas itself, in its own chunk.
import { useEffect, useRef } from 'react';
import { Excalidraw } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';

interface Props {
  initial: { elements?: unknown[] } | null;
  readOnly: boolean;
  onScene: (json: string) => void;
}

// Excalidraw's menu button is an icon without a name; give it one for screen readers.
function useNamedMenuButton(root: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const name = () => el.querySelectorAll('.main-menu-trigger:not([aria-label])').forEach((b) => b.setAttribute('aria-label', 'Drawing menu'));
    const observer = new MutationObserver(name);
    observer.observe(el, { childList: true, subtree: true });
    name();
    return () => observer.disconnect();
  }, [root]);
}

export default function DrawingCanvas({ initial, readOnly, onScene }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useNamedMenuButton(root);
  return (
    <div ref={root} style={{ height: '100%' }}>
    <Excalidraw
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      initialData={{ elements: (initial?.elements ?? []) as any, scrollToContent: true }}
      viewModeEnabled={readOnly}
      onChange={(elements) => onScene(JSON.stringify({ elements: elements.filter((e) => !e.isDeleted) }))}
    />
    </div>
  );
}
