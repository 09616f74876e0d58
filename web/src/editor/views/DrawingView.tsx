// Drawing canvas node view: Excalidraw (loaded only when a drawing is on the page); the
// scene lives in the node's `store` attribute, saved 500 ms after the last change. A
// change arriving from someone else is merged into the open canvas; a save merges the
// stored scene first, so an older canvas never writes over a newer one. Read-only
// editors (viewers, visitors, offline) never save.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { DRAWING_SAVE_DEBOUNCE_MS } from '../rules/editorMessages';
import { mergeScenes, parseScene, sceneKey, sceneText, withDrawingUser, type SceneElement } from './drawingScene';
import type { CanvasHandle } from './DrawingCanvas';

const DrawingCanvas = lazy(() => import('./DrawingCanvas'));

export function DrawingView({ node, updateAttributes, editor, deleteNode, extension }: ReactNodeViewProps) {
  const [initial] = useState(() => parseScene(node.attrs.store));
  const store = useRef<unknown>(node.attrs.store);
  store.current = node.attrs.store;
  const users = useRef<unknown>(node.attrs.users);
  users.current = node.attrs.users;
  const canvas = useRef<CanvasHandle | null>(null);
  const pending = useRef<SceneElement[] | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const userName = String((extension.options as { userName?: string }).userName ?? 'Guest');
  // the editor turns editable after mounting (a room that syncs late); setEditable emits 'update'
  const [editable, setEditable] = useState(editor.isEditable);
  useEffect(() => {
    const follow = () => setEditable(editor.isEditable);
    editor.on('update', follow);
    return () => {
      editor.off('update', follow);
    };
  }, [editor]);

  const flush = () => {
    const local = pending.current;
    pending.current = null;
    if (!local || !editor.isEditable || editor.isDestroyed) return;
    const stored = parseScene(store.current);
    const merged = mergeScenes(local, stored);
    if (sceneKey(merged) === sceneKey(stored)) return;
    updateAttributes({ store: sceneText(merged), users: withDrawingUser(users.current, userName) });
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  // how many shapes the canvas shows (for people reading the DOM: tests, tools)
  const [shapes, setShapes] = useState(() => initial.filter((e) => !e.isDeleted).length);

  const onScene = (elements: SceneElement[]) => {
    const visible = elements.filter((e) => !e.isDeleted).length;
    setShapes((n) => (n === visible ? n : visible));
    if (!editor.isEditable) return;
    pending.current = elements;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, DRAWING_SAVE_DEBOUNCE_MS);
  };

  // someone else's change (or one made before the canvas was ready): into the canvas
  const showStored = useCallback(() => {
    const open = canvas.current;
    if (!open) return;
    const current = open.elements();
    const merged = mergeScenes(parseScene(store.current), current);
    if (sceneKey(merged) !== sceneKey(current)) open.show(merged);
  }, []);
  useEffect(showStored, [node.attrs.store, showStored]);

  const onReady = useCallback((handle: CanvasHandle) => {
    canvas.current = handle;
    showStored();
  }, [showStored]);

  return (
    <NodeViewWrapper className="drawing" contentEditable={false} data-testid="drawing" data-shapes={shapes}>
      <div className="drawing__bar">
        <span>Drawing</span>
        {editable && <button type="button" className="button button--ghost" onClick={() => deleteNode()}>Remove drawing</button>}
      </div>
      <div className="drawing__canvas">
        <Suspense fallback={<div role="status">Loading drawing...</div>}>
          <DrawingCanvas initial={initial} readOnly={!editable} onScene={onScene} onReady={onReady} />
        </Suspense>
      </div>
    </NodeViewWrapper>
  );
}
