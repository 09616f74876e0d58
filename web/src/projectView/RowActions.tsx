// Add a child, rename, delete: the same three buttons in the tree and the search list.
import type { TreeActions } from './PageTree';

export function RowActions({ id, name, onCreateChild, onRename, onDelete }: { id: number; name: string } & Pick<TreeActions, 'onCreateChild' | 'onRename' | 'onDelete'>) {
  return (
    <span className="page-tree__actions">
      <button type="button" className="icon-button" aria-label={`Add a page under ${name}`} onClick={() => onCreateChild(id)}>+</button>
      <button type="button" className="icon-button" aria-label={`Rename ${name}`} onClick={() => onRename(id, name)}>✎</button>
      <button type="button" className="icon-button" aria-label={`Delete ${name}`} onClick={() => onDelete(id, name)}>✕</button>
    </span>
  );
}
