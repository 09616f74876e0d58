import { describe, expect, test } from 'vitest';
import { ancestorsOf, buildTree, canDrop, isSelfOrDescendant, searchPages } from './pageTree';
import { capabilitiesOf } from './projectRoles';

const pages = [
  { id: 1, parent_id: 0, name: 'Overview', type: 'generated' as const, position: 1 },
  { id: 2, parent_id: 1, name: 'Install guide', type: 'generated' as const, position: 1 },
  { id: 3, parent_id: 2, name: 'Linux', type: 'file' as const, position: 1 },
  { id: 4, parent_id: null, name: 'Reference', type: 'generated' as const, position: 2 },
  { id: 5, parent_id: 99, name: 'Orphan', type: 'generated' as const, position: 3 },
];

describe('buildTree', () => {
  test('nests by parent_id; 0, null and unknown parents are roots', () => {
    const tree = buildTree(pages);
    expect(tree.map((n) => n.id)).toEqual([1, 4, 5]);
    expect(tree[0]!.children[0]!.id).toBe(2);
    expect(tree[0]!.children[0]!.children[0]!.name).toBe('Linux');
  });
  test('siblings by position then id', () => {
    const tree = buildTree([
      { id: 9, name: 'b', type: 'generated', position: 1 },
      { id: 8, name: 'a', type: 'generated', position: 1 },
      { id: 7, name: 'c', type: 'generated', position: 0 },
    ]);
    expect(tree.map((n) => n.id)).toEqual([7, 8, 9]);
  });
  test('a cycle in the data does not loop', () => {
    expect(buildTree([{ id: 1, parent_id: 2, name: 'a', type: 'generated' }, { id: 2, parent_id: 1, name: 'b', type: 'generated' }])).toEqual([]);
  });
});

describe('drop rules', () => {
  test('never onto itself or a descendant', () => {
    expect(isSelfOrDescendant(pages, 1, 1)).toBe(true);
    expect(isSelfOrDescendant(pages, 1, 3)).toBe(true);
    expect(canDrop(pages, 1, 3)).toBe(false);
    expect(canDrop(pages, 1, 2)).toBe(false);
    expect(canDrop(pages, 3, 1)).toBe(true);
    expect(canDrop(pages, 2, 4)).toBe(true);
  });
  test('the root area always accepts', () => {
    expect(canDrop(pages, 3, null)).toBe(true);
  });
  test('ancestors of a page', () => {
    expect(ancestorsOf(pages, 3)).toEqual([2, 1]);
    expect(ancestorsOf(pages, 4)).toEqual([]);
  });
});

describe('search', () => {
  test('fewer than 2 characters keeps every page', () => {
    expect(searchPages(pages, 'l')).toHaveLength(5);
  });
  test('substring, subsequence and a typo', () => {
    expect(searchPages(pages, 'inst').map((p) => p.id)).toEqual([2]);
    expect(searchPages(pages, 'rfrnc').map((p) => p.id)).toEqual([4]);
    expect(searchPages(pages, 'Ovreview').map((p) => p.id)).toEqual([1]);
    expect(searchPages(pages, 'zzzz')).toEqual([]);
  });
});

describe('capabilities by role', () => {
  test.each([
    ['read', true, false, false],
    ['write', true, true, false],
    ['admin', true, true, true],
    ['admin', false, false, false],
    [null, true, false, false],
  ] as const)('%s signed in %s: edit %s, manage users %s', (role, signedIn, canEdit, canManageUsers) => {
    expect(capabilitiesOf(role, signedIn)).toEqual({ signedIn, canEdit, canManageUsers });
  });
});
