// The Excalidraw canvas itself, in its own chunk.
import { useEffect, useRef } from 'react';
import { CaptureUpdateAction, Excalidraw } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import type { SceneElement } from './drawingScene';

/** What the node view needs of a mounted canvas. */
export interface CanvasHandle {
  /** every element, deleted ones included */
  elements(): SceneElement[];
  /** shows another scene (a remote change); not an undo step */
  show(elements: SceneElement[]): void;
}

interface Props {
  initial: SceneElement[];
  readOnly: boolean;
  onScene: (elements: SceneElement[]) => void;
  onReady: (canvas: CanvasHandle) => void;
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

export default function DrawingCanvas({ initial, readOnly, onScene, onReady }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useNamedMenuButton(root);
  return (
    <div ref={root} style={{ height: '100%' }}>
    <Excalidraw
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      initialData={{ elements: initial as any, scrollToContent: true }}
      viewModeEnabled={readOnly}
      excalidrawAPI={(api) => onReady({
        elements: () => api.getSceneElementsIncludingDeleted() as unknown as SceneElement[],
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        show: (elements) => api.updateScene({ elements: elements as any, captureUpdate: CaptureUpdateAction.NEVER }),
      })}
      onChange={(elements) => onScene(elements as unknown as SceneElement[])}
    />
    </div>
  );
}
