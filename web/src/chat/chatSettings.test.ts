import { describe, expect, it } from 'vitest';
import {
  CHAT_SETTINGS_KEY, DEFAULT_CHAT_SETTINGS, countOf, isBlockedCountKey, loadChatSettings, normalizeChatSettings,
  sanitizeCountText, saveChatSettings,
} from './chatSettings';

describe('chat settings', () => {
  it('defaults to the spec: 10 docs, 10 code, an AI answer, code and docs', () => {
    expect(DEFAULT_CHAT_SETTINGS).toEqual({ docsN: 10, codeN: 10, isSearchOnly: false, searchScope: 'codeAndDocs' });
    expect(loadChatSettings()).toEqual(DEFAULT_CHAT_SETTINGS);
  });

  it.each([
    ['42', '42'],
    ['0', '0'],
    ['1000', '1000'],
    ['1001', '1000'],
    ['99999', '1000'],
    ['007', '7'],
    ['000', '0'],
    ['1 2', '12'],
    [' 5 ', '5'],
    ['12abc', '12'],
    ['-3', '3'],
    ['2.5', '25'],
    ['1e3', '13'],
    ['', ''],
    ['   ', ''],
    ['abc', ''],
  ])('a count field keeps %j as %j', (typed, kept) => {
    expect(sanitizeCountText(typed)).toBe(kept);
  });

  it('an empty count counts as 0', () => {
    expect(countOf('')).toBe(0);
    expect(countOf('1500')).toBe(1000);
  });

  it.each([
    [' ', true],
    ['a', true],
    ['-', true],
    ['.', true],
    ['e', true],
    ['+', true],
    ['5', false],
    ['0', false],
    ['Backspace', false],
    ['ArrowLeft', false],
    ['Tab', false],
    ['Enter', false],
  ])('key %j blocked: %s', (key, blocked) => {
    expect(isBlockedCountKey(key)).toBe(blocked);
  });

  it('persists locally and reads back', () => {
    const mine = { docsN: 0, codeN: 1000, isSearchOnly: true, searchScope: 'code' as const };
    saveChatSettings(mine);
    expect(JSON.parse(localStorage.getItem(CHAT_SETTINGS_KEY)!)).toEqual(mine);
    expect(loadChatSettings()).toEqual(mine);
  });

  it('falls back to the default field by field for bad stored values', () => {
    expect(normalizeChatSettings({ docsN: 1001, codeN: -1, isSearchOnly: 'yes', searchScope: 'everything' })).toEqual(DEFAULT_CHAT_SETTINGS);
    expect(normalizeChatSettings({ docsN: 2.5, codeN: 3, searchScope: 'docs' })).toEqual({ ...DEFAULT_CHAT_SETTINGS, codeN: 3, searchScope: 'docs' });
    expect(normalizeChatSettings(null)).toEqual(DEFAULT_CHAT_SETTINGS);
    localStorage.setItem(CHAT_SETTINGS_KEY, '{not json');
    expect(loadChatSettings()).toEqual(DEFAULT_CHAT_SETTINGS);
  });
});
