// Query sets for bench/rag: the words of identifiers and the first sentences of
// docstrings, from a project's analysis.json; and the tsquery the rag plugin builds.
// mulberry32: a small seeded generator, so the samples are the same on every run.
function random(seedValue) {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function sample(items, n, seedValue) {
  const next = random(seedValue);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; --i) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}
export function hash(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

// The same split as plugins/rag/src/identifiers.cpp: '_' and friends, fooBar, HTTPRequest, v2.
export function identifierParts(word) {
  const parts = [];
  let current = '';
  for (let i = 0; i < word.length; ++i) {
    const c = word[i];
    if (!/[A-Za-z0-9]/.test(c) && c.charCodeAt(0) < 0x80) {
      if (current) parts.push(current);
      current = '';
      continue;
    }
    if (current) {
      const p = word[i - 1];
      const nextLower = i + 1 < word.length && /[a-z]/.test(word[i + 1]);
      const up = /[A-Z]/.test(c), dig = /[0-9]/.test(c);
      if ((up && /[a-z0-9]/.test(p)) || (up && /[A-Z]/.test(p) && nextLower) || (dig && !/[0-9]/.test(p)) ||
          (!dig && /[0-9]/.test(p))) {
        parts.push(current);
        current = '';
      }
    }
    current += c.toLowerCase();
  }
  if (current) parts.push(current);
  return parts;
}

const functionKinds = new Set(['function', 'method', 'constructor', 'func', 'subroutine', 'procedure']);
const definitionKinds = new Set([...functionKinds, 'class', 'struct', 'interface', 'enum', 'trait', 'impl', 'module',
  'macro', 'type', 'typedef', 'union', 'protocol', 'object']);
const isFunction = (s) => functionKinds.has(s.kind) || (s.kind === 'member' && s.end > s.line);
const isDefinition = (s) => definitionKinds.has(s.kind) || (s.kind === 'member' && s.end > s.line);

export function firstSentence(doc) {
  const text = doc.replace(/\s+/g, ' ').trim();
  // The first stop that ends a sentence: not the one of "e.g." or "i.e.".
  const match = text.match(/^(.+?(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?])(\s|$)/);
  return (match ? match[1] : text).trim();
}

export function querySets(analysis, sampleSize, corpusSeed) {
  const sentence = new Map(), identifier = new Map();
  const add = (map, query, target) => {
    if (!map.has(query)) map.set(query, []);
    map.get(query).push(target);
  };
  for (const file of analysis.files ?? []) {
    for (const s of file.symbols ?? []) {
      if (!(s.line > 0)) continue;
      const target = { path: file.path, line: s.line, symbol: s.scope ? `${s.scope}.${s.name}` : s.name };
      if (isFunction(s) && s.doc) {
        const q = firstSentence(s.doc);
        const words = q.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
        if (words >= 3 && words <= 40 && !/^[:@]/.test(q) && !/^(todo|fixme|xxx)\b/i.test(q)) add(sentence, q, target);
      }
      if (isDefinition(s) && !/^__.*__$/.test(s.name)) {
        const parts = identifierParts(s.name);
        if (parts.length >= 2) add(identifier, parts.join(' '), target);
      }
    }
  }
  const pick = (map, salt) =>
    sample([...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)), sampleSize, corpusSeed + salt).map(
      ([query, targets]) => ({ query, targets }));
  return {
    sentence: pick(sentence, 1), identifier: pick(identifier, 2),
    available: { sentence: sentence.size, identifier: identifier.size },
  };
}

// plugins/rag/src/identifiers.cpp's tsQueryExpression, for EXPLAIN of the plugin's statements.
export function tsQueryExpression(query, everyWord) {
  const groups = [];
  for (const word of query.match(/[A-Za-z0-9_\u0080-\uffff]+/g) ?? []) {
    if (groups.length >= 24) break;
    const parts = identifierParts(word).map((p) => p.replace(/[^a-z0-9\u0080-\uffff]/g, '')).filter(Boolean);
    if (!parts.length) continue;
    groups.push(parts.length === 1 ? parts[0] : `(${parts.join('')} | ${parts.join(' & ')})`);
  }
  return groups.join(everyWord ? ' & ' : ' | ');
}

// plugins/rag/src/identifiers.cpp's nameWords: the identifier parts of every word.
export function nameWords(text) {
  return (text.match(/[A-Za-z0-9_\u0080-\uffff]+/g) ?? []).flatMap((w) => identifierParts(w)).join(' ');
}
