import { describe, expect, it } from 'vitest';
import { buildSearchIndex, searchIndex } from './pageSearch';
import { fuzzyMatches } from '../spec/search';

// A small seeded generator, so a failure names a reproducible case.
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function mutate(word: string, edits: number, rnd: () => number, alphabet: string): string {
  let w = word;
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (w.length + 1));
    const ch = alphabet[Math.floor(rnd() * alphabet.length)]!;
    const op = Math.floor(rnd() * 3);
    w = op === 0 ? w.slice(0, at) + ch + w.slice(at) : op === 1 ? w.slice(0, at) + w.slice(at + 1) : w.slice(0, at) + ch + w.slice(at + 1);
  }
  return w;
}

const page = (name: string, id = 1) => ({ id, name });

describe('page search index', () => {
  it('follows the spec rules: 2 characters, substring, subsequence, typos by length', () => {
    const names = ['Install guide', 'Setup', 'Linux', 'Reference', 'Überblick', 'Section 1234 of chapter 34'];
    const index = buildSearchIndex(names.map((n, i) => page(n, i)));
    const found = (q: string) => searchIndex(index, q).map((p) => p.name);
    expect(found('g')).toEqual(names); // below 2 characters: everything
    for (const [query, target] of [
      ['  GUIDE ', 'Install guide'],
      ['stp', 'Setup'], // subsequence
      ['lnx', 'Linux'],
      ['refrence', 'Reference'], // one typo at 8 characters
      ['linex', 'Linux'], // one typo at 5 characters
      ['überb', 'Überblick'],
      ['Section 1243', 'Section 1234 of chapter 34'], // two typos at 12 characters
    ]) {
      expect(found(query!)).toContain(target);
      expect(found(query!)).toEqual(names.filter((n) => fuzzyMatches(query!, n)));
    }
    expect(found('xyz')).toEqual([]); // no typo allowed at 3 characters
  });

  it('answers exactly as the spec matcher on thousands of generated cases', () => {
    const rnd = random(12345);
    const alphabet = 'abcdefghij klmnop0123456789';
    const names = Array.from({ length: 300 }, () => Array.from({ length: 3 + Math.floor(rnd() * 30) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(''));
    names.push('Section 1234 of chapter 34', 'Chapter 7', 'Install guide');
    const index = buildSearchIndex(names.map((n, i) => page(n, i)));
    let mismatches = 0;
    for (let trial = 0; trial < 1000; trial++) {
      const base = names[Math.floor(rnd() * names.length)]!;
      const start = Math.floor(rnd() * base.length);
      const piece = base.slice(start, start + 2 + Math.floor(rnd() * 12));
      const query = mutate(piece, Math.floor(rnd() * 4), rnd, alphabet);
      const fast = searchIndex(index, query).map((p) => p.id);
      const spec = names.map((n, i) => [n, i] as const).filter(([n]) => fuzzyMatches(query, n)).map(([, i]) => i);
      if (JSON.stringify(fast) !== JSON.stringify(spec)) mismatches++;
      expect(fast, `query ${JSON.stringify(query)}`).toEqual(spec);
    }
    expect(mismatches).toBe(0);
  });

  it('long queries (over 32 characters) still match', () => {
    const name = 'a very long page name about configuration files and parsers';
    const index = buildSearchIndex([page(name)]);
    expect(searchIndex(index, 'a very long page name about configuraton files')).toHaveLength(1);
    expect(searchIndex(index, 'completely different words that do not match at all')).toHaveLength(0);
  });
});
