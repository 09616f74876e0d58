// The page tree: nested pages, expand and collapse, and for writers create child,
// rename, delete and move (drag, or Alt+Shift+Arrow keys; never onto itself or a
// descendant; the root area makes a page a root). While searching the matches are listed
// flat without dragging; the tree stays mounted but parked (not drawn, not focusable), so typing
// does not rebuild it and leaving the search does not lay it out again.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { buildTree, canDrop, keyboardMoveTarget, type FlatPage, type TreeNode } from './pageTree';
import { MOVE_IN_KEYS, MOVE_OUT_KEYS, treeKeyAction } from './treeKeyboard';
import { SearchResults } from './SearchResults';
import { RowActions } from './RowActions';
import { useExpansion } from './treeExpansion';
import { createSelection, SelectionContext, useIsSelected } from './treeSelection';
import './pageTree.css';

export interface TreeActions {
  onSelect: (pageId: number) => void;
  onCreateChild: (parentId: number) => void;
  onRename: (pageId: number, currentName: string) => void;
  onDelete: (pageId: number, name: string) => void;
  onMove: (pageId: number, newParentId: number | null) => void;
}

interface Props extends TreeActions {
  pages: readonly FlatPage[];
  visiblePages: readonly FlatPage[];
  searching: boolean;
  selectedId: number | null;
  canEdit: boolean;
}

export function PageTree(props: Props) {
  const { pages, visiblePages, searching, selectedId, canEdit, onSelect, onCreateChild, onRename, onDelete, onMove } = props;
  const actions = { onSelect, onCreateChild, onRename, onDelete, onMove };
  return (
    <div className="page-tree" data-testid="page-tree">
      <div className={searching ? 'page-tree__parked' : undefined} aria-hidden={searching || undefined}>
        <TreeView pages={pages} selectedId={selectedId} canEdit={canEdit} {...actions} />
      </div>
      {searching && <SearchResults pages={visiblePages} selectedId={selectedId} canEdit={canEdit} {...actions} />}
    </div>
  );
}

const DRAG_TYPE = 'application/x-docs-page';

interface ViewProps extends TreeActions {
  pages: readonly FlatPage[];
  selectedId: number | null;
  canEdit: boolean;
}

/** After a keyboard move: the page to focus once it shows under its new parent. */
interface PendingFocus {
  id: number;
  parent: number | null;
}

