import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { keyboardMoveTarget, type FlatPage } from './pageTree';
import { treeKeyAction } from './treeKeyboard';
import { rowWindow, UNMEASURED_ROWS } from './virtualWindow';
import { PageTree } from './PageTree';

// Guide (1) > Linux (3); Install (2); Reference (4)
const pages: FlatPage[] = [
  { id: 1, parent_id: 0, name: 'Guide', type: 'generated', position: 1 },
  { id: 2, parent_id: 0, name: 'Install', type: 'generated', position: 2 },
  { id: 3, parent_id: 1, name: 'Linux', type: 'generated', position: 1 },
  { id: 4, parent_id: 0, name: 'Reference', type: 'generated', position: 3 },
];

describe('keyboard move targets', () => {
  it.each([
    [2, 'in', 1], // under the sibling above
    [4, 'in', 2],
    [1, 'in', undefined], // first root: nothing above
    [3, 'in', undefined], // first child
    [3, 'out', null], // up to the top level
    [1, 'out', undefined], // already a root
  ] as const)('page %i moving %s goes under %s', (id, direction, expected) => {
    expect(keyboardMoveTarget(pages, id, direction)).toBe(expected);
  });

  it('lifts a grandchild next to its parent', () => {
    const deeper = [...pages, { id: 5, parent_id: 3, name: 'Debian', type: 'file' as const }];
    expect(keyboardMoveTarget(deeper, 5, 'out')).toBe(1);
    expect(keyboardMoveTarget(deeper, 99, 'out')).toBeUndefined();
  });
});

