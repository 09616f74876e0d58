// The Yjs document behind one page. Signed-in users join the room
// `{projectId}__{pageId}` over Hocuspocus with the stored token; everyone else (and
// development mode) gets the stored content over REST: 404 = empty page, a failure =
// the local cache. Editable only after sync, with write access (spec section 4). A room
// that closes or stays silent before its first sync shows that same stored copy,
// read-only, until the sync comes. Development mode edits its copy locally (no server).
import { useEffect, useState } from 'react';
import * as Y from 'yjs';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { runtimeConfig } from '../../config/runtimeConfig';
import { storedToken } from '../../session/token';
import { syncSession } from '../../session/sessionStore';
import { getPageContent } from '../../api/pagesApi';
import { fromBase64 } from './bytes';
import { onStatelessPayload } from '../../comments/commentSignals';
import { cacheChanges, readCachedPage } from './localCache';

export type DocStatus = 'loading' | 'ready';

export interface CollabDocument {
  doc: Y.Doc;
  provider: HocuspocusProvider | null;
  status: DocStatus;
  /** the server granted read-write on the room */
  writable: boolean;
}

/** How long a room may stay unsynced before the stored copy is shown instead. */
export const COLLAB_FALLBACK_MS = 8000;

export function roomName(projectId: number, pageId: number): string {
  return `${projectId}__${pageId}`;
}

async function loadStored(pageId: number, doc: Y.Doc): Promise<void> {
  try {
    const content = await getPageContent(pageId);
    if (content) Y.applyUpdate(doc, fromBase64(content), 'stored');
  } catch {
    const cached = readCachedPage(pageId);
    if (cached) Y.applyUpdate(doc, cached, 'cache');
  }
}

/**
 * `localEdit`: without collaboration, the loaded copy is still editable (development
 * mode, where there is no server to share it with).
 */
export function useCollabDocument(projectId: number, pageId: number, collaborate: boolean, localEdit = false): CollabDocument {
  const [state, setState] = useState<CollabDocument>(() => ({ doc: new Y.Doc(), provider: null, status: 'loading', writable: false }));

  useEffect(() => {
    const doc = new Y.Doc();
    let live = true;
    const stopCache = cacheChanges(pageId, doc);
    if (!collaborate) {
      setState({ doc, provider: null, status: 'loading', writable: false });
      void loadStored(pageId, doc).then(() => live && setState({ doc, provider: null, status: 'ready', writable: localEdit }));
      return () => {
        live = false;
        stopCache();
        doc.destroy();
      };
    }
    let scope: string | undefined;
    let retried = false;
    let synced = false;
    let fellBack = false;
    let reconnecting = false;
    // no sync yet (docsd down, a proxy without websockets, no network): the stored copy, read-only
    const fallBack = () => {
      if (!live || synced || fellBack) return;
      fellBack = true;
      console.warn('collaboration unavailable: showing the stored copy read-only');
      void loadStored(pageId, doc).then(() => live && !synced && setState({ doc, provider, status: 'ready', writable: false }));
    };
    const fallbackTimer = setTimeout(fallBack, COLLAB_FALLBACK_MS);
    const provider = new HocuspocusProvider({
      url: runtimeConfig().collabUrl,
      name: roomName(projectId, pageId),
      document: doc,
      token: () => storedToken() ?? '',
      onAuthenticated: ({ scope: granted }) => {
        scope = granted;
        if (live && provider.isSynced) setState({ doc, provider, status: 'ready', writable: granted === 'read-write' });
      },
      onSynced: () => {
        synced = true;
        clearTimeout(fallbackTimer);
        if (live) setState({ doc, provider, status: 'ready', writable: (scope ?? provider.authorizedScope) === 'read-write' });
      },
      // (the close of our own reconnect below is not a failure)
      // the server's news about the page (comments changed): docs/collab-protocol.md
      onStateless: ({ payload }) => onStatelessPayload(payload),
      onOpen: () => {
        reconnecting = false;
      },
      onClose: () => {
        if (!reconnecting) fallBack();
      },
      // spec section 8: collaboration authentication failures are only logged
      onAuthenticationFailed: ({ reason }) => {
        console.warn('collaboration refused:', reason);
        if (!live) return;
        // a token from before a server restart or a refresh: fetch a fresh one and try once more
        if (!retried && reason === 'Invalid or expired token') {
          retried = true;
          void syncSession().catch(() => null).then(() => {
            if (!live) return;
            reconnecting = true;
            provider.disconnect();
            void provider.connect();
          });
          return;
        }
        synced = true; // refused for good: no second fallback
        clearTimeout(fallbackTimer);
        void loadStored(pageId, doc).then(() => live && setState({ doc, provider: null, status: 'ready', writable: false }));
      },
    });
    setState({ doc, provider, status: 'loading', writable: false });
    return () => {
      live = false;
      clearTimeout(fallbackTimer);
      provider.destroy();
      stopCache();
      doc.destroy();
    };
  }, [projectId, pageId, collaborate, localEdit]);

  return state;
}
