#!/usr/bin/env node
// Differential-test case generator for core/ydoc, with the real yjs as oracle.
//
// usage: node generate.cjs OUT.jsonl [--cases N] [--seed S]
//
// Each output line is one case: the updates of a random multi-client
// Tiptap-shaped editing session (or a random ProseMirror document), plus what
// yjs computes from them. The C++ checker (ydoc_oracle_check) recomputes every
// value and must match exactly. No network and no C++ are involved here.
'use strict'

const fs = require('fs')
const path = require('path')
const Y = require('yjs')
const { Schema } = require('prosemirror-model')
const yt = require('@tiptap/y-tiptap')

const schemaJson = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../core/ydoc/schema.json'), 'utf8'))

// ---- deterministic PRNG --------------------------------------------------
function mulberry32 (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
let rnd = mulberry32(1)
const int = (n) => Math.floor(rnd() * n)
const pick = (arr) => arr[int(arr.length)]
const chance = (p) => rnd() < p

// ---- schema-normalised ProseMirror JSON (mirrors core/ydoc toProseMirrorJson) ----
function schemaAttrs (specAttrs, given) {
  const out = {}
  for (const name of Object.keys(specAttrs)) {
    out[name] = given && Object.prototype.hasOwnProperty.call(given, name) ? given[name] : specAttrs[name].default
  }
  return out
}
function normMark (m) {
  const type = m.type.split('--')[0]
  const spec = schemaJson.marks[type]
  const out = { type }
  if (spec) {
    if (spec.attrs && Object.keys(spec.attrs).length) out.attrs = schemaAttrs(spec.attrs, m.attrs)
  } else if (m.attrs && Object.keys(m.attrs).length) {
    out.attrs = m.attrs
  }
  return out
}
function normNode (n) {
  if (n.type === 'text') {
    const out = { type: 'text' }
    if (n.marks && n.marks.length) out.marks = n.marks.map(normMark)
    out.text = n.text
    return out
  }
  const out = { type: n.type }
  if (n.type !== 'doc') {
    const spec = schemaJson.nodes[n.type]
    if (spec) {
      if (spec.attrs && Object.keys(spec.attrs).length) out.attrs = schemaAttrs(spec.attrs, n.attrs)
    } else if (n.attrs && Object.keys(n.attrs).length) {
      out.attrs = n.attrs
    }
  }
  const content = (n.content || []).map(normNode)
  if (content.length || n.type === 'doc') out.content = content
  return out
}
const docJson = (ydoc) => normNode(yt.yXmlFragmentToProsemirrorJSON(ydoc.getXmlFragment('default')))

// ---- a ProseMirror schema built from the same schema.json ----------------
function pmSchema () {
  const nodes = {}
  for (const [name, spec] of Object.entries(schemaJson.nodes)) {
    const s = {}
    for (const k of ['content', 'group', 'inline', 'marks', 'code', 'defining', 'atom', 'isolating', 'selectable']) {
      if (spec[k] !== undefined) s[k] = spec[k]
    }
    if (spec.attrs) {
      s.attrs = {}
      for (const [a, as] of Object.entries(spec.attrs)) s.attrs[a] = { default: as.default }
    }
    nodes[name] = s
  }
  const marks = {}
  for (const [name, spec] of Object.entries(schemaJson.marks)) {
    const s = {}
    if (spec.inclusive !== undefined) s.inclusive = spec.inclusive
    if (spec.excludes !== undefined) s.excludes = spec.excludes
    if (spec.attrs) {
      s.attrs = {}
      for (const [a, as] of Object.entries(spec.attrs)) s.attrs[a] = { default: as.default }
    }
    marks[name] = s
  }
  return new Schema({ nodes, marks, topNode: schemaJson.topNode || 'doc' })
}
const schema = pmSchema()

// ---- random content -------------------------------------------------------
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'docs', 'yjs', 'crdt', 'merge', 'äöü', 'naïve', '日本語', '😀', 'a|b', '*x*', '#', '`code`', '<b>', '&amp;', 'x\\y']
const randText = () => {
  const n = 1 + int(4)
  const parts = []
  for (let i = 0; i < n; i++) parts.push(pick(WORDS))
  return parts.join(chance(0.8) ? ' ' : '')
}
const MARKS = [
  ['bold', {}], ['italic', {}], ['underline', {}], ['strike', {}], ['code', {}],
  ['link', { href: 'https://example.com/a', target: '_blank', rel: 'noopener noreferrer nofollow' }]
]
const randAttrs = () => {
  const attrs = {}
  if (chance(0.5)) {
    const n = 1 + int(2)
    for (let i = 0; i < n; i++) {
      const [k, v] = pick(MARKS)
      attrs[k] = v
    }
  }
  return attrs
}

