// Retrieval quality of POST /lab/rag against plain PostgreSQL full-text search over the
// same rag_chunks rows (bench/rag/quality.sh starts everything and calls this).
//
//   node bench/rag/quality.mjs BASE TOKEN DATABASE_URL DATA_DIR OUT_DIR name=projectId...
//
// Query sets, built from each project's analysis.json ($DATA_DIR/generation/ID):
//   sentence    first sentence of a function's or method's docstring (3 to 40 words)
//   identifier  the words of a definition's name (read_config_file -> "read config file",
//               parseHttpRequest -> "parse http request"; at least two words)
// Expected: a code chunk of the same path whose lines hold the definition's first line;
// when several definitions give the same query text, any of them counts.
// Systems, all top 10 over the project's code chunks:
//   ours       POST /lab/rag {is_code: true, is_docs: false, code_top_k: 10}
//   baseline   websearch_to_tsquery('english', query) ranked by ts_rank over
//              to_tsvector('english', content)
//   plain-on-search  (diagnostic) websearch_to_tsquery ranked by ts_rank over our
//              weighted identifier-aware `search` column: what the query side adds
// Metrics: MRR over the top 10 (a miss counts 0) and recall@5.
// BENCH_RAG_SAMPLE (default 300) queries per corpus and set, seed BENCH_RAG_SEED (12).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { querySets, hash, tsQueryExpression, nameWords } from './queries.mjs';

const [base, token, dbUrl, dataDir, outDir, ...corpusArgs] = process.argv.slice(2);
const sampleSize = Number(process.env.BENCH_RAG_SAMPLE ?? 300);
const seed = Number(process.env.BENCH_RAG_SEED ?? 12);
mkdirSync(outDir, { recursive: true });

const corpora = corpusArgs.map((arg) => {
  const [name, id] = arg.split('=');
  return { name, id: Number(id) };
});

function psql(sql) {
  const r = spawnSync('psql', [dbUrl, '-qAt', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-f', '-'], {
    input: sql, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).map((line) => line.split('\t'));
}
const literal = (text) => `'${text.replaceAll("'", "''")}'`;

async function ours(projectId, query) {
  const started = performance.now();
  const response = await fetch(`${base}/lab/rag`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, is_all: false, is_code: true, is_docs: false, is_llm: false, code_top_k: 10,
      docs_top_k: 0, projectIds: [projectId] }),
  });
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`/lab/rag ${response.status}: ${await response.text()}`);
  const items = await response.json();
  return { ms, hits: items.map((i) => ({ path: i.path, start: i.start_line, end: i.end_line, symbol: i.symbol })) };
}

// Both plain-search systems in one statement per system for all queries of all corpora.
function plainSearch(allQueries) {
  const values = allQueries.map((q, i) => `(${i}, ${q.projectId}, ${literal(q.query)})`).join(',\n');
  const rows = psql(`
CREATE TEMP TABLE bq0 (qid int, project_id bigint, query text);
INSERT INTO bq0 VALUES ${values};
-- websearch_to_tsquery refuses a few long sentences ("tsquery stack too small"): no match.
CREATE FUNCTION pg_temp.web(query text) RETURNS tsquery LANGUAGE plpgsql AS $$
BEGIN RETURN websearch_to_tsquery('english', query); EXCEPTION WHEN others THEN RETURN NULL; END $$;
CREATE TEMP TABLE bq AS SELECT qid, project_id, query, pg_temp.web(query) AS w FROM bq0;
SELECT 'refused', qid, query FROM bq WHERE w IS NULL;
CREATE TEMP TABLE bc AS SELECT id, project_id, path, start_line, end_line, to_tsvector('english', content) AS tsv,
  search FROM rag_chunks WHERE kind = 'code' AND project_id IN (SELECT DISTINCT project_id FROM bq);
CREATE INDEX ON bc USING gin (tsv);
CREATE INDEX ON bc USING gin (search);
ANALYZE bc;
SELECT 'baseline', q.qid, r.path, r.start_line, r.end_line FROM bq q CROSS JOIN LATERAL (
  SELECT c.id, c.path, c.start_line, c.end_line, ts_rank(c.tsv, w) AS score FROM bc c, (SELECT q.w) x(w)
  WHERE c.project_id = q.project_id AND c.tsv @@ w ORDER BY score DESC, c.id LIMIT 10) r
ORDER BY q.qid, r.score DESC, r.id;
SELECT 'plain-on-search', q.qid, r.path, r.start_line, r.end_line FROM bq q CROSS JOIN LATERAL (
  SELECT c.id, c.path, c.start_line, c.end_line, ts_rank(c.search, w) AS score FROM bc c, (SELECT q.w) x(w)
  WHERE c.project_id = q.project_id AND c.search @@ w ORDER BY score DESC, c.id LIMIT 10) r
ORDER BY q.qid, r.score DESC, r.id;
`);
  const out = { baseline: allQueries.map(() => []), 'plain-on-search': allQueries.map(() => []) };
  for (const [system, qid, path, start, end] of rows) {
    if (system === 'refused') {
      console.log(`  websearch_to_tsquery refused query ${qid}: ${path.slice(0, 120)}`);
      continue;
    }
    out[system][Number(qid)].push({ path, start: Number(start), end: Number(end) });
  }
  return out;
}


