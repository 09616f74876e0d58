import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import type { ReactNodeViewProps } from '@tiptap/react';
import { mergeScenes, parseScene, sceneKey, sceneText, withDrawingUser, type SceneElement } from './drawingScene';
import { DrawingView } from './DrawingView';

// Excalidraw does not run in jsdom: a stand-in canvas the test drives.
const canvas = vi.hoisted(() => ({
  props: null as null | { initial: unknown[]; readOnly: boolean; onScene: (e: unknown[]) => void; onReady: (h: unknown) => void },
  elements: [] as unknown[],
  shown: [] as unknown[][],
}));
vi.mock('./DrawingCanvas', () => ({
  default: (props: NonNullable<typeof canvas.props>) => {
    if (!canvas.props) {
      canvas.elements = props.initial;
      props.onReady({ elements: () => canvas.elements, show: (e: unknown[]) => { canvas.elements = e; canvas.shown.push(e); } });
    }
    canvas.props = props;
    return <div data-testid="canvas" />;
  },
}));

const el = (id: string, version: number, extra: Partial<SceneElement> = {}): SceneElement => ({ id, version, versionNonce: 1, type: 'rectangle', ...extra });

describe('drawing scenes', () => {
  it('merge element by element: the higher version wins, removals included', () => {
    const mine = [el('a', 2), el('b', 1)];
    const theirs = [el('a', 5, { x: 9 }), el('b', 2, { isDeleted: true }), el('c', 1)];
    expect(mergeScenes(mine, theirs)).toEqual([el('a', 5, { x: 9 }), el('b', 2, { isDeleted: true }), el('c', 1)]);
    // an older copy never wins, whichever side it is on
    expect(mergeScenes(theirs, mine)).toEqual(theirs);
    // equal versions: the lower nonce, as Excalidraw decides
    expect(mergeScenes([el('a', 3, { versionNonce: 7 })], [el('a', 3, { versionNonce: 2 })])).toEqual([el('a', 3, { versionNonce: 2 })]);
  });

  it('keys ignore order; parse tolerates empty and broken text', () => {
    expect(sceneKey([el('a', 1), el('b', 2)])).toBe(sceneKey([el('b', 2), el('a', 1)]));
    expect(sceneKey([el('a', 1)])).not.toBe(sceneKey([el('a', 2)]));
    expect(parseScene(null)).toEqual([]);
    expect(parseScene('{oops')).toEqual([]);
    expect(parseScene(sceneText([el('a', 1)]))).toEqual([el('a', 1)]);
  });

  it('users lists each cursor name once, first editor first', () => {
    expect(withDrawingUser(null, 'Alice')).toBe('["Alice"]');
    expect(withDrawingUser('["Alice"]', 'Bob')).toBe('["Alice","Bob"]');
    expect(withDrawingUser('["Alice","Bob"]', 'Alice')).toBe('["Alice","Bob"]');
    expect(withDrawingUser('not json', 'Bob')).toBe('["Bob"]');
  });
});

describe('DrawingView', () => {
  afterEach(() => {
    vi.useRealTimers();
    canvas.props = null;
    canvas.shown = [];
  });

  async function mount(attrs: { store: string | null; users?: string | null }, editable = true) {
    const updateAttributes = vi.fn();
    const listeners = new Set<() => void>();
    const editor = {
      isEditable: editable,
      isDestroyed: false,
      on: (_: string, f: () => void) => listeners.add(f),
      off: (_: string, f: () => void) => listeners.delete(f),
      setEditable(value: boolean) {
        this.isEditable = value;
        listeners.forEach((f) => f());
      },
    };
    const props = (store: string | null) => ({
      node: { attrs: { users: null, ...attrs, store } },
      updateAttributes,
      editor,
      deleteNode: vi.fn(),
      extension: { options: { userName: 'Alice' } },
    }) as unknown as ReactNodeViewProps;
    const view = render(<DrawingView {...props(attrs.store)} />);
    await screen.findByTestId('canvas');
    vi.useFakeTimers();
    const rerender = (store: string) => view.rerender(<DrawingView {...props(store)} />);
    return { updateAttributes, editor, rerender };
  }

  it('saves 500 ms after the last change, with the drawer in users', async () => {
    const { updateAttributes } = await mount({ store: null });
    act(() => canvas.props!.onScene([el('a', 1)]));
    act(() => vi.advanceTimersByTime(300));
    act(() => canvas.props!.onScene([el('a', 2)]));
    act(() => vi.advanceTimersByTime(499));
    expect(updateAttributes).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(updateAttributes).toHaveBeenCalledTimes(1);
    expect(updateAttributes).toHaveBeenCalledWith({ store: sceneText([el('a', 2)]), users: '["Alice"]' });
  });

  it('mounting an empty canvas writes nothing', async () => {
    const { updateAttributes } = await mount({ store: null });
    act(() => canvas.props!.onScene([]));
    act(() => vi.advanceTimersByTime(1000));
    expect(updateAttributes).not.toHaveBeenCalled();
  });

  it('a read-only editor never saves', async () => {
    const { updateAttributes } = await mount({ store: sceneText([el('a', 1)]) }, false);
    expect(canvas.props!.readOnly).toBe(true);
    act(() => canvas.props!.onScene([el('a', 2)]));
    act(() => vi.advanceTimersByTime(1000));
    expect(updateAttributes).not.toHaveBeenCalled();
  });

  it('an editor that turns editable later (a late sync) opens the canvas for drawing', async () => {
    const { editor, updateAttributes } = await mount({ store: null }, false);
    expect(canvas.props!.readOnly).toBe(true);
    act(() => editor.setEditable(true));
    expect(canvas.props!.readOnly).toBe(false);
    expect(screen.getByRole('button', { name: 'Remove drawing' })).toBeInTheDocument();
    act(() => canvas.props!.onScene([el('a', 1)]));
    act(() => vi.advanceTimersByTime(500));
    expect(updateAttributes).toHaveBeenCalledTimes(1);
  });

  it('a remote change reaches the open canvas', async () => {
    const { rerender, updateAttributes } = await mount({ store: sceneText([el('a', 1)]) });
    rerender(sceneText([el('a', 4, { x: 40 }), el('b', 1)]));
    expect(canvas.shown.at(-1)).toEqual([el('a', 4, { x: 40 }), el('b', 1)]);
    // the canvas echoing the scene it was shown writes nothing back
    act(() => canvas.props!.onScene(canvas.elements));
    act(() => vi.advanceTimersByTime(1000));
    expect(updateAttributes).not.toHaveBeenCalled();
  });

  it('a stale canvas never writes its older elements over newer ones', async () => {
    const { rerender, updateAttributes } = await mount({ store: sceneText([el('a', 1)]) });
    act(() => canvas.props!.onScene([el('a', 1), el('mine', 1)]));
    // someone else changes 'a' while this save waits
    rerender(sceneText([el('a', 6, { x: 60 })]));
    act(() => vi.advanceTimersByTime(500));
    expect(updateAttributes).toHaveBeenCalledTimes(1);
    const saved = parseScene(updateAttributes.mock.calls[0]![0].store);
    expect(saved).toEqual([el('a', 6, { x: 60 }), el('mine', 1)]);
  });
});
