// Keys of the page tree (WAI-ARIA tree pattern): Up and Down go to the previous or next
// visible page, Home and End to the first or last, Right opens a closed page or goes to
// its first child, Left closes an open page or goes to its parent. With edit rights,
// Alt+Shift+Right moves the page under the one above it and Alt+Shift+Left lifts it a level.
export type TreeKeyAction =
  | { kind: 'focus'; to: 'previous' | 'next' | 'first' | 'last' | 'parent' | 'firstChild' }
  | { kind: 'expand' }
  | { kind: 'collapse' }
  | { kind: 'move'; direction: 'in' | 'out' }
  | null;

export const MOVE_IN_KEYS = 'Alt+Shift+ArrowRight';
export const MOVE_OUT_KEYS = 'Alt+Shift+ArrowLeft';

interface KeyState {
  key: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export function treeKeyAction(e: KeyState, node: { hasChildren: boolean; open: boolean }, canMove: boolean): TreeKeyAction {
  if (e.ctrlKey || e.metaKey) return null;
  if (e.altKey && e.shiftKey) {
    if (!canMove) return null;
    if (e.key === 'ArrowRight') return { kind: 'move', direction: 'in' };
    if (e.key === 'ArrowLeft') return { kind: 'move', direction: 'out' };
    return null;
  }
  if (e.altKey || e.shiftKey) return null;
  switch (e.key) {
    case 'ArrowUp': return { kind: 'focus', to: 'previous' };
    case 'ArrowDown': return { kind: 'focus', to: 'next' };
    case 'Home': return { kind: 'focus', to: 'first' };
    case 'End': return { kind: 'focus', to: 'last' };
    case 'ArrowRight':
      if (!node.hasChildren) return null;
      return node.open ? { kind: 'focus', to: 'firstChild' } : { kind: 'expand' };
    case 'ArrowLeft':
      return node.hasChildren && node.open ? { kind: 'collapse' } : { kind: 'focus', to: 'parent' };
    default: return null;
  }
}
