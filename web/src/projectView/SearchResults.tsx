// The search matches as a flat list, drawn windowed: only the rows in view (plus a
// margin) exist in the DOM, each placed at its offset, with its position announced.
import { useLayoutEffect, useRef, useState } from 'react';
import type { FlatPage } from './pageTree';
import type { TreeActions } from './PageTree';
import { RowActions } from './RowActions';
import { rowWindow, SEARCH_ROW_PX } from './virtualWindow';

interface Props extends TreeActions {
  pages: readonly FlatPage[];
  selectedId: number | null;
  canEdit: boolean;
}

export function SearchResults(props: Props) {
  const { pages, selectedId, canEdit } = props;
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 0 });

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight });
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  const { start, end } = rowWindow(pages.length, view.top, view.height);
  return (
    <div ref={box} className="page-search-results" onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}>
      <ul role="tree" aria-label="Pages" className="page-tree__list page-search-results__list" style={{ height: pages.length * SEARCH_ROW_PX }}>
        {pages.slice(start, end).map((page, i) => (
          <li key={page.id} role="treeitem" aria-level={1} aria-setsize={pages.length} aria-posinset={start + i + 1}
            aria-selected={selectedId === page.id} className="page-tree__item page-search-results__item" data-page-id={page.id}
            style={{ top: (start + i) * SEARCH_ROW_PX, height: SEARCH_ROW_PX }}>
            <div className={`page-tree__row${selectedId === page.id ? ' is-selected' : ''}`}>
              <span className="page-tree__toggle" aria-hidden="true" />
              <button type="button" className="page-tree__name" onClick={() => props.onSelect(page.id)}
                aria-current={selectedId === page.id ? 'page' : undefined}>
                {page.name}
              </button>
              {canEdit && <RowActions id={page.id} name={page.name} {...props} />}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
