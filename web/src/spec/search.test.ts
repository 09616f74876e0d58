// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fuzzyMatches, typoTolerance } from './search';

describe('fuzzy search', () => {
  it.each([
    ['a', 'anything', true], // under 2 characters: no filtering
    ['pay', 'payments-service', true], // substring
    ['PAY', 'payments-service', true], // case-insensitive
    ['pmts', 'payments-service', true], // subsequence
    ['paymnets', 'payments-service', true], // typo within tolerance
    ['xyz', 'payments-service', false],
    ['web', 'ml-pipeline', false],
  ])('%s in %s: %s', (query, text, expected) => {
    expect(fuzzyMatches(query, text)).toBe(expected);
  });

  it.each([[2, 0], [3, 0], [4, 1], [6, 1], [7, 2], [20, 2]])('tolerates typos by length: %i -> %i', (n, t) => {
    expect(typoTolerance(n)).toBe(t);
  });
});
