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
  const shown = useRef(editable);
  useEffect(() => {
    // (only a real change re-renders: a node-view render during typing can move the caret)
    const follow = () => {
      if (shown.current === editor.isEditable) return;
      shown.current = editor.isEditable;
      setEditable(editor.isEditable);
    };
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

  // How many shapes the canvas shows, for people reading the DOM (tests, tools). Written
  // straight to the DOM: Excalidraw reports changes all the time, and re-rendering the node
  // view for each one moved the editor's caret while someone typed elsewhere.
  const wrapper = useRef<HTMLDivElement>(null);
  const showShapes = (elements: readonly SceneElement[]) => {
    const count = String(elements.filter((e) => !e.isDeleted).length);
    const el = wrapper.current?.closest<HTMLElement>('[data-testid=drawing]');
    if (el && el.dataset.shapes !== count) el.dataset.shapes = count;
  };

  const onScene = (elements: SceneElement[]) => {
    showShapes(elements);
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
    showShapes(handle.elements());
  }, [showStored]);

  return (
    <NodeViewWrapper className="drawing" contentEditable={false} data-testid="drawing">
      <div className="drawing__bar">
        <span>Drawing</span>
        {editable && <button type="button" className="button button--ghost" onClick={() => deleteNode()}>Remove drawing</button>}
      </div>
      <div className="drawing__canvas" ref={wrapper}>
        <Suspense fallback={<div role="status">Loading drawing...</div>}>
          <DrawingCanvas initial={initial} readOnly={!editable} onScene={onScene} onReady={onReady} />
        </Suspense>
      </div>
    </NodeViewWrapper>
  );
}
