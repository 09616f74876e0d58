// Local storage keys of the spec (section 3) and safe JSON access to them.
export const STORAGE_KEYS = {
  authToken: 'auth-jwt',
  user: 'user',
  projects: 'projects',
  creationBasis: 'project-creation-basis',
  projectId: 'project_id',
  pageId: 'page_id',
  preferences: 'preferences',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readString(key: StorageKey): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeString(key: StorageKey, value: string): void {
  storage()?.setItem(key, value);
}

export function readJson<T>(key: StorageKey): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

export function remove(key: StorageKey): void {
  storage()?.removeItem(key);
}
