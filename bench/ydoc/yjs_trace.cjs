#!/usr/bin/env node
// Replays an editing trace (josephg/editing-traces format, sequential or concurrent) with yjs
// into an XmlText inside a paragraph, as Tiptap holds text, and writes what the
// C++ benchmark needs plus yjs' own timings for the side-by-side table.
//
// usage: node yjs_trace.cjs TRACE.json.gz OUT_PREFIX
//   OUT_PREFIX.updates.bin  varUint n, then n x varUint8Array (one update per transaction)
//   OUT_PREFIX.state.bin    Y.encodeStateAsUpdate of the final document (v1)
//   OUT_PREFIX.yjs.json     timings in ms and sizes in bytes
//   OUT_PREFIX.patches.bin  sequential traces only: the edits in UTF-16 positions
'use strict'
const fs = require('fs')
const zlib = require('zlib')
const path = require('path')
const Y = require(path.join(__dirname, '../../tests/ydoc/node_modules/yjs'))

const [tracePath, outPrefix] = process.argv.slice(2)
if (!tracePath || !outPrefix) { console.error('usage: node yjs_trace.cjs TRACE.json.gz OUT_PREFIX'); process.exit(2) }
const trace = JSON.parse(zlib.gunzipSync(fs.readFileSync(tracePath)).toString('utf8'))

// positions count code points; convert to UTF-16 offsets only when needed
const astral = /[\uD800-\uDFFF]/.test(trace.endContent) || trace.txns.some((t) => t.patches.some((p) => /[\uD800-\uDFFF]/.test(p[2])))

function build (collect) {
  const doc = new Y.Doc()
  doc.clientID = 1
  const frag = doc.getXmlFragment('default')
  const para = new Y.XmlElement('paragraph')
  const text = new Y.XmlText()
  if (trace.startContent) text.insert(0, trace.startContent)
  para.insert(0, [text])
  frag.insert(0, [para])
  const updates = []
  if (collect) doc.on('update', (u) => updates.push(u))
  return { doc, text, updates }
}

// The patches in UTF-16 units, for the C++ local replay: varUint txns, then per
// txn varUint patches and per patch varUint pos, varUint del, varString insert.
const patchChunks = []
function replay (doc, text) {
  let shadow = astral ? Array.from(trace.startContent) : null
  patchChunks.push(varUint(trace.txns.length))
  for (const txn of trace.txns) {
    patchChunks.push(varUint(txn.patches.length))
    doc.transact(() => {
      for (const [pos, del, ins] of txn.patches) {
        let at = pos
        let len = del
        if (astral) {
          at = shadow.slice(0, pos).join('').length
          len = shadow.slice(pos, pos + del).join('').length
          shadow.splice(pos, del, ...Array.from(ins))
        }
        const bytes = Buffer.from(ins, 'utf8')
        patchChunks.push(varUint(at), varUint(len), varUint(bytes.length), bytes)
        if (len > 0) text.delete(at, len)
        if (ins.length > 0) text.insert(at, ins)
      }
    })
  }
}
function varUint (n) { const b = []; while (n > 0x7f) { b.push(0x80 | (n & 0x7f)); n = Math.floor(n / 128) } b.push(n); return Buffer.from(b) }

