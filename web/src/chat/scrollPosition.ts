// When the floating 'Continue prompting' button shows: the log is scrolled more than a
// little way above its bottom (a few pixels of rounding do not count).
export const AWAY_FROM_BOTTOM_PX = 48;

export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export function isAwayFromBottom(m: ScrollMetrics, threshold = AWAY_FROM_BOTTOM_PX): boolean {
  return m.scrollHeight - m.clientHeight - m.scrollTop > threshold;
}