describe('tree keys', () => {
  const key = (k: string, mods: Partial<{ altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) =>
    ({ key: k, altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, ...mods });
  const leaf = { hasChildren: false, open: false };
  const openBranch = { hasChildren: true, open: true };
  const closedBranch = { hasChildren: true, open: false };

  it.each([
    [key('ArrowDown'), leaf, true, { kind: 'focus', to: 'next' }],
    [key('ArrowUp'), leaf, true, { kind: 'focus', to: 'previous' }],
    [key('Home'), leaf, true, { kind: 'focus', to: 'first' }],
    [key('End'), leaf, true, { kind: 'focus', to: 'last' }],
    [key('ArrowRight'), closedBranch, true, { kind: 'expand' }],
    [key('ArrowRight'), openBranch, true, { kind: 'focus', to: 'firstChild' }],
    [key('ArrowRight'), leaf, true, null],
    [key('ArrowLeft'), openBranch, true, { kind: 'collapse' }],
    [key('ArrowLeft'), leaf, true, { kind: 'focus', to: 'parent' }],
    [key('ArrowRight', { altKey: true, shiftKey: true }), leaf, true, { kind: 'move', direction: 'in' }],
    [key('ArrowLeft', { altKey: true, shiftKey: true }), leaf, true, { kind: 'move', direction: 'out' }],
    [key('ArrowRight', { altKey: true, shiftKey: true }), leaf, false, null], // no edit rights
    [key('ArrowDown', { ctrlKey: true }), leaf, true, null],
    [key('ArrowDown', { shiftKey: true }), leaf, true, null],
    [key('a'), leaf, true, null],
  ])('%o on %o (can move: %s)', (event, node, canMove, expected) => {
    expect(treeKeyAction(event, node, canMove)).toEqual(expected);
  });
});

describe('windowed search list', () => {
  it('draws the rows in view plus a margin', () => {
    expect(rowWindow(2000, 0, 340)).toEqual({ start: 0, end: 26 });
    expect(rowWindow(2000, 34 * 100, 340)).toEqual({ start: 92, end: 118 });
    expect(rowWindow(2000, 34 * 1995, 340)).toEqual({ start: 1987, end: 2000 });
    expect(rowWindow(5, 0, 340)).toEqual({ start: 0, end: 5 });
    expect(rowWindow(2000, 0, 0).end).toBe(UNMEASURED_ROWS + 16);
  });
});

function renderTree(canEdit = true, searching = false, visible = pages) {
  const actions = { onSelect: vi.fn(), onCreateChild: vi.fn(), onRename: vi.fn(), onDelete: vi.fn(), onMove: vi.fn() };
  const view = render(<PageTree pages={pages} visiblePages={visible} searching={searching} selectedId={null} canEdit={canEdit} {...actions} />);
  return { ...view, actions };
}

const name = (text: string) => screen.getByRole('button', { name: text });

describe('page tree by keyboard', () => {
  it('arrows walk the visible pages, open and close branches', () => {
    renderTree();
    name('Guide').focus();
    fireEvent.keyDown(name('Guide'), { key: 'ArrowDown' });
    expect(name('Linux')).toHaveFocus();
    fireEvent.keyDown(name('Linux'), { key: 'ArrowLeft' });
    expect(name('Guide')).toHaveFocus();
    fireEvent.keyDown(name('Guide'), { key: 'ArrowLeft' });
    expect(screen.queryByRole('button', { name: 'Linux' })).toBeNull();
    expect(screen.getByRole('treeitem', { name: /Guide/ })).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(name('Guide'), { key: 'ArrowDown' });
    expect(name('Install')).toHaveFocus();
    fireEvent.keyDown(name('Install'), { key: 'End' });
    expect(name('Reference')).toHaveFocus();
    fireEvent.keyDown(name('Reference'), { key: 'Home' });
    expect(name('Guide')).toHaveFocus();
    fireEvent.keyDown(name('Guide'), { key: 'ArrowRight' });
    fireEvent.keyDown(name('Guide'), { key: 'ArrowRight' });
    expect(name('Linux')).toHaveFocus();
  });

  it('Alt+Shift+Arrow moves a page, announces it, and refuses what the rules refuse', () => {
    const { actions } = renderTree();
    expect(name('Install')).toHaveAttribute('aria-keyshortcuts', 'Alt+Shift+ArrowRight Alt+Shift+ArrowLeft');
    fireEvent.keyDown(name('Install'), { key: 'ArrowRight', altKey: true, shiftKey: true });
    expect(actions.onMove).toHaveBeenLastCalledWith(2, 1);
    expect(screen.getByText('Moved Install under Guide')).toBeInTheDocument();
    fireEvent.keyDown(name('Linux'), { key: 'ArrowLeft', altKey: true, shiftKey: true });
    expect(actions.onMove).toHaveBeenLastCalledWith(3, null);
    expect(screen.getByText('Moved Linux to the top level')).toBeInTheDocument();
    actions.onMove.mockClear();
    fireEvent.keyDown(name('Guide'), { key: 'ArrowRight', altKey: true, shiftKey: true });
    fireEvent.keyDown(name('Guide'), { key: 'ArrowLeft', altKey: true, shiftKey: true });
    expect(actions.onMove).not.toHaveBeenCalled();
    expect(screen.getByText('Guide cannot move up a level')).toBeInTheDocument();
  });

  it('focus follows a moved page to its new place', () => {
    const actions = { onSelect: vi.fn(), onCreateChild: vi.fn(), onRename: vi.fn(), onDelete: vi.fn(), onMove: vi.fn() };
    const props = { visiblePages: pages, searching: false, selectedId: null, canEdit: true, ...actions };
    const { rerender } = render(<PageTree pages={pages} {...props} />);
    fireEvent.keyDown(name('Install'), { key: 'ArrowRight', altKey: true, shiftKey: true });
    const moved = pages.map((p) => (p.id === 2 ? { ...p, parent_id: 1 } : p));
    act(() => rerender(<PageTree pages={moved} {...props} />));
    expect(name('Install')).toHaveFocus();
    expect(within(screen.getByRole('treeitem', { name: /^Guide/ })).getByRole('button', { name: 'Install' })).toBe(name('Install'));
  });

  it('readers get no move keys', () => {
    const { actions } = renderTree(false);
    expect(name('Install')).not.toHaveAttribute('aria-keyshortcuts');
    fireEvent.keyDown(name('Install'), { key: 'ArrowRight', altKey: true, shiftKey: true });
    expect(actions.onMove).not.toHaveBeenCalled();
  });

  it('while searching the matches are a flat list with positions; the tree is hidden', () => {
    renderTree(true, true, [pages[2]!, pages[3]!]);
    const lists = screen.getAllByRole('tree', { name: 'Pages' });
    expect(lists).toHaveLength(1);
    const items = within(lists[0]!).getAllByRole('treeitem');
    expect(items.map((i) => i.getAttribute('aria-posinset'))).toEqual(['1', '2']);
    expect(items[0]).toHaveAttribute('aria-setsize', '2');
    expect(screen.getByRole('button', { name: 'Delete Linux' })).toBeInTheDocument();
    // The tree is parked: not drawn (content-visibility, which jsdom lacks) and hidden from assistive technology.
    expect(screen.getByTestId('tree-root-drop').closest('.page-tree__parked')).toHaveAttribute('aria-hidden', 'true');
  });

  it('a long match list draws only a window of rows', () => {
    const many: FlatPage[] = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, parent_id: 0, name: `Section ${i}`, type: 'generated' }));
    render(<PageTree pages={[]} visiblePages={many} searching selectedId={null} canEdit={false}
      onSelect={vi.fn()} onCreateChild={vi.fn()} onRename={vi.fn()} onDelete={vi.fn()} onMove={vi.fn()} />);
    const list = screen.getByRole('tree', { name: 'Pages' });
    expect(within(list).getAllByRole('treeitem').length).toBeLessThan(100);
    expect(list.style.height).toBe(`${2000 * 34}px`);
  });
});
