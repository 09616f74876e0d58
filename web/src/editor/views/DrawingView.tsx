// Drawing canvas node view: Excalidraw (loaded only when a drawing is on the page);
// the scene is saved into the node's `store` attribute, debounced 500 ms.
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { DRAWING_SAVE_DEBOUNCE_MS } from '../rules/editorMessages';

const DrawingCanvas = lazy(() => import('./DrawingCanvas'));

export function DrawingView({ node, updateAttributes, editor, deleteNode }: ReactNodeViewProps) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const initial = useMemo(() => {
    try {
      return node.attrs.store ? (JSON.parse(String(node.attrs.store)) as { elements?: unknown[] }) : null;
    } catch {
      return null;
    }
    // the canvas keeps its own state after mounting; remote changes remount via key
  }, [node.attrs.store]); // eslint-disable-line react-hooks/exhaustive-deps
  const lastSaved = useRef<string | null>(node.attrs.store as string | null);

  const save = (scene: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (scene === lastSaved.current) return;
      lastSaved.current = scene;
      updateAttributes({ store: scene });
    }, DRAWING_SAVE_DEBOUNCE_MS);
  };

  return (
    <NodeViewWrapper className="drawing" contentEditable={false} data-testid="drawing">
      <div className="drawing__bar">
        <span>Drawing</span>
        {editor.isEditable && <button type="button" className="button button--ghost" onClick={() => deleteNode()}>Remove drawing</button>}
      </div>
      <div className="drawing__canvas">
        <Suspense fallback={<div role="status">Loading drawing...</div>}>
          <DrawingCanvas initial={initial} readOnly={!editor.isEditable} onScene={save} />
        </Suspense>
      </div>
    </NodeViewWrapper>
  );
}
