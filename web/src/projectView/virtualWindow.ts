// Which rows of a long list to render: the ones in view plus a margin, so a search that
// matches 2,000 pages draws a few dozen rows instead of all of them.
export const SEARCH_ROW_PX = 34;
export const OVERSCAN_ROWS = 8;
/** Rows drawn before the list has been measured (and in test DOMs, which have no layout). */
export const UNMEASURED_ROWS = 40;

export interface RowWindow {
  start: number;
  end: number; // exclusive
}

export function rowWindow(count: number, scrollTop: number, viewportPx: number, rowPx = SEARCH_ROW_PX, overscan = OVERSCAN_ROWS): RowWindow {
  const inView = viewportPx > 0 ? Math.ceil(viewportPx / rowPx) : UNMEASURED_ROWS;
  const first = Math.max(0, Math.floor(scrollTop / rowPx) - overscan);
  return { start: Math.min(first, count), end: Math.min(count, first + inView + 2 * overscan) };
}