// Concurrent traces: one Y.Doc per agent; before an agent applies a
// transaction its document receives the updates of every ancestor of the
// transaction's parents it has not seen yet (in trace order, which is causal).
function replayConcurrent () {
  const base = build(false)
  const initial = Y.encodeStateAsUpdate(base.doc)
  const agents = []
  for (let a = 0; a < trace.numAgents; a++) {
    const doc = new Y.Doc()
    doc.clientID = 100 + a
    Y.applyUpdate(doc, initial)
    const text = doc.getXmlFragment('default').get(0).get(0)
    agents.push({ doc, text, known: new Uint8Array(trace.txns.length) })
  }
  const txnUpdates = new Array(trace.txns.length)
  const t0 = now()
  trace.txns.forEach((txn, i) => {
    const agent = agents[txn.agent]
    const missing = []
    const stack = [...txn.parents]
    while (stack.length) {
      const j = stack.pop()
      if (agent.known[j]) continue
      agent.known[j] = 1
      missing.push(j)
      for (const p of trace.txns[j].parents) stack.push(p)
    }
    missing.sort((a, b) => a - b)
    for (const j of missing) Y.applyUpdate(agent.doc, txnUpdates[j])
    let update = null
    const onUpdate = (u) => { update = update ? Y.mergeUpdates([update, u]) : u }
    agent.doc.on('update', onUpdate)
    agent.doc.transact(() => {
      for (const [pos, del, ins] of txn.patches) {
        if (del > 0) agent.text.delete(pos, del)
        if (ins.length > 0) agent.text.insert(pos, ins)
      }
    })
    agent.doc.off('update', onUpdate)
    agent.known[i] = 1
    txnUpdates[i] = update || new Uint8Array([0, 0])
  })
  const replayMs = now() - t0
  const doc = new Y.Doc()
  Y.applyUpdate(doc, initial)
  for (const u of txnUpdates) Y.applyUpdate(doc, u)
  const text = doc.getXmlFragment('default').get(0).get(0)
  return { doc, text, replayMs, updates: [initial, ...txnUpdates], matchesEnd: text.toString() === trace.endContent }
}

const now = () => Number(process.hrtime.bigint()) / 1e6
let setup
let replayMs
let updates
let matchesEnd = true
if (trace.kind === 'concurrent') {
  const r = replayConcurrent()
  setup = r
  replayMs = r.replayMs
  updates = r.updates
  matchesEnd = r.matchesEnd
} else {
  setup = build(true)
  const initial = Y.encodeStateAsUpdate(setup.doc)
  const t0 = now()
  replay(setup.doc, setup.text)
  replayMs = now() - t0
  if (setup.text.toString() !== trace.endContent) throw new Error('replay does not reproduce endContent')
  updates = [initial, ...setup.updates] // the listener starts after the paragraph was created
}
const state = Y.encodeStateAsUpdate(setup.doc)
const reps = 20
let t = now()
for (let i = 0; i < reps; i++) Y.encodeStateAsUpdate(setup.doc)
const encodeMs = (now() - t) / reps
t = now()
for (let i = 0; i < reps; i++) { const d = new Y.Doc(); Y.applyUpdate(d, state) }
const loadMs = (now() - t) / reps
global.gc && global.gc()
const heapBefore = process.memoryUsage().heapUsed
const held = new Y.Doc()
Y.applyUpdate(held, state)
global.gc && global.gc()
const heapAfter = process.memoryUsage().heapUsed
// YDOC_BENCH_APPLY_LIMIT limits the remote replay row to the first updates (both sides)
const applyCount = Math.min(updates.length, Number(process.env.YDOC_BENCH_APPLY_LIMIT || updates.length))
t = now()
const remote = new Y.Doc()
for (let i = 0; i < applyCount; i++) Y.applyUpdate(remote, updates[i])
const applyUpdatesMs = now() - t
if (applyCount === updates.length && Buffer.compare(Buffer.from(Y.encodeStateAsUpdate(remote)), Buffer.from(state)) !== 0) {
  throw new Error('remote replay differs')
}

const chunks = []
if (patchChunks.length) fs.writeFileSync(outPrefix + '.patches.bin', Buffer.concat(patchChunks))
chunks.push(varUint(updates.length))
for (const u of updates) { chunks.push(varUint(u.length)); chunks.push(Buffer.from(u)) }
fs.writeFileSync(outPrefix + '.updates.bin', Buffer.concat(chunks))
fs.writeFileSync(outPrefix + '.state.bin', Buffer.from(state))
const result = {
  trace: path.basename(tracePath),
  edits: trace.txns.reduce((n, t) => n + t.patches.length, 0),
  updates: updates.length,
  localReplayMs: replayMs,
  applyCount,
  applyUpdatesMs,
  encodeMs,
  loadMs,
  stateBytes: state.length,
  heapBytes: heapAfter - heapBefore,
  matchesEndContent: matchesEnd
}
fs.writeFileSync(outPrefix + '.yjs.json', JSON.stringify(result, null, 2))
console.log(JSON.stringify(result))
