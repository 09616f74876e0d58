// The page tree rules of spec section 4: nesting by parent_id (0 or absent is a root),
// no drop onto a page itself or its descendant, and the search filter.
import { buildSearchIndex, searchIndex } from './pageSearch';
import { SEARCH_MIN_CHARS } from '../spec/constants';

export interface FlatPage {
  id: number;
  parent_id?: number | null;
  name: string;
  type: 'file' | 'generated';
  position?: number;
}

export interface TreeNode {
  id: number;
  name: string;
  type: 'file' | 'generated';
  children: TreeNode[];
}

function parentOf(page: FlatPage, known: Set<number>): number {
  const parent = page.parent_id ?? 0;
  return parent && known.has(parent) ? parent : 0;
}

/** Nests pages by parent_id; siblings keep position, then id. Orphans become roots. */
export function buildTree(pages: readonly FlatPage[]): TreeNode[] {
  const known = new Set(pages.map((p) => p.id));
  const sorted = [...pages].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
  const byParent = new Map<number, FlatPage[]>();
  for (const page of sorted) {
    const parent = parentOf(page, known);
    byParent.set(parent, [...(byParent.get(parent) ?? []), page]);
  }
  const build = (parent: number, seen: Set<number>): TreeNode[] =>
    (byParent.get(parent) ?? [])
      .filter((p) => !seen.has(p.id))
      .map((p) => ({ id: p.id, name: p.name, type: p.type, children: build(p.id, new Set([...seen, p.id])) }));
  return build(0, new Set());
}

/** True when `candidate` is `pageId` itself or lies anywhere under it. */
export function isSelfOrDescendant(pages: readonly FlatPage[], pageId: number, candidate: number): boolean {
  const parents = new Map(pages.map((p) => [p.id, p.parent_id ?? 0]));
  let current: number | undefined = candidate;
  const visited = new Set<number>();
  while (current && !visited.has(current)) {
    if (current === pageId) return true;
    visited.add(current);
    current = parents.get(current);
  }
  return false;
}

/** A page may be dropped on a target page (null: the root area) unless that is itself or below it. */
export function canDrop(pages: readonly FlatPage[], dragged: number, target: number | null): boolean {
  if (target === null) return true;
  return !isSelfOrDescendant(pages, dragged, target);
}

export function isSearching(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_CHARS;
}

/** The pages matching the search, flat (the tree shows them as a list while searching). */
export function searchPages<T extends FlatPage>(pages: readonly T[], query: string): T[] {
  return searchIndex(buildSearchIndex(pages), query);
}

/** The ids of every node that has children, for expand-all. */
export function ancestorsOf(pages: readonly FlatPage[], pageId: number): number[] {
  const parents = new Map(pages.map((p) => [p.id, p.parent_id ?? 0]));
  const result: number[] = [];
  let current = parents.get(pageId) ?? 0;
  while (current && !result.includes(current)) {
    result.push(current);
    current = parents.get(current) ?? 0;
  }
  return result;
}

/** Where a page sits among its siblings in the tree as shown (position, then id). */
function siblingsOf(pages: readonly FlatPage[], pageId: number): { parent: number; siblings: FlatPage[] } | null {
  const known = new Set(pages.map((p) => p.id));
  const page = pages.find((p) => p.id === pageId);
  if (!page) return null;
  const parent = parentOf(page, known);
  const siblings = pages
    .filter((p) => parentOf(p, known) === parent)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
  return { parent, siblings };
}

/**
 * Keyboard moves (the drag's equivalent): 'in' puts a page under the sibling above it,
 * 'out' lifts it next to its parent. Returns the new parent (null: top level), or
 * undefined when the page cannot move that way.
 */
export function keyboardMoveTarget(pages: readonly FlatPage[], pageId: number, direction: 'in' | 'out'): number | null | undefined {
  const place = siblingsOf(pages, pageId);
  if (!place) return undefined;
  if (direction === 'in') {
    const index = place.siblings.findIndex((p) => p.id === pageId);
    return index > 0 ? place.siblings[index - 1]!.id : undefined;
  }
  if (place.parent === 0) return undefined;
  const parent = pages.find((p) => p.id === place.parent)!;
  const grandparent = parentOf(parent, new Set(pages.map((p) => p.id)));
  return grandparent === 0 ? null : grandparent;
}
