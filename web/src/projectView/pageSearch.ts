// The page search of spec section 5 made fast for large projects: names are lowercased
// once per load, and the typo-tolerant part runs Myers' bit-parallel approximate
// matching (one pass over a name, a few integer operations per character) instead of a
// dynamic-programming table per name. Same answers as spec/search.ts's fuzzyMatches.
import { SEARCH_MIN_CHARS } from '../spec/constants';
import { fuzzyMatches, typoTolerance } from '../spec/search';

export interface SearchIndex<T> {
  pages: readonly T[];
  lower: readonly string[];
}

export function buildSearchIndex<T extends { name: string }>(pages: readonly T[]): SearchIndex<T> {
  return { pages, lower: pages.map((p) => p.name.toLowerCase()) };
}

function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (let j = 0; j < haystack.length && i < needle.length; j++) if (haystack.charCodeAt(j) === needle.charCodeAt(i)) i++;
  return i === needle.length;
}

/** A compiled query: for each character, the bit mask of where it occurs in the query. */
interface Pattern {
  length: number;
  masks: Map<number, number>;
  last: number;
}

function compile(query: string): Pattern {
  const masks = new Map<number, number>();
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    masks.set(c, (masks.get(c) ?? 0) | (1 << i));
  }
  return { length: query.length, masks, last: 1 << (query.length - 1) };
}

/**
 * True when some substring of `text` is within `k` edits of the pattern (Myers 1999,
 * semi-global: the match may start anywhere). Patterns up to 32 characters.
 */
function withinEdits(p: Pattern, text: string, k: number): boolean {
  let pv = -1;
  let mv = 0;
  let score = p.length;
  for (let j = 0; j < text.length; j++) {
    const eq = p.masks.get(text.charCodeAt(j)) ?? 0;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & p.last) score++;
    else if (mh & p.last) score--;
    if (score <= k) return true;
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return false;
}

const MAX_PATTERN = 32;

/** The pages whose names match the query (all of them below 2 characters). */
export function searchIndex<T extends { name: string }>(index: SearchIndex<T>, query: string): T[] {
  const q = query.trim().toLowerCase();
  if (q.length < SEARCH_MIN_CHARS) return [...index.pages];
  const k = typoTolerance(q.length);
  const pattern = q.length <= MAX_PATTERN ? compile(q) : null;
  return index.pages.filter((page, i) => {
    const name = index.lower[i]!;
    if (name.includes(q) || isSubsequence(q, name)) return true;
    if (k === 0) return false;
    return pattern ? withinEdits(pattern, name, k) : fuzzyMatches(q, page.name);
  });
}
