// Choosing a page in a large tree re-renders the two rows whose mark changes, not every
// row, even though the page view passes new callbacks on each render.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FlatPage } from './pageTree';

const rowRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('./RowActions', () => ({
  RowActions: () => {
    rowRenders.count += 1;

    return null;
  },
}));
const { PageTree } = await import('./PageTree');

afterEach(cleanup);

const pages: FlatPage[] = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, parent_id: i < 10 ? 0 : (i % 10) + 1, name: `Page ${i + 1}`, type: 'generated' }));

function tree(selectedId: number | null) {
  // new arrows each time, as ProjectViewPage passes them
  return <PageTree pages={pages} visiblePages={pages} searching={false} selectedId={selectedId} canEdit
    onSelect={() => {}} onCreateChild={() => {}} onRename={() => {}} onDelete={() => {}} onMove={() => {}} />;
}

describe('choosing a page', () => {
  it('marks the chosen row and re-renders only the two rows that change', () => {
    const view = render(tree(5));
    expect(rowRenders.count).toBe(200);
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');

    rowRenders.count = 0;
    view.rerender(tree(150));
    expect(screen.getByRole('button', { name: 'Page 150' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Page 5' })).not.toHaveAttribute('aria-current');
    expect(document.querySelector('[data-page-id="150"]')).toHaveAttribute('aria-selected', 'true');
    expect(rowRenders.count).toBe(2);

    rowRenders.count = 0;
    view.rerender(tree(150));
    expect(rowRenders.count).toBe(0);
  });
});