// Tiptap-shaped Y content builders (prelim types, inserted in one call)
function yParagraph (type = 'paragraph', attrs = {}) {
  const el = new Y.XmlElement(type)
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v)
  if (chance(0.85)) {
    const t = new Y.XmlText()
    t.applyDelta([{ insert: randText(), attributes: randAttrs() }, ...(chance(0.3) ? [{ insert: randText() }] : [])])
    el.insert(0, [t])
  }
  return el
}
function yList (depth) {
  const kind = pick(['bulletList', 'orderedList', 'taskList'])
  const list = new Y.XmlElement(kind)
  if (kind === 'orderedList' && chance(0.3)) list.setAttribute('start', 1 + int(5))
  const items = []
  const n = 1 + int(3)
  for (let i = 0; i < n; i++) {
    const item = new Y.XmlElement(kind === 'taskList' ? 'taskItem' : 'listItem')
    if (kind === 'taskList') item.setAttribute('checked', chance(0.5))
    const children = [yParagraph()]
    if (depth < 2 && chance(0.3)) children.push(yList(depth + 1))
    item.insert(0, children)
    items.push(item)
  }
  list.insert(0, items)
  return list
}
function yBlock () {
  switch (int(10)) {
    case 0: return yParagraph('heading', { level: 1 + int(3) })
    case 1: case 2: return yList(0)
    case 3: {
      const el = new Y.XmlElement('codeBlock')
      if (chance(0.7)) el.setAttribute('language', pick(['js', 'cpp', 'mermaid']))
      const t = new Y.XmlText()
      t.insert(0, 'int x = 1;\nreturn ```x```;')
      el.insert(0, [t])
      return el
    }
    case 4: {
      const q = new Y.XmlElement(chance(0.5) ? 'blockquote' : 'alert')
      if (q.nodeName === 'alert') q.setAttribute('type', pick(['error', 'warning', 'success', 'info']))
      q.insert(0, [yParagraph()])
      return q
    }
    case 5: {
      const table = new Y.XmlElement('table')
      const rows = []
      for (let r = 0; r < 2; r++) {
        const row = new Y.XmlElement('tableRow')
        const cells = []
        for (let c = 0; c < 2; c++) {
          const cell = new Y.XmlElement(r === 0 ? 'tableHeader' : 'tableCell')
          cell.setAttribute('colspan', 1)
          cell.setAttribute('rowspan', 1)
          cell.insert(0, [yParagraph()])
          cells.push(cell)
        }
        row.insert(0, cells)
        rows.push(row)
      }
      table.insert(0, rows)
      return table
    }
    case 6: {
      const el = new Y.XmlElement(pick(['image', 'horizontalRule', 'video']))
      if (el.nodeName === 'image') { el.setAttribute('src', 'https://example.com/i.png'); el.setAttribute('alt', 'pic') }
      if (el.nodeName === 'video') el.setAttribute('src', 'https://example.com/v.mp4')
      return el
    }
    default: return yParagraph()
  }
}

// all visible XmlText and XmlElement descendants
function collect (type, texts, elements) {
  for (const child of type.toArray()) {
    if (child instanceof Y.XmlText) texts.push(child)
    else if (child instanceof Y.XmlElement) { elements.push(child); collect(child, texts, elements) }
  }
}

