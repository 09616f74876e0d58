import { describe, expect, it } from 'vitest';
import { linkedLines, sourceLanguage } from './sourceLanguage';

describe('the source view', () => {
  it('highlights by extension, plain text otherwise', () => {
    expect(sourceLanguage('src/lib.rs')).toBe('rust');
    expect(sourceLanguage('pkg/a.test.TSX')).toBe('typescript');
    expect(sourceLanguage('Dockerfile')).toBe('dockerfile');
    expect(sourceLanguage('notes.unknownext')).toBeNull();
    expect(sourceLanguage('.bashrc')).toBeNull();
  });

  it('reads the linked lines from the hash', () => {
    expect(linkedLines('#L10-L20')).toEqual({ from: 10, to: 20 });
    expect(linkedLines('#L7')).toEqual({ from: 7, to: 7 });
    expect(linkedLines('#L9-L3')).toBeNull();
    expect(linkedLines('#L0')).toBeNull();
    expect(linkedLines('#top')).toBeNull();
    expect(linkedLines('')).toBeNull();
  });
});
