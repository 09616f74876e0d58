// Fuzzy match of the spec: minimum 2 characters, substring or subsequence, and typo
// tolerance that grows with the query's length.
import { SEARCH_MIN_CHARS } from './constants';

export function typoTolerance(queryLength: number): number {
  if (queryLength <= 3) return 0;
  if (queryLength <= 6) return 1;
  return 2;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (const ch of haystack) if (ch === needle[i]) i++;
  return i === needle.length;
}

/** Smallest edit distance between the needle and any substring of the haystack. */
function bestSubstringDistance(needle: string, haystack: string): number {
  let previous = new Array<number>(haystack.length + 1).fill(0);
  for (let i = 1; i <= needle.length; i++) {
    const current = [i];
    for (let j = 1; j <= haystack.length; j++) {
      const cost = needle[i - 1] === haystack[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return Math.min(...previous);
}

export function fuzzyMatches(query: string, text: string): boolean {
  const q = query.trim().toLowerCase();
  if (q.length < SEARCH_MIN_CHARS) return true;
  const t = text.toLowerCase();
  if (t.includes(q) || isSubsequence(q, t)) return true;
  return bestSubstringDistance(q, t) <= typoTolerance(q.length);
}

export function fuzzyFilter<T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] {
  return items.filter((item) => fuzzyMatches(query, textOf(item)));
}