const TreeView = memo(function TreeView(props: ViewProps) {
  const { pages, canEdit, selectedId } = props;
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [dragged, setDragged] = useState<number | null>(null);
  const [rootHover, setRootHover] = useState(false);
  const [pendingFocus, setPendingFocus] = useState<PendingFocus | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const list = useRef<HTMLUListElement>(null);
  // The rows get stable callbacks (the page passes new arrows on every render) and read
  // the chosen page from a store, so they are memoised: choosing a page re-renders two rows.
  const [selection] = useState(() => createSelection(selectedId));
  useLayoutEffect(() => selection.set(selectedId), [selection, selectedId]);
  const latest = useRef(props);
  latest.current = props;
  const actions = useMemo<TreeActions>(() => ({
    onSelect: (id) => latest.current.onSelect(id),
    onCreateChild: (id) => latest.current.onCreateChild(id),
    onRename: (id, name) => latest.current.onRename(id, name),
    onDelete: (id, name) => latest.current.onDelete(id, name),
    onMove: (id, parent) => latest.current.onMove(id, parent),
  }), []);

  const setOpen = useCallback((id: number, open: boolean) => {
    setCollapsed((prev) => {
      if (prev.has(id) !== open) return prev;
      const next = new Set(prev);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const moveByKeyboard = useCallback((id: number, direction: 'in' | 'out') => {
    const nameOf = (pageId: number | null) => pages.find((p) => p.id === pageId)?.name ?? '';
    const target = keyboardMoveTarget(pages, id, direction);
    if (target === undefined) {
      setAnnouncement(`${nameOf(id)} cannot move ${direction === 'in' ? 'under the page above' : 'up a level'}`);
      return;
    }
    if (target !== null) setOpen(target, true);
    setPendingFocus({ id, parent: target });
    setAnnouncement(target === null ? `Moved ${nameOf(id)} to the top level` : `Moved ${nameOf(id)} under ${nameOf(target)}`);
    actions.onMove(id, target);
  }, [pages, setOpen, actions]);

  const clearPendingFocus = useCallback(() => setPendingFocus(null), []);

  const dropOnRoot = (event: DragEvent) => {
    event.preventDefault();
    setRootHover(false);
    if (dragged !== null) actions.onMove(dragged, null);
    setDragged(null);
  };

  const nodes: TreeNode[] = useMemo(() => buildTree(pages), [pages]);
  const ctx = useMemo<RowContext>(
    () => ({ ...actions, pages, canEdit, collapsed, setOpen, dragged, setDragged, list, pendingFocus, clearPendingFocus, moveByKeyboard }),
    [actions, pages, canEdit, collapsed, setOpen, dragged, list, pendingFocus, clearPendingFocus, moveByKeyboard],
  );
  return (
    <SelectionContext.Provider value={selection}>
      <ul ref={list} role="tree" aria-label="Pages" className="page-tree__list" aria-describedby={canEdit ? 'page-tree-keys' : undefined}>
        {nodes.map((node) => <TreeItem key={node.id} node={node} depth={1} parentId={null} ctx={ctx} />)}
      </ul>
      {canEdit && (
        <p id="page-tree-keys" className="visually-hidden">
          Alt+Shift+Right arrow moves a page under the page above it; Alt+Shift+Left arrow moves it up a level.
        </p>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">{announcement}</p>
      {canEdit && (
        <div
          className={`page-tree__root-drop${rootHover ? ' is-over' : ''}`}
          data-testid="tree-root-drop"
          onDragOver={(e) => { e.preventDefault(); setRootHover(true); }}
          onDragLeave={() => setRootHover(false)}
          onDrop={dropOnRoot}
        >
          Drop here to move to the top level
        </div>
      )}
    </SelectionContext.Provider>
  );
});

/** What every row shares; a new object only when one of these changes (not on selection). */
interface RowContext extends TreeActions {
  pages: readonly FlatPage[];
  canEdit: boolean;
  collapsed: Set<number>;
  setOpen: (id: number, open: boolean) => void;
  dragged: number | null;
  setDragged: (id: number | null) => void;
  list: React.RefObject<HTMLUListElement | null>;
  pendingFocus: PendingFocus | null;
  clearPendingFocus: () => void;
  moveByKeyboard: (id: number, direction: 'in' | 'out') => void;
}

interface ItemProps {
  node: TreeNode;
  depth: number;
  parentId: number | null;
  ctx: RowContext;
}

/** The name buttons of the rows on screen, in order (closed branches render no children;
 *  a closing one keeps them until its animation ends, but they are no longer walked). */
function visibleNames(list: HTMLUListElement | null): HTMLButtonElement[] {
  return list ? [...list.querySelectorAll<HTMLButtonElement>('.page-tree__name')].filter((b) => !b.closest('.is-collapsed')) : [];
}

// (the inner function has another name: its own name would shadow the memoised TreeItem)
const TreeItem = memo(function TreeRow({ node, depth, parentId, ctx }: ItemProps) {
  const { collapsed, setOpen, dragged, setDragged, pages, canEdit, list, pendingFocus } = ctx;
  const selected = useIsSelected(node.id);
  const [over, setOver] = useState(false);
  const nameButton = useRef<HTMLButtonElement>(null);
  const item = useRef<HTMLLIElement>(null);
  const open = !collapsed.has(node.id);
  const expansion = useExpansion(open);
  const hasChildren = node.children.length > 0;
  const accepts = dragged !== null && canDrop(pages, dragged, node.id);

  // Focus follows a page moved by keyboard, once it shows in its new place.
  useEffect(() => {
    if (pendingFocus && pendingFocus.id === node.id && pendingFocus.parent === parentId) {
      nameButton.current?.focus();
      ctx.clearPendingFocus();
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const action = treeKeyAction(event, { hasChildren, open }, canEdit);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') return ctx.moveByKeyboard(node.id, action.direction);
    if (action.kind === 'expand') return setOpen(node.id, true);
    if (action.kind === 'collapse') return setOpen(node.id, false);
    const names = visibleNames(list.current);
    const here = names.indexOf(nameButton.current!);
    const target = {
      previous: names[here - 1],
      next: names[here + 1],
      first: names[0],
      last: names.at(-1),
      parent: item.current?.parentElement?.closest('li[role="treeitem"]')?.querySelector<HTMLButtonElement>('.page-tree__name'),
      firstChild: item.current?.querySelector<HTMLButtonElement>('[role="group"] .page-tree__name'),
    }[action.to];
    target?.focus();
  };

  return (
    <li ref={item} role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-selected={selected} aria-level={depth}
      className="page-tree__item" data-page-id={node.id}>
      <div
        className={`page-tree__row${selected ? ' is-selected' : ''}${over && accepts ? ' is-drop-target' : ''}`}
        draggable={canEdit}
        onDragStart={(e) => {
          e.dataTransfer.setData(DRAG_TYPE, String(node.id));
          e.dataTransfer.effectAllowed = 'move';
          setDragged(node.id);
        }}
        onDragEnd={() => setDragged(null)}
        onDragOver={(e) => {
          if (!canEdit || !accepts) return;
          e.preventDefault();
          e.stopPropagation();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(false);
          if (dragged !== null && accepts) ctx.onMove(dragged, node.id);
          setDragged(null);
        }}
      >
        {hasChildren ? (
          <button type="button" className="page-tree__toggle" aria-label={`${open ? 'Collapse' : 'Expand'} ${node.name}`} onClick={() => setOpen(node.id, !open)}>
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="page-tree__toggle" aria-hidden="true" />
        )}
        <button ref={nameButton} type="button" className="page-tree__name" onClick={() => ctx.onSelect(node.id)} onKeyDown={onKeyDown}
          aria-current={selected ? 'page' : undefined}
          aria-keyshortcuts={canEdit ? `${MOVE_IN_KEYS} ${MOVE_OUT_KEYS}` : undefined}>
          {node.name}
        </button>
        {canEdit && <RowActions id={node.id} name={node.name} {...ctx} />}
      </div>
      {hasChildren && (
        <ul ref={expansion.ref} role="group" className={`page-tree__children${open ? '' : ' is-collapsed'}`} aria-hidden={!open || undefined} inert={!open || undefined}>
          {expansion.rendered && node.children.map((child) => <TreeItem key={child.id} node={child} depth={depth + 1} parentId={node.id} ctx={ctx} />)}
        </ul>
      )}
    </li>
  );
});