// Diagnostics: the plugin's three candidate lists (plugins/rag/src/searcher.cpp), replayed in
// SQL, so the effect of each part of the ranking can be measured on the same queries:
//   fts-only       every-word list, then any-word list (ts_rank(search, q, 1)), no trigram names
//   ours-replica   that list fused with the trigram names list by reciprocal rank (k = 60)
//   names-if-short as ours-replica, but names only for queries of at most 3 words
//   doc-in-b       as ours-replica over a copy of the rows whose vector also holds, at weight
//                  B, the doc of the symbol the chunk starts with (analysis.json's doc)
//   any-capped     as ours-replica, the any-word fallback ranking at most 2,000 matching rows
//   any-rare3      as ours-replica, the fallback ranking (at most 2,000) rows that hold one of the
//                  question's 3 rarest words in the project (ts_stat), still by the any-word rank
function componentLists(allQueries, docs) {
  const values = allQueries.map((q, i) => `(${i}, ${q.projectId}, ${literal(tsQueryExpression(q.query, true))}, ` +
    `${literal(tsQueryExpression(q.query, false))}, ${literal(nameWords(q.query))})`).join(',\n');
  const docValues = docs.map((d) => `(${d.projectId}, ${literal(d.path)}, ${d.line}, ${literal(d.doc)})`).join(',\n');
  const lateral = (name, where, order, table = 'rag_chunks') => `SELECT '${name}', q.qid, r.id, r.path, r.start_line, r.end_line FROM cq q CROSS JOIN LATERAL (
  SELECT c.id, c.path, c.start_line, c.end_line, ${order} AS score FROM ${table} c
  WHERE c.project_id = q.project_id AND c.kind = 'code' AND ${where} ORDER BY score DESC, c.id LIMIT 30) r
  ORDER BY q.qid, r.score DESC, r.id;`;
  const rows = psql(`
CREATE TEMP TABLE cq (qid int, project_id bigint, every text, anyw text, words text);
INSERT INTO cq VALUES ${values};
${lateral('every', "q.every <> '' AND c.search @@ to_tsquery('english', q.every)", "ts_rank(c.search, to_tsquery('english', q.every), 1)")}
${lateral('any', "q.anyw <> '' AND c.search @@ to_tsquery('english', q.anyw)", "ts_rank(c.search, to_tsquery('english', q.anyw), 1)")}
${lateral('names', "q.words <> '' AND array_length(regexp_split_to_array(q.words, ' '), 1) <= 6 AND c.names % q.words", 'similarity(c.names, q.words)')}
CREATE TEMP TABLE cdoc (project_id bigint, path text, line int, doc text);
INSERT INTO cdoc VALUES ${docValues};
CREATE TEMP TABLE cs AS SELECT c.id, c.project_id, c.kind, c.path, c.start_line, c.end_line,
  c.search || coalesce(setweight(to_tsvector('english', d.doc), 'B'), '') AS search
  FROM rag_chunks c LEFT JOIN LATERAL (SELECT string_agg(doc, ' ') AS doc FROM cdoc d
  WHERE d.project_id = c.project_id AND d.path = c.path AND d.line = c.start_line) d ON true
  WHERE c.kind = 'code' AND c.project_id IN (SELECT DISTINCT project_id FROM cq);
CREATE INDEX ON cs USING gin (search);
ANALYZE cs;
${lateral('every-doc', "q.every <> '' AND c.search @@ to_tsquery('english', q.every)", "ts_rank(c.search, to_tsquery('english', q.every), 1)", 'cs')}
${lateral('any-doc', "q.anyw <> '' AND c.search @@ to_tsquery('english', q.anyw)", "ts_rank(c.search, to_tsquery('english', q.anyw), 1)", 'cs')}
SELECT 'any-capped', q.qid, r.id, r.path, r.start_line, r.end_line FROM cq q CROSS JOIN LATERAL (
  SELECT c.id, c.path, c.start_line, c.end_line, ts_rank(c.search, to_tsquery('english', q.anyw), 1) AS score FROM (
    SELECT c.* FROM rag_chunks c WHERE c.project_id = q.project_id AND c.kind = 'code' AND q.anyw <> ''
    AND c.search @@ to_tsquery('english', q.anyw) LIMIT 2000) c ORDER BY score DESC, c.id LIMIT 30) r
  ORDER BY q.qid, r.score DESC, r.id;
CREATE TEMP TABLE cdf AS SELECT p.project_id, s.word, s.ndoc FROM (SELECT DISTINCT project_id FROM cq) p,
  LATERAL ts_stat(format('SELECT search FROM rag_chunks WHERE kind = ''code'' AND project_id = %s', p.project_id)) s;
CREATE INDEX ON cdf (project_id, word);
CREATE TEMP TABLE cq3 AS SELECT q.*, (SELECT to_tsquery('english', string_agg(quote_literal(word), ' | '))
  FROM (SELECT d.word FROM unnest(to_tsvector('english', q.words)) u JOIN cdf d ON d.project_id = q.project_id
  AND d.word = u.lexeme ORDER BY d.ndoc, d.word LIMIT 3) x) AS rare FROM cq q;
SELECT 'any-rare3', q.qid, r.id, r.path, r.start_line, r.end_line FROM cq3 q CROSS JOIN LATERAL (
  SELECT c.id, c.path, c.start_line, c.end_line, ts_rank(c.search, to_tsquery('english', q.anyw), 1) AS score FROM (
    SELECT c.* FROM rag_chunks c WHERE c.project_id = q.project_id AND c.kind = 'code' AND q.rare IS NOT NULL
    AND c.search @@ q.rare LIMIT 2000) c ORDER BY score DESC, c.id LIMIT 30) r
  ORDER BY q.qid, r.score DESC, r.id;
`);
  const lists = allQueries.map(() => ({ every: [], any: [], names: [], 'every-doc': [], 'any-doc': [], 'any-capped': [], 'any-rare3': [] }));
  for (const [list, qid, id, path, start, end] of rows) lists[Number(qid)][list].push({ id: Number(id), path, start: Number(start), end: Number(end) });
  return lists.map((l, i) => {
    const textList = (every, any) => (every.length < 10 ? [...every, ...any.filter((h) => !every.some((e) => e.id === h.id))] : every);
    const text = textList(l.every, l.any);
    const fuse = (useNames, list = text) => {
      const score = new Map(), hit = new Map();
      const add = (list) => list.forEach((h, rank) => {
        score.set(h.id, (score.get(h.id) ?? 0) + 1 / (60 + rank + 1));
        hit.set(h.id, h);
      });
      add(list);
      if (useNames) add(l.names);
      return [...score.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([id]) => hit.get(id));
    };
    const words = nameWords(allQueries[i].query).split(' ').filter(Boolean).length;
    return { 'fts-only': text.slice(0, 10), 'ours-replica': fuse(true), 'names-if-short': fuse(words <= 3),
      'doc-in-b': fuse(true, textList(l['every-doc'], l['any-doc'])),
      'any-capped': fuse(true, textList(l.every, l['any-capped'])), 'any-rare3': fuse(true, textList(l.every, l['any-rare3'])) };
  });
}

