// Chat settings of spec sections 3, 5 and 9: docsN and codeN (integers 0 to 1000, digits
// only, spaces blocked), isSearchOnly and searchScope, kept in local storage.
export const SEARCH_SCOPES = ['codeAndDocs', 'code', 'docs'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

export interface ChatSettings {
  docsN: number;
  codeN: number;
  isSearchOnly: boolean;
  searchScope: SearchScope;
}

export const CHAT_COUNT_MIN = 0;
export const CHAT_COUNT_MAX = 1000;
export const DEFAULT_CHAT_SETTINGS: ChatSettings = { docsN: 10, codeN: 10, isSearchOnly: false, searchScope: 'codeAndDocs' };
export const CHAT_SETTINGS_KEY = 'chat-settings';

/** Keys a count field refuses outright: spaces and anything that is not a digit (editing keys pass). */
export function isBlockedCountKey(key: string): boolean {
  if (key.length !== 1) return false; // Backspace, arrows, Tab, Enter...
  return !/^\d$/.test(key);
}

/**
 * What a count field keeps of typed or pasted text: its digits, without leading zeros,
 * capped at 1000. An empty field stays empty while editing (it counts as 0).
 */
export function sanitizeCountText(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (!digits) return '';
  const value = Number(digits.replace(/^0+(?=\d)/, ''));
  return String(Math.min(value, CHAT_COUNT_MAX));
}

export function countOf(text: string): number {
  const clean = sanitizeCountText(text);
  return clean ? Number(clean) : CHAT_COUNT_MIN;
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= CHAT_COUNT_MIN && (value as number) <= CHAT_COUNT_MAX;
}

/** Stored settings field by field; anything missing or out of range falls back to the default. */
export function normalizeChatSettings(raw: unknown): ChatSettings {
  const value = (raw && typeof raw === 'object' ? raw : {}) as Partial<Record<keyof ChatSettings, unknown>>;
  return {
    docsN: isCount(value.docsN) ? value.docsN : DEFAULT_CHAT_SETTINGS.docsN,
    codeN: isCount(value.codeN) ? value.codeN : DEFAULT_CHAT_SETTINGS.codeN,
    isSearchOnly: typeof value.isSearchOnly === 'boolean' ? value.isSearchOnly : DEFAULT_CHAT_SETTINGS.isSearchOnly,
    searchScope: SEARCH_SCOPES.includes(value.searchScope as SearchScope) ? (value.searchScope as SearchScope) : DEFAULT_CHAT_SETTINGS.searchScope,
  };
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadChatSettings(): ChatSettings {
  try {
    return normalizeChatSettings(JSON.parse(storage()?.getItem(CHAT_SETTINGS_KEY) ?? 'null'));
  } catch {
    return { ...DEFAULT_CHAT_SETTINGS };
  }
}

export function saveChatSettings(settings: ChatSettings): void {
  try {
    storage()?.setItem(CHAT_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // A full or blocked storage only loses persistence.
  }
}