// edits on the other root types a document may carry (Map, Array, Text)
function randomOtherEdit (doc) {
  const r = rnd()
  if (r < 0.4) {
    const meta = doc.getMap('meta')
    const key = pick(['title', 'owner', 'tags', 'n', 'nested'])
    if (chance(0.15)) meta.delete(key)
    else meta.set(key, pick(['a', 1.5, 42, true, null, [1, 'x'], { k: { deep: [1, 2] } }, 'ü😀']))
  } else if (r < 0.75) {
    const list = doc.getArray('list')
    if (list.length > 0 && chance(0.35)) {
      const i = int(list.length)
      list.delete(i, 1 + int(Math.min(3, list.length - i)))
    } else {
      list.insert(int(list.length + 1), [pick([1, 'two', { three: 3 }, [4], false])])
    }
  } else {
    const title = doc.getText('title')
    if (title.length > 0 && chance(0.3)) {
      const i = int(title.length)
      title.delete(i, 1 + int(Math.min(4, title.length - i)))
    } else {
      title.insert(int(title.length + 1), pick(['Doc', ' ', 'é', '😀', 'title']), chance(0.3) ? { bold: true } : undefined)
    }
  }
}

function randomEdit (doc) {
  if (chance(0.1)) return randomOtherEdit(doc)
  const frag = doc.getXmlFragment('default')
  const texts = []
  const elements = []
  collect(frag, texts, elements)
  const r = rnd()
  if (r < 0.2 || frag.length === 0) {
    frag.insert(int(frag.length + 1), [yBlock()])
  } else if (r < 0.28) {
    frag.delete(int(frag.length), 1)
  } else if (r < 0.33 && elements.length) {
    // delete a nested child (list item, paragraph in a cell ...)
    const el = pick(elements)
    if (el.length > 0) el.delete(int(el.length), 1)
  } else if (r < 0.38 && elements.length) {
    const el = pick(elements)
    if (el.nodeName === 'heading') el.setAttribute('level', 1 + int(3))
    else if (el.nodeName === 'taskItem') el.setAttribute('checked', chance(0.5))
    else if (el.nodeName === 'codeBlock') el.setAttribute('language', pick(['js', 'py', 'go']))
    else if (el.nodeName === 'alert') el.setAttribute('type', pick(['error', 'warning', 'success', 'info']))
    else if (el.nodeName === 'listItem' || el.nodeName === 'taskItem' || el.nodeName === 'bulletList') {
      // nest a new list inside
      el.insert(el.length, [yList(1)])
    }
  } else if (texts.length) {
    const t = pick(texts)
    const len = t.length
    const k = rnd()
    if (k < 0.45 || len === 0) {
      // typing: a few characters, sometimes with marks
      const pos = int(len + 1)
      const s = chance(0.7) ? pick(['a', 'b', ' ', 'é', '😀', 'xy']) : randText()
      if (chance(0.3)) t.insert(pos, s, randAttrs())
      else t.insert(pos, s)
    } else if (k < 0.75) {
      const pos = int(len)
      t.delete(pos, 1 + int(Math.min(5, len - pos)))
    } else {
      // toggle a mark on a range
      const pos = int(len)
      const n = 1 + int(len - pos)
      const [name, attrs] = pick(MARKS)
      t.format(pos, n, { [name]: chance(0.6) ? attrs : null })
    }
  } else {
    frag.insert(int(frag.length + 1), [yParagraph()])
  }
}

