// Drives real Hocuspocus clients (@hocuspocus/provider + yjs) and raw WebSockets against
// docsd's /collaboration endpoint. Usage: node scenario.cjs '<json spec>'; prints one
// JSON object with what it saw. The C++ tests (collab_test.cpp) set up users, projects
// and pages through the REST API and check the answers and what is stored.
'use strict';
const fs = require('fs');
const Y = require('yjs');
const WebSocket = require('ws');
const { HocuspocusProvider } = require('@hocuspocus/provider');

const spec = JSON.parse(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, predicate, timeoutMs = 10000) {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for ' + what);
    await sleep(20);
  }
}

function connect(token, options = {}) {
  const doc = new Y.Doc();
  const state = { authenticated: false, failed: null, synced: false, closed: null };
  const provider = new HocuspocusProvider({
    url: options.url || spec.url,
    name: options.room || spec.room,
    document: doc,
    token,
    WebSocketPolyfill: WebSocket,
    onAuthenticated: () => { state.authenticated = true; },
    onAuthenticationFailed: ({ reason }) => { state.failed = reason; },
    onSynced: () => { state.synced = true; },
    onClose: ({ event }) => { state.closed = event ? event.code : -1; },
  });
  return { doc, provider, state, fragment: doc.getXmlFragment('default') };
}

async function connected(client) {
  await waitFor('authentication', () => client.state.authenticated || client.state.failed !== null);
  if (client.state.failed !== null) return client;
  await waitFor('sync', () => client.state.synced);
  return client;
}

function paragraph(text) {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  return p;
}

async function acked(client, timeoutMs = 10000) {
  await waitFor('acknowledgement', () => client.provider.unsyncedChanges === 0, timeoutMs);
}

function close(...clients) {
  for (const c of clients) c.provider.destroy();
}

// Reads the room's document as a fresh client sees it.
async function readDocument(token, room) {
  const reader = await connected(connect(token, { room }));
  const xml = reader.fragment.toString();
  close(reader);
  return xml;
}