const rankOf = (hits, targets) => {
  for (let i = 0; i < hits.length && i < 10; ++i)
    if (targets.some((t) => t.path === hits[i].path && hits[i].start <= t.line && t.line <= hits[i].end)) return i + 1;
  return 0;
};

const systems = ['ours', 'baseline', 'plain-on-search', 'fts-only', 'ours-replica', 'names-if-short', 'doc-in-b', 'any-capped', 'any-rare3'];
const results = [];
const allQueries = [];
const symbolDocs = [];
for (const corpus of corpora) {
  const analysis = JSON.parse(readFileSync(join(dataDir, 'generation', String(corpus.id), 'analysis.json'), 'utf8'));
  const sets = querySets(analysis, sampleSize, seed * 1000003 + hash(corpus.name));
  for (const file of analysis.files ?? [])
    for (const s of file.symbols ?? []) if (s.doc && s.line > 0) symbolDocs.push({ projectId: corpus.id, path: file.path, line: s.line, doc: s.doc });
  // Targets no chunk covers cannot be found by anyone; they are counted (as misses) and reported.
  const chunks = psql(`SELECT path, start_line, end_line FROM rag_chunks WHERE kind = 'code' AND project_id = ${corpus.id}`)
    .map(([path, s, e]) => ({ path, start: Number(s), end: Number(e) }));
  const byPath = new Map();
  for (const c of chunks) (byPath.get(c.path) ?? byPath.set(c.path, []).get(c.path)).push(c);
  corpus.files = (analysis.files ?? []).length;
  corpus.chunks = chunks.length;
  corpus.available = sets.available;
  for (const set of ['sentence', 'identifier']) {
    for (const q of sets[set]) {
      const covered = q.targets.some((t) => (byPath.get(t.path) ?? []).some((c) => c.start <= t.line && t.line <= c.end));
      const entry = { corpus: corpus.name, projectId: corpus.id, set, query: q.query, targets: q.targets, covered, hits: {} };
      allQueries.push(entry);
    }
  }
}

