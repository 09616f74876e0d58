import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import * as Y from 'yjs';
import { COLLAB_FALLBACK_MS, useCollabDocument } from './useCollabDocument';
import { cacheChanges, readCachedPage, writeCachedPage } from './localCache';
import { toBase64 } from './bytes';
import { getPageContent } from '../../api/pagesApi';

// A provider that never connects unless the test says so.
const providers = vi.hoisted(() => [] as { config: Record<string, (arg?: unknown) => void>; isSynced: boolean; authorizedScope?: string; destroyed: boolean }[]);
vi.mock('@hocuspocus/provider', () => ({
  HocuspocusProvider: class {
    config: Record<string, (arg?: unknown) => void>;
    isSynced = false;
    authorizedScope?: string;
    destroyed = false;
    constructor(config: Record<string, (arg?: unknown) => void>) {
      this.config = config;
      providers.push(this);
    }
    disconnect() {}
    connect() {}
    destroy() {
      this.destroyed = true;
    }
  },
}));
vi.mock('../../api/pagesApi', () => ({ getPageContent: vi.fn() }));
vi.mock('../../session/sessionStore', () => ({ syncSession: vi.fn(async () => null) }));

const content = vi.mocked(getPageContent);

function docWith(text: string): Y.Doc {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, text);
  return doc;
}
const textOf = (doc: Y.Doc) => doc.getText('t').toString();

beforeEach(() => {
  providers.length = 0;
  content.mockReset();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.useRealTimers());

describe('content load without collaboration', () => {
  it('stored content is shown read-only', async () => {
    content.mockResolvedValue(toBase64(Y.encodeStateAsUpdate(docWith('stored text'))));
    const { result } = renderHook(() => useCollabDocument(1, 7, false));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(textOf(result.current.doc)).toBe('stored text');
    expect(result.current.writable).toBe(false);
  });

  it('a page never written (404, answered as null) is empty, not the cache', async () => {
    writeCachedPage(7, docWith('old cached text'));
    content.mockResolvedValue(null);
    const { result } = renderHook(() => useCollabDocument(1, 7, false));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(textOf(result.current.doc)).toBe('');
  });

  it('any other failure shows the local cache', async () => {
    writeCachedPage(7, docWith('cached text'));
    content.mockRejectedValue(Object.assign(new Error('boom'), { status: 500 }));
    const { result } = renderHook(() => useCollabDocument(1, 7, false));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(textOf(result.current.doc)).toBe('cached text');
  });

  it('development mode edits its copy locally', async () => {
    content.mockResolvedValue(null);
    const { result } = renderHook(() => useCollabDocument(1, 7, false, true));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.writable).toBe(true);
    expect(providers).toHaveLength(0);
  });
});

describe('signed-in users whose room never syncs', () => {
  it('a room that stays silent falls back to the stored copy, read-only, then goes live on sync', async () => {
    vi.useFakeTimers();
    content.mockResolvedValue(toBase64(Y.encodeStateAsUpdate(docWith('stored text'))));
    const { result } = renderHook(() => useCollabDocument(1, 7, true));
    expect(providers).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(COLLAB_FALLBACK_MS - 1));
    expect(result.current.status).toBe('loading');
    await act(async () => vi.advanceTimersByTime(1));
    expect(result.current.status).toBe('ready');
    expect(result.current.writable).toBe(false);
    expect(textOf(result.current.doc)).toBe('stored text');
    // the room syncs after all: editable with the granted scope
    act(() => {
      providers[0]!.authorizedScope = 'read-write';
      providers[0]!.config.onSynced!({ state: true });
    });
    expect(result.current.writable).toBe(true);
    expect(result.current.provider).toBe(providers[0]);
  });

  it('a socket that closes before the first sync shows the local cache when the content call fails too', async () => {
    writeCachedPage(7, docWith('cached text'));
    content.mockRejectedValue(new Error('offline'));
    const { result } = renderHook(() => useCollabDocument(1, 7, true));
    act(() => providers[0]!.config.onClose!({ event: {} }));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.writable).toBe(false);
    expect(textOf(result.current.doc)).toBe('cached text');
  });

  it('a close after the sync changes nothing', async () => {
    const { result } = renderHook(() => useCollabDocument(1, 7, true));
    act(() => {
      providers[0]!.authorizedScope = 'read-write';
      providers[0]!.config.onSynced!({ state: true });
    });
    act(() => providers[0]!.config.onClose!({ event: {} }));
    await act(async () => {});
    expect(content).not.toHaveBeenCalled();
    expect(result.current.writable).toBe(true);
  });
});

describe('local cache', () => {
  it('writes the encoded document after a burst of changes, and on unmount', () => {
    vi.useFakeTimers();
    const doc = new Y.Doc();
    const stop = cacheChanges(9, doc);
    doc.getText('t').insert(0, 'a');
    vi.advanceTimersByTime(499);
    expect(localStorage.getItem('page-cache:9')).toBeNull();
    vi.advanceTimersByTime(1);
    const encoded = localStorage.getItem('page-cache:9')!;
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const copy = new Y.Doc();
    Y.applyUpdate(copy, readCachedPage(9)!);
    expect(textOf(copy)).toBe('a');
    doc.getText('t').insert(1, 'b');
    stop();
    const last = new Y.Doc();
    Y.applyUpdate(last, readCachedPage(9)!);
    expect(textOf(last)).toBe('ab');
  });
});

describe('local cache on leaving', () => {
  it('pagehide writes the pending change at once', () => {
    vi.useFakeTimers();
    const doc = new Y.Doc();
    const stop = cacheChanges(10, doc);
    doc.getText('t').insert(0, 'last words');
    window.dispatchEvent(new Event('pagehide'));
    const copy = new Y.Doc();
    Y.applyUpdate(copy, readCachedPage(10)!);
    expect(textOf(copy)).toBe('last words');
    stop();
  });

  it('a hidden tab writes the pending change at once', () => {
    vi.useFakeTimers();
    const doc = new Y.Doc();
    const stop = cacheChanges(11, doc);
    doc.getText('t').insert(0, 'switched away');
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(readCachedPage(11)).not.toBeNull();
    stop();
  });
});
