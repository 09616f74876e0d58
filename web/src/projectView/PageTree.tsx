// The page tree: nested pages, expand and collapse, and for writers create child,
// rename, delete and drag to reparent (never onto itself or a descendant; the root
// area makes a page a root). While searching the matches are listed flat, without dragging.
import { useState, type DragEvent } from 'react';
import { buildTree, canDrop, type FlatPage, type TreeNode } from './pageTree';

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

const DRAG_TYPE = 'application/x-docs-page';

export function PageTree(props: Props) {
  const { pages, visiblePages, searching, canEdit, onMove } = props;
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [dragged, setDragged] = useState<number | null>(null);
  const [rootHover, setRootHover] = useState(false);
  const draggable = canEdit && !searching;

  const toggle = (id: number) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const nodes: TreeNode[] = searching
    ? visiblePages.map((p) => ({ id: p.id, name: p.name, type: p.type, children: [] }))
    : buildTree(pages);

  const dropOnRoot = (event: DragEvent) => {
    event.preventDefault();
    setRootHover(false);
    if (dragged !== null) onMove(dragged, null);
    setDragged(null);
  };

  return (
    <div className="page-tree" data-testid="page-tree">
      <ul role="tree" aria-label="Pages" className="page-tree__list">
        {nodes.map((node) => (
          <TreeItem key={node.id} node={node} depth={1} {...props} collapsed={collapsed} toggle={toggle}
            draggable={draggable} dragged={dragged} setDragged={setDragged} />
        ))}
      </ul>
      {draggable && (
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
    </div>
  );
}

interface ItemProps extends Props {
  node: TreeNode;
  depth: number;
  collapsed: Set<number>;
  toggle: (id: number) => void;
  draggable: boolean;
  dragged: number | null;
  setDragged: (id: number | null) => void;
}

function TreeItem(props: ItemProps) {
  const { node, depth, collapsed, toggle, draggable, dragged, setDragged, pages, selectedId, canEdit } = props;
  const [over, setOver] = useState(false);
  const open = !collapsed.has(node.id);
  const hasChildren = node.children.length > 0;
  const accepts = dragged !== null && canDrop(pages, dragged, node.id);

  return (
    <li role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-selected={selectedId === node.id} aria-level={depth}
      className="page-tree__item" data-page-id={node.id}>
      <div
        className={`page-tree__row${selectedId === node.id ? ' is-selected' : ''}${over && accepts ? ' is-drop-target' : ''}`}
        draggable={draggable}
        onDragStart={(e) => {
          e.dataTransfer.setData(DRAG_TYPE, String(node.id));
          e.dataTransfer.effectAllowed = 'move';
          setDragged(node.id);
        }}
        onDragEnd={() => setDragged(null)}
        onDragOver={(e) => {
          if (!draggable || !accepts) return;
          e.preventDefault();
          e.stopPropagation();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(false);
          if (dragged !== null && accepts) props.onMove(dragged, node.id);
          setDragged(null);
        }}
      >
        {hasChildren ? (
          <button type="button" className="page-tree__toggle" aria-label={`${open ? 'Collapse' : 'Expand'} ${node.name}`} onClick={() => toggle(node.id)}>
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="page-tree__toggle" aria-hidden="true" />
        )}
        <button type="button" className="page-tree__name" onClick={() => props.onSelect(node.id)}
          aria-current={selectedId === node.id ? 'page' : undefined}>
          {node.name}
        </button>
        {canEdit && (
          <span className="page-tree__actions">
            <button type="button" className="icon-button" aria-label={`Add a page under ${node.name}`} onClick={() => props.onCreateChild(node.id)}>+</button>
            <button type="button" className="icon-button" aria-label={`Rename ${node.name}`} onClick={() => props.onRename(node.id, node.name)}>✎</button>
            <button type="button" className="icon-button" aria-label={`Delete ${node.name}`} onClick={() => props.onDelete(node.id, node.name)}>✕</button>
          </span>
        )}
      </div>
      {hasChildren && (
        <ul role="group" className={`page-tree__children${open ? '' : ' is-collapsed'}`}>
          {open && node.children.map((child) => <TreeItem key={child.id} {...props} node={child} depth={depth + 1} />)}
        </ul>
      )}
    </li>
  );
}