function session (caseIndex) {
  const nClients = 2 + int(3)
  const docs = []
  const updates = []
  for (let i = 0; i < nClients; i++) {
    const d = new Y.Doc({ gc: true })
    d.clientID = 1 + int(0xfffffff) // distinct random client ids
    d.on('update', (u, origin) => { if (origin !== 'remote') updates.push({ from: i, u }) })
    docs.push(d)
  }
  const inbox = docs.map(() => 0) // index into updates each client has seen from others
  const steps = 10 + int(40)
  for (let s = 0; s < steps; s++) {
    const i = int(nClients)
    const nEdits = 1 + int(3)
    for (let e = 0; e < nEdits; e++) randomEdit(docs[i])
    if (chance(0.35)) {
      // partial sync: deliver a random subset of what another client has not seen, in random order
      const j = int(nClients)
      const pending = updates.slice(inbox[j]).filter((x) => x.from !== j)
      const take = pending.filter(() => chance(0.7))
      take.sort(() => rnd() - 0.5)
      for (const x of take) Y.applyUpdate(docs[j], x.u, 'remote')
      if (take.length === pending.length) inbox[j] = updates.length
    }
    if (chance(0.1)) {
      // full sync of one pair through state vectors
      const a = docs[int(nClients)]
      const b = docs[int(nClients)]
      if (a !== b) {
        Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)), 'remote')
      }
    }
  }
  return updates.map((x) => x.u)
}

function expectFor (updates, order) {
  const d = new Y.Doc({ gc: true })
  for (const i of order) Y.applyUpdate(d, updates[i])
  const sv = {}
  for (const [c, k] of Y.decodeStateVector(Y.encodeStateVector(d))) sv[c] = k
  return {
    json: docJson(d),
    sv,
    state: Buffer.from(Y.encodeStateAsUpdate(d)).toString('base64'),
    others: { meta: d.getMap('meta').toJSON(), list: d.getArray('list').toJSON(), title: d.getText('title').toString() }
  }
}

function shuffled (n) {
  const a = [...Array(n).keys()]
  for (let i = n - 1; i > 0; i--) { const j = int(i + 1); [a[i], a[j]] = [a[j], a[i]] }
  return a
}

function sessionCase (index) {
  const updates = session(index)
  const n = updates.length
  const orders = [[...Array(n).keys()], [...Array(n).keys()].reverse(), shuffled(n)]
  const expects = orders.map((o) => expectFor(updates, o))
  // No convergence check across orders: yjs' format cleanup after remote
  // transactions can leave different marks depending on arrival order, and the
  // C++ side must reproduce each order exactly.
  const merged = Y.mergeUpdates(updates)
  const half = new Y.Doc()
  for (let i = 0; i < n / 2; i++) Y.applyUpdate(half, updates[i])
  const halfSv = Y.encodeStateVector(half)
  // read-only acks: does the half-synced document already contain each update?
  const halfSnapshot = Y.snapshot(half)
  const contains = updates.map((u) => Y.snapshotContainsUpdate(halfSnapshot, u))
  return {
    kind: 'session',
    name: `session-${index}`,
    updates: updates.map((u) => Buffer.from(u).toString('base64')),
    orders,
    expects,
    merged: Buffer.from(merged).toString('base64'),
    mergedSv: Buffer.from(Y.encodeStateVectorFromUpdate(merged)).toString('base64'),
    halfSv: Buffer.from(halfSv).toString('base64'),
    diff: Buffer.from(Y.diffUpdate(merged, halfSv)).toString('base64'),
    contains
  }
}