const scenarios = {
  // Stays connected to a room until its document contains spec.text (an edit made on the
  // server, e.g. a sync rewriting a page); writes spec.readyFile once synced.
  async watchUntil() {
    const watcher = connect(spec.tokens[0]);
    let connects = 0;
    watcher.provider.on('connect', () => { connects += 1; });
    await connected(watcher);
    if (spec.readyFile) fs.writeFileSync(spec.readyFile, 'ready');
    let seen = true;
    try {
      await waitFor('the text', () => watcher.fragment.toString().includes(spec.text), spec.timeoutMs || 60000);
    } catch (e) {
      seen = false;
    }
    const out = { seen, connects, xml: watcher.fragment.toString().slice(0, 4000) };
    close(watcher);
    return out;
  },

  // Two writers edit concurrently, then a third joins late; awareness reaches others.
  async converge() {
    const a = await connected(connect(spec.tokens[0]));
    const b = await connected(connect(spec.tokens[1]));
    a.provider.setAwarenessField('user', { name: 'Writer A' });
    const shared = paragraph('shared ');
    a.fragment.insert(0, [shared]);
    await acked(a);
    await waitFor('b sees the shared paragraph', () => b.fragment.length === 1);
    const sharedAtB = b.fragment.get(0).get(0);
    for (let i = 0; i < 25; i++) {
      a.fragment.insert(a.fragment.length, [paragraph('A' + i)]);
      b.fragment.insert(0, [paragraph('B' + i)]);
      shared.get(0).insert(0, 'a');
      sharedAtB.insert(sharedAtB.length, 'b');
      if (i % 5 === 0) await sleep(5);
    }
    await acked(a);
    await acked(b);
    await waitFor('convergence', () => a.fragment.toString() === b.fragment.toString());
    let awarenessSeen = false;
    try {
      await waitFor('awareness', () => [...b.provider.awareness.getStates().values()].some((s) => s.user && s.user.name === 'Writer A'), 5000);
      awarenessSeen = true;
    } catch (e) { /* reported as false */ }
    const c = await connected(connect(spec.tokens[2] || spec.tokens[0]));
    await waitFor('late joiner', () => c.fragment.toString() === a.fragment.toString(), 5000).catch(() => {});
    const out = { a: a.fragment.toString(), b: b.fragment.toString(), c: c.fragment.toString(), awarenessSeen,
                  scopeA: a.provider.authorizedScope, scopeB: b.provider.authorizedScope, paragraphs: a.fragment.length };
    close(a, b, c);
    return out;
  },

  // A viewer gets a read-only scope; its edits are never acknowledged nor seen by others.
  async viewer() {
    const writer = await connected(connect(spec.tokens[0]));
    const viewer = await connected(connect(spec.tokens[1]));
    const before = writer.fragment.toString();
    viewer.fragment.insert(0, [paragraph('viewer edit')]);
    await sleep(1000);
    const out = { scope: viewer.provider.authorizedScope, unsynced: viewer.provider.unsyncedChanges,
                  writerSawIt: writer.fragment.toString() !== before, stored: await readDocument(spec.tokens[0], spec.room) };
    close(writer, viewer);
    return out;
  },

  // A token that is not valid is refused with a reason.
  async denied() {
    const results = {};
    for (const [name, token] of Object.entries(spec.cases)) {
      const client = connect(token, { room: spec.rooms && spec.rooms[name] });
      await waitFor('an answer', () => client.state.authenticated || client.state.failed !== null);
      results[name] = client.state.failed !== null ? { denied: client.state.failed } : { scope: client.provider.authorizedScope };
      close(client);
    }
    return results;
  },

  // A writer is demoted by an admin while connected: its next edits are refused.
  async demote() {
    const writer = await connected(connect(spec.tokens[0]));
    writer.fragment.insert(0, [paragraph('before demotion')]);
    await acked(writer);
    const response = await fetch(spec.api + '/api/rbac/project', {
      method: 'PATCH', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + spec.adminToken },
      body: JSON.stringify({ project_id: spec.projectId, email: spec.email, new_role: 'read' }),
    });
    await waitFor('the new scope', () => writer.provider.authorizedScope === 'readonly', 5000).catch(() => {});
    writer.fragment.insert(writer.fragment.length, [paragraph('after demotion')]);
    await sleep(1000);
    const out = { demoteStatus: response.status, scope: writer.provider.authorizedScope,
                  unsynced: writer.provider.unsyncedChanges, stored: await readDocument(spec.adminToken, spec.room) };
    close(writer);
    return out;
  },

  // A session signed out while connected is disconnected (4401); a member removed while
  // connected is told PermissionDenied.
  async revocations() {
    const writer = await connected(connect(spec.tokens[0]));
    const viewer = await connected(connect(spec.tokens[1]));
    const closes = [];
    writer.provider.configuration.websocketProvider.on('close', ({ event }) => closes.push(event.code));
    const signOut = await fetch(spec.api + '/api/auth/sign-out', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + spec.tokens[0] }, body: '{}' });
    await waitFor('the writer is disconnected', () => closes.length > 0, 5000).catch(() => {});
    const removed = await fetch(spec.api + '/api/rbac/project', {
      method: 'DELETE', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + spec.adminToken },
      body: JSON.stringify({ project_id: spec.projectId, email: spec.viewerEmail }) });
    await waitFor('the viewer is told', () => viewer.state.failed !== null, 5000).catch(() => {});
    const out = { signOutStatus: signOut.status, writerCloseCodes: closes, removeStatus: removed.status,
                  viewerDenied: viewer.state.failed };
    close(writer, viewer);
    return out;
  },

  // REST and live editing meet: an export sees unfolded edits at once, and content PUT
  // over REST reaches a connected editor as a normal update.
  async rest() {
    const writer = await connected(connect(spec.tokens[0]));
    writer.fragment.insert(0, [paragraph('live text')]);
    await acked(writer);
    const headers = { Authorization: 'Bearer ' + spec.tokens[0], 'Content-Type': 'application/json' };
    const exported = await fetch(spec.api + '/api/page/' + spec.pageId + '/export?format=md', { headers });
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(writer.doc));
    other.getXmlFragment('default').insert(1, [paragraph('from rest')]);
    const update = Y.encodeStateAsUpdate(other, Y.encodeStateVector(writer.doc));
    const put = await fetch(spec.api + '/api/page/' + spec.pageId + '/content', {
      method: 'PUT', headers, body: JSON.stringify({ content_bytea: Buffer.from(update).toString('base64') }) });
    await waitFor('the REST edit arrives live', () => writer.fragment.toString().includes('from rest'), 5000).catch(() => {});
    const out = { exportStatus: exported.status, markdown: await exported.text(), putStatus: put.status,
                  putBody: await put.json(), live: writer.fragment.toString() };
    close(writer);
    return out;
  },

  // A restore of page history (spec.version) while two writers are connected: A keeps
  // typing while the restore runs; both must end with the version's content
  // (spec.expectText) plus everything A typed after the restore answered, and agree.
  async restoreLive() {
    const a = await connected(connect(spec.tokens[0]));
    const b = await connected(connect(spec.tokens[1]));
    a.fragment.insert(a.fragment.length, [paragraph('typed before by A')]);
    b.fragment.insert(b.fragment.length, [paragraph('typed before by B')]);
    await acked(a);
    await acked(b);
    await waitFor('both see both', () => a.fragment.toString() === b.fragment.toString());
    const headers = { Authorization: 'Bearer ' + spec.tokens[0], 'Content-Type': 'application/json' };
    let typing = true, typed = 0;
    const typist = (async () => {
      while (typing) {
        a.fragment.insert(a.fragment.length, [paragraph('during ' + typed++)]);
        await sleep(5);
      }
    })();
    const restore = await fetch(spec.api + '/api/page/' + spec.pageId + '/history/' + spec.version + '/restore',
      { method: 'POST', headers, body: '{}' });
    const restoreBody = await restore.json();
    typing = false;
    await typist;
    const lastTyped = typed - 1;
    a.fragment.insert(a.fragment.length, [paragraph('typed after by A')]);
    b.fragment.insert(b.fragment.length, [paragraph('typed after by B')]);
    await acked(a);
    await acked(b);
    await waitFor('both converge', () => a.fragment.toString() === b.fragment.toString()
      && a.fragment.toString().includes('typed after by B') && b.fragment.toString().includes('typed after by A'));
    const out = { status: restore.status, body: restoreBody, a: a.fragment.toString(), b: b.fragment.toString(),
                  lastTyped, stored: '' };
    close(a, b);
    out.stored = await readDocument(spec.tokens[0], spec.room);
    return out;
  },

  // Sockets per user are limited: the one past the limit is denied with a reason.
  async limits() {
    const clients = [];
    for (let i = 0; i < spec.sockets; i++) {
      const client = connect(spec.tokens[0]);
      await waitFor('an answer', () => client.state.authenticated || client.state.failed !== null);
      clients.push(client);
    }
    const out = { answers: clients.map((c) => (c.state.failed !== null ? 'denied: ' + c.state.failed : c.provider.authorizedScope)) };
    close(...clients);
    return out;
  },

  // Makes edits one at a time and records each acknowledged one, until killed.
  async edits() {
    const client = await connected(connect(spec.tokens[0]));
    for (let i = 0; i < spec.count; i++) {
      const text = spec.prefix + i;
      client.fragment.insert(client.fragment.length, [paragraph(text)]);
      await acked(client, 30000);
      fs.appendFileSync(spec.ackFile, text + '\n');
    }
    close(client);
    return { done: spec.count };
  },

  // Two writers of one page on two nodes (spec.urls): each edit is acknowledged by its own
  // node; the stored content and, once compacted, each writer's document hold both.
  async twoNodes() {
    const a = await connected(connect(spec.tokens[0], { url: spec.urls[0] }));
    const b = await connected(connect(spec.tokens[1], { url: spec.urls[1] }));
    for (let i = 0; i < spec.rounds; i++) {
      a.fragment.insert(a.fragment.length, [paragraph('node A ' + i)]);
      b.fragment.insert(b.fragment.length, [paragraph('node B ' + i)]);
      await acked(a);
      await acked(b);
      await sleep(spec.pauseMs || 0);
    }
    const both = (client) => { const x = client.fragment.toString(); return x.includes('node A ' + (spec.rounds - 1)) && x.includes('node B ' + (spec.rounds - 1)); };
    let seenAtA = true, seenAtB = true;
    await waitFor('A sees B', () => both(a), spec.timeoutMs || 30000).catch(() => { seenAtA = false; });
    await waitFor('B sees A', () => both(b), spec.timeoutMs || 30000).catch(() => { seenAtB = false; });
    const out = { seenAtA, seenAtB, a: a.fragment.toString(), b: b.fragment.toString() };
    close(a, b);
    return out;
  },

  // Editors on two nodes of one page with compaction far away: only the live relay can
  // bring each the other's edits and presence. Reports how long each edit took to arrive.
  async relay() {
    const a = await connected(connect(spec.tokens[0], { url: spec.urls[0] }));
    const b = await connected(connect(spec.tokens[1], { url: spec.urls[1] }));
    a.provider.setAwarenessField('user', { name: 'Editor on A' });
    b.provider.setAwarenessField('user', { name: 'Editor on B' });
    const names = (client) => [...client.provider.awareness.getStates().values()].filter((s) => s.user).map((s) => s.user.name);
    const out = { aToB: [], bToA: [], missed: [] };
    for (let i = 0; i < spec.rounds; i++) {
      for (const [from, to, label, list] of [[a, b, 'from A ', out.aToB], [b, a, 'from B ', out.bToA]]) {
        const text = label + i;
        const started = Date.now();
        from.fragment.insert(from.fragment.length, [paragraph(text)]);
        try {
          await waitFor(text, () => to.fragment.toString().includes(text), spec.timeoutMs || 5000);
          list.push(Date.now() - started);
        } catch (e) {
          out.missed.push(text);
        }
      }
    }
    await waitFor('presence', () => names(a).includes('Editor on B') && names(b).includes('Editor on A'), spec.timeoutMs || 5000)
      .catch(() => {});
    out.namesAtA = names(a);
    out.namesAtB = names(b);
    // A leaves: its presence is gone at B.
    close(a);
    await waitFor('presence removed', () => !names(b).includes('Editor on A'), spec.timeoutMs || 5000).catch(() => {});
    out.namesAtBAfterALeft = names(b);
    out.a = a.fragment.toString();
    out.b = b.fragment.toString();
    close(b);
    return out;
  },

  async read() {
    return { xml: await readDocument(spec.tokens[0], spec.room) };
  },

  // Hostile frames on their own sockets; a well-behaved writer keeps working throughout.
  async hostile() {
    const good = await connected(connect(spec.tokens[0]));
    good.fragment.insert(0, [paragraph('kept')]);
    await acked(good);
    const before = good.fragment.toString();
    const enc = (parts) => Buffer.concat(parts.map((p) => Buffer.isBuffer(p) ? p : Buffer.from(p)));
    const varUint = (n) => { const out = []; while (n > 0x7f) { out.push(0x80 | (n & 0x7f)); n = Math.floor(n / 128); } out.push(n); return Buffer.from(out); };
    const str = (s) => { const b = Buffer.from(s, 'utf8'); return enc([varUint(b.length), b]); };
    const auth = (room, token) => enc([str(room), varUint(2), varUint(0), str(token)]);
    const room = spec.room;
    const cases = {
      truncated: [auth(room, spec.tokens[0]), enc([str(room), varUint(0), varUint(2), varUint(50), Buffer.from([1, 2, 3])])],
      bogusVarint: [auth(room, spec.tokens[0]), enc([str(room), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])])],
      undecodableUpdate: [auth(room, spec.tokens[0]), enc([str(room), varUint(0), varUint(2), varUint(6), Buffer.from([1, 1, 200, 1, 0, 99])])],
      unknownType: [auth(room, spec.tokens[0]), enc([str(room), varUint(42)])],
      oversized: [auth(room, spec.tokens[0]), enc([str(room), varUint(0), varUint(2), varUint(spec.oversize), Buffer.alloc(spec.oversize, 0x41)])],
      textFrame: ['hello'],
      flood: [auth(room, spec.tokens[0]), ...Array.from({ length: spec.flood }, () => enc([str(room), varUint(3)]))],
      otherProject: [auth(spec.otherRoom, spec.tokens[0]), enc([str(spec.otherRoom), varUint(0), varUint(2), varUint(2), Buffer.from([0, 0])])],
    };
    const results = {};
    for (const [name, frames] of Object.entries(cases)) {
      results[name] = await new Promise((resolve) => {
        const ws = new WebSocket(spec.url);
        const seen = { closed: null, reason: '', messages: [] };
        const timer = setTimeout(() => { ws.terminate(); resolve({ ...seen, timedOut: true }); }, 5000);
        ws.on('open', () => { for (const f of frames) ws.send(f, { binary: typeof f !== 'string' }); });
        ws.on('message', (data) => seen.messages.push(Buffer.from(data).toString('hex').slice(0, 80)));
        ws.on('close', (code, reason) => { clearTimeout(timer); resolve({ ...seen, closed: code, reason: reason.toString() }); });
        ws.on('error', () => {});
        if (name === 'otherProject') setTimeout(() => { ws.close(); }, 1500);
      });
    }
    good.fragment.insert(good.fragment.length, [paragraph('still working')]);
    await acked(good);
    const out = { results, before, after: good.fragment.toString(), stored: await readDocument(spec.tokens[0], spec.room) };
    close(good);
    return out;
  },
};

// Exits once the answer is written: to a pipe, process.exit() right after write() cut
// answers at 64 KiB (the crash test's document after 20 runs is bigger).
function answer(value, code) {
  process.stdout.write(JSON.stringify(value) + '\n', () => process.exit(code));
}

(async () => {
  try {
    answer(await scenarios[spec.scenario](), 0);
  } catch (error) {
    answer({ error: String(error && error.stack || error) }, 1);
  }
})();