let done = 0;
const latencies = [];
for (const entry of allQueries) {
  const r = await ours(entry.projectId, entry.query);
  latencies.push(r.ms);
  entry.hits.ours = r.hits;
  if (++done % 200 === 0) process.stderr.write(`  ${done}/${allQueries.length} queries through /lab/rag\n`);
}
const plain = plainSearch(allQueries);
const components = componentLists(allQueries, symbolDocs);
allQueries.forEach((entry, i) => {
  Object.assign(entry.hits, components[i]);
  entry.hits.baseline = plain.baseline[i];
  entry.hits['plain-on-search'] = plain['plain-on-search'][i];
  entry.rank = Object.fromEntries(systems.map((s) => [s, rankOf(entry.hits[s], entry.targets)]));
});

const metric = (entries, system) => {
  const n = entries.length || 1;
  return {
    mrr: entries.reduce((sum, e) => sum + (e.rank[system] ? 1 / e.rank[system] : 0), 0) / n,
    recall5: entries.filter((e) => e.rank[system] >= 1 && e.rank[system] <= 5).length / n,
  };
};
const fmt = (x) => x.toFixed(3);
const lines = [];
const diagnostics = ['plain-on-search', 'fts-only', 'ours-replica', 'names-if-short', 'doc-in-b', 'any-capped', 'any-rare3'];
lines.push('| corpus | query set | queries | ours MRR@10 | ours recall@5 | baseline MRR@10 | baseline recall@5 |');
lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
const diag = [];
diag.push(`| corpus | query set | ${diagnostics.map((d) => `${d} MRR / R@5`).join(' | ')} |`);
diag.push(`| --- | --- | ${diagnostics.map(() => '---:').join(' | ')} |`);
const summary = [];
for (const corpus of [...corpora, { name: 'all' }]) {
  for (const set of ['sentence', 'identifier']) {
    const entries = allQueries.filter((e) => (corpus.name === 'all' || e.corpus === corpus.name) && e.set === set);
    const m = Object.fromEntries(systems.map((s) => [s, metric(entries, s)]));
    const uncovered = entries.filter((e) => !e.covered).length;
    summary.push({ corpus: corpus.name, set, queries: entries.length, uncovered, ...m });
    const name = corpus.name === 'all' ? '**all**' : corpus.name;
    lines.push(`| ${name} | ${set} | ${entries.length}${uncovered ? ` (${uncovered} uncovered)` : ''} | ` +
      `**${fmt(m.ours.mrr)}** | **${fmt(m.ours.recall5)}** | ${fmt(m.baseline.mrr)} | ${fmt(m.baseline.recall5)} |`);
    diag.push(`| ${name} | ${set} | ${diagnostics.map((d) => `${fmt(m[d].mrr)} / ${fmt(m[d].recall5)}`).join(' | ')} |`);
  }
}
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
console.log('corpora:');
for (const c of corpora)
  console.log(`  ${c.name}: project ${c.id}, ${c.files} files, ${c.chunks} code chunks, candidate queries ` +
    `sentence ${c.available.sentence}, identifier ${c.available.identifier}`);
console.log(lines.join('\n'));
console.log('diagnostics (same queries):');
console.log(diag.join('\n'));
console.log(`/lab/rag latency over ${latencies.length} queries (top 10 code, sequential): p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms`);
writeFileSync(join(outDir, 'quality.json'), JSON.stringify({ corpora, summary, queries: allQueries }, null, 1));
writeFileSync(join(outDir, 'quality-table.md'), lines.join('\n') + '\n\n' + diag.join('\n') + '\n');