// ---- ProseMirror JSON -> Y through y-tiptap -------------------------------
function randInline () {
  const out = []
  const n = int(4)
  for (let i = 0; i < n; i++) {
    if (chance(0.15) && out.length) { out.push({ type: 'hardBreak' }); continue }
    const marks = []
    for (const [name, attrs] of MARKS) {
      if (chance(0.15)) marks.push(name === 'link' ? { type: name, attrs: { href: 'https://e.com/' + int(9) } } : { type: name })
    }
    const t = { type: 'text', text: randText() }
    // code excludes every other mark in the schema
    if (marks.some((m) => m.type === 'code')) t.marks = [{ type: 'code' }]
    else if (marks.length) t.marks = marks
    out.push(t)
  }
  return out
}
function randPmBlock (depth) {
  const para = () => { const c = randInline(); return c.length ? { type: 'paragraph', content: c } : { type: 'paragraph' } }
  const r = int(depth > 2 ? 3 : 11)
  switch (r) {
    case 0: return para()
    case 1: return { type: 'heading', attrs: { level: 1 + int(3) }, content: [{ type: 'text', text: randText() }] }
    case 2: return { type: 'codeBlock', attrs: { language: chance(0.5) ? 'js' : null }, content: [{ type: 'text', text: 'let a = `b`;\n' + randText() }] }
    case 3: case 4: {
      const kind = pick(['bulletList', 'orderedList', 'taskList'])
      const item = kind === 'taskList' ? 'taskItem' : 'listItem'
      const items = []
      for (let i = 0; i < 1 + int(3); i++) {
        const content = [para()]
        if (chance(0.3)) content.push(randPmBlock(depth + 1))
        items.push(item === 'taskItem' ? { type: item, attrs: { checked: chance(0.5) }, content } : { type: item, content })
      }
      return kind === 'orderedList' ? { type: kind, attrs: { start: 1 + int(3) }, content: items } : { type: kind, content: items }
    }
    case 5: return { type: 'blockquote', content: [para(), randPmBlock(depth + 1)] }
    case 6: return { type: 'alert', attrs: { type: pick(['error', 'warning', 'success', 'info']) }, content: [para()] }
    case 7: {
      const row = (cell) => ({ type: 'tableRow', content: [0, 1, 2].map(() => ({ type: cell, content: [para()] })) })
      return { type: 'table', content: [row('tableHeader'), row('tableCell')] }
    }
    case 8: return { type: 'image', attrs: { src: 'https://e.com/x.png', alt: 'alt ' + int(9), title: chance(0.5) ? 't' : null, width: chance(0.5) ? 320 : null } }
    case 9: return pick([{ type: 'horizontalRule' }, { type: 'video', attrs: { src: 'https://e.com/v.mp4' } }, { type: 'drawing', attrs: { store: '{"elements":[]}', users: null } }])
    default: return para()
  }
}
function fromJsonCase (index) {
  const content = []
  for (let i = 0; i < 1 + int(6); i++) content.push(randPmBlock(0))
  const pm = { type: 'doc', content }
  const node = schema.nodeFromJSON(pm)
  node.check()
  const clientId = 1 + int(0xfffffff)
  const ydoc = new Y.Doc()
  ydoc.clientID = clientId
  yt.prosemirrorToYXmlFragment(node, ydoc.getXmlFragment('default'))
  const readBack = docJson(ydoc)
  if (JSON.stringify(readBack) !== JSON.stringify(normNode(node.toJSON()))) throw new Error('y-tiptap round trip differs')
  return {
    kind: 'from-json',
    name: `from-json-${index}`,
    pm,
    clientId,
    update: Buffer.from(Y.encodeStateAsUpdate(ydoc)).toString('base64'),
    json: readBack
  }
}

