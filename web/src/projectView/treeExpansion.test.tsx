// The tree's expansion animation: height from 0 up to the branch's height, at most
// 1000 px (spec section 9), then released; the reverse when closing, then the rows go.
// None with prefers-reduced-motion.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageTree } from './PageTree';
import { expansionHeights } from './treeExpansion';
import type { FlatPage } from './pageTree';

const pages: FlatPage[] = [
  { id: 1, parent_id: 0, name: 'Guide', type: 'generated' },
  { id: 2, parent_id: 1, name: 'Linux', type: 'generated' },
];
let branchHeight = 0;
let reduce = false;

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => branchHeight);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: reduce && query.includes('reduce'), addEventListener() {}, removeEventListener() {} }));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  reduce = false;
});

function renderTree() {
  const noop = () => {};
  render(<PageTree pages={pages} visiblePages={pages} searching={false} selectedId={null} canEdit={false}
    onSelect={noop} onCreateChild={noop} onRename={noop} onDelete={noop} onMove={noop} />);
  return document.querySelector<HTMLUListElement>('[role="group"]')!;
}

describe('tree expansion animation', () => {
  it('caps the animated height at 1000 px', () => {
    expect(expansionHeights(true, 240)).toEqual([0, 240]);
    expect(expansionHeights(true, 5000)).toEqual([0, 1000]);
    expect(expansionHeights(false, 5000)).toEqual([1000, 0]);
  });

  it.each([[240, '240px'], [5000, '1000px']])('a %i px branch opens to %s, then the height is released', (height, target) => {
    branchHeight = height;
    const group = renderTree();
    expect(group.style.height).toBe(''); // no animation on first render
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Guide' }));
    expect(group.style.height).toBe('0px'); // closing: down to 0
    expect(screen.queryByRole('button', { name: 'Linux' })).toBeNull(); // out of the tree at once
    fireEvent.transitionEnd(group);
    expect(group.querySelector('.page-tree__name')).toBeNull(); // rows gone after the animation

    fireEvent.click(screen.getByRole('button', { name: 'Expand Guide' }));
    expect(group.style.height).toBe(target);
    expect(group).toHaveClass('is-animating');
    expect(screen.getByRole('button', { name: 'Linux' })).toBeInTheDocument();
    fireEvent.transitionEnd(group);
    expect(group.style.height).toBe('');
    expect(group).not.toHaveClass('is-animating');
  });

  it('ends even without transitionend', () => {
    vi.useFakeTimers();
    branchHeight = 240;
    const group = renderTree();
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Guide' }));
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(group.style.height).toBe('');
    expect(group.querySelector('.page-tree__name')).toBeNull();
  });

  it('does not animate with prefers-reduced-motion', () => {
    reduce = true;
    branchHeight = 240;
    const group = renderTree();
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Guide' }));
    expect(group.style.height).toBe('');
    expect(group.querySelector('.page-tree__name')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand Guide' }));
    expect(group.style.height).toBe('');
    expect(group).not.toHaveClass('is-animating');
  });
});