// ---- local edits under a fixed clientID -----------------------------------
// Every op is a separate yjs call (its own transaction); the C++ side replays
// the same ops through core/ydoc's local-edit API and must produce the same bytes.
function resolve (frag, path) {
  let t = frag
  for (const i of path) t = t.toArray()[i]
  return t
}
function localOpsCase (index) {
  const doc = new Y.Doc()
  doc.clientID = 1 + int(0xfffffff)
  const frag = doc.getXmlFragment('default')
  const ops = []
  // half the cases never format, which exercises the position marker path
  const plain = chance(0.5)
  const nOps = 20 + int(50)
  for (let k = 0; k < nOps; k++) {
    // index every element and text with its path
    const elems = [{ path: [], t: frag }]
    const texts = []
    const walk = (t, path) => t.toArray().forEach((c, i) => {
      if (c instanceof Y.XmlText) texts.push({ path: [...path, i], t: c })
      else if (c instanceof Y.XmlElement) { elems.push({ path: [...path, i], t: c }); walk(c, [...path, i]) }
    })
    walk(frag, [])
    const r = rnd()
    let op
    if (r < 0.15 || texts.length === 0) {
      const e = pick(elems)
      if (chance(0.5) || e.t === frag) op = { op: 'insertElement', path: e.path, index: int(e.t.length + 1), name: pick(['paragraph', 'heading', 'listItem']) }
      else op = { op: 'insertText', path: e.path, index: int(e.t.length + 1) }
    } else if (r < 0.2) {
      const e = pick(elems)
      if (e.t.length === 0) continue
      const i = int(e.t.length)
      op = { op: 'delete', path: e.path, index: i, len: 1 + int(e.t.length - i) }
    } else if (r < 0.27) {
      const e = pick(elems)
      if (e.t === frag) continue
      op = { op: 'setAttr', path: e.path, key: pick(['level', 'checked', 'language']), value: pick([1, 2, true, 'js', null, { a: 1 }]) }
    } else {
      const x = pick(texts)
      const len = x.t.length
      const k2 = rnd()
      if (k2 < 0.5 || len === 0 || (plain && k2 >= 0.75)) {
        const attrs = !plain && chance(0.4) ? randAttrs() : null
        op = { op: 'textInsert', path: x.path, index: int(len + 1), text: chance(0.6) ? pick(['a', 'é', '😀', ' ', 'xyz']) : randText(), attrs }
      } else if (k2 < 0.75) {
        const i = int(len)
        op = { op: 'textDelete', path: x.path, index: i, len: 1 + int(Math.min(6, len - i)) }
      } else {
        const i = int(len)
        const [name, attrs] = pick(MARKS)
        op = { op: 'textFormat', path: x.path, index: i, len: 1 + int(len - i), attrs: { [name]: chance(0.6) ? attrs : null } }
      }
    }
    // fresh objects per call: yjs compares format values by JS identity, which
    // a shared constant would make equal across calls (C++ has no such identity)
    if (op.attrs) op.attrs = JSON.parse(JSON.stringify(op.attrs))
    if (op.value && typeof op.value === 'object') op.value = JSON.parse(JSON.stringify(op.value))
    const target = resolve(frag, op.path)
    switch (op.op) {
      case 'insertElement': target.insert(op.index, [new Y.XmlElement(op.name)]); break
      case 'insertText': target.insert(op.index, [new Y.XmlText()]); break
      case 'delete': target.delete(op.index, op.len); break
      case 'setAttr': if (op.value === null) target.removeAttribute(op.key); else target.setAttribute(op.key, op.value); break
      case 'textInsert': if (op.attrs) target.insert(op.index, op.text, op.attrs); else target.insert(op.index, op.text); break
      case 'textDelete': target.delete(op.index, op.len); break
      case 'textFormat': target.format(op.index, op.len, op.attrs); break
    }
    if (process.env.YDOC_ORACLE_STEPS) op.state = Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64')
    ops.push(op)
  }
  return {
    kind: 'local-ops',
    name: `local-ops-${index}`,
    clientId: doc.clientID,
    ops,
    update: Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64'),
    json: docJson(doc)
  }
}

function main () {
  const args = process.argv.slice(2)
  const out = args[0]
  if (!out) { console.error('usage: node generate.cjs OUT.jsonl [--cases N] [--seed S]'); process.exit(2) }
  let cases = 1200
  let seed = 20261122
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '--cases') cases = Number(args[++i])
    if (args[i] === '--seed') seed = Number(args[++i])
  }
  const lines = []
  for (let i = 0; i < cases; i++) {
    rnd = mulberry32(seed + i)
    // three in five cases are multi-client sessions, then JSON imports and local edits
    const k = i % 5
    lines.push(JSON.stringify(k === 3 ? fromJsonCase(i) : k === 4 ? localOpsCase(i) : sessionCase(i)))
  }
  fs.writeFileSync(out, lines.join('\n') + '\n')
  console.log(`wrote ${cases} cases to ${out}`)
}

main()
