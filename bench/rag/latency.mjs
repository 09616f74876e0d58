// Query latency of POST /lab/rag (top 20 code + top 20 docs) and of the peer, plain
// websearch_to_tsquery + ts_rank over the same rows and the same GIN-indexed column (two
// statements per question, code and docs, timed by psql), for bench/rag/run.sh.
//
//   node bench/rag/latency.mjs BASE TOKEN DATABASE_URL ANALYSIS_JSON PROJECT_ID LABEL [explain]
//
// Questions: BENCH_RAG_QUERIES (default 100) identifier words and as many docstring first
// sentences from the project's analysis.json, interleaved; each is asked once to warm the
// caches, then once timed, one at a time. With "explain", EXPLAIN (ANALYZE, BUFFERS) of the
// plugin's statements for the slowest question is printed.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { querySets, tsQueryExpression, identifierParts } from './queries.mjs';

const [base, token, dbUrl, analysisPath, projectIdText, label, explain] = process.argv.slice(2);
console.log(`${process.argv[7]} load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const projectId = Number(projectIdText);
const perSet = Number(process.env.BENCH_RAG_QUERIES ?? 100);
const sets = querySets(JSON.parse(readFileSync(analysisPath, 'utf8')), perSet, 4242);
const queries = [];
for (let i = 0; i < perSet; ++i) {
  if (sets.identifier[i]) queries.push({ set: 'identifier', query: sets.identifier[i].query });
  if (sets.sentence[i]) queries.push({ set: 'sentence', query: sets.sentence[i].query });
}

async function ask(query) {
  const started = performance.now();
  const response = await fetch(`${base}/lab/rag`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, is_all: false, is_code: true, is_docs: true, is_llm: false, code_top_k: 20,
      docs_top_k: 20, projectIds: [projectId] }),
  });
  const items = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`/lab/rag ${response.status}: ${JSON.stringify(items)}`);
  return { ms, items: items.length };
}

const literal = (text) => `'${text.replaceAll("'", "''")}'`;
function psqlTimes(statementsPerQuery) {
  const script = ['\\timing on'];
  for (const statements of statementsPerQuery) script.push(...statements);
  const r = spawnSync('psql', [dbUrl, '-qAt', '-o', '/dev/null', '-v', 'ON_ERROR_STOP=1', '-f', '-'], {
    input: script.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  const times = [...r.stdout.matchAll(/Time: ([0-9.]+) ms/g)].map((m) => Number(m[1]));
  const per = statementsPerQuery[0].length;
  return statementsPerQuery.map((_, i) => times.slice(i * per, i * per + per).reduce((a, b) => a + b, 0));
}
const peerStatements = (query) => ['code', 'docs'].map((kind) =>
  `SELECT id, project_id, kind, path, start_line, end_line, symbol, symbol_kind, language, page_id, title, content` +
  ` FROM rag_chunks, websearch_to_tsquery('english', ${literal(query)}) AS q WHERE project_id = ANY('{${projectId}}'::bigint[])` +
  ` AND kind = '${kind}' AND search @@ q ORDER BY ts_rank(search, q) DESC, id LIMIT 20;`);

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const f = (x) => x.toFixed(1);

for (const q of queries) await ask(q.query);  // warm
const ours = [];
for (const q of queries) ours.push({ ...q, ...(await ask(q.query)) });
psqlTimes(queries.map((q) => peerStatements(q.query)));  // warm
const peer = psqlTimes(queries.map((q) => peerStatements(q.query)));

const row = (name, values) =>
  `${label} ${name} n=${values.length} p50=${f(pct(values, 0.5))}ms p95=${f(pct(values, 0.95))}ms max=${f(Math.max(...values))}ms`;
const oursMs = ours.map((o) => o.ms);
console.log(row('ours-http', oursMs));
for (const set of ['identifier', 'sentence'])
  console.log(row(`ours-http-${set}`, ours.filter((o) => o.set === set).map((o) => o.ms)));
console.log(row('peer-sql', peer));
console.log(`${label} ratio ours/peer p50=${f(pct(oursMs, 0.5) / pct(peer, 0.5))}x p95=${f(pct(oursMs, 0.95) / pct(peer, 0.95))}x`);
const slowest = [...ours].sort((a, b) => b.ms - a.ms).slice(0, 5);
for (const s of slowest) console.log(`${label} slow ${f(s.ms)}ms ${s.set}: ${s.query.slice(0, 100)}`);

if (explain) {
  const q = slowest[0].query;
  const every = tsQueryExpression(q, true), any = tsQueryExpression(q, false);
  const words = identifierParts(q.replace(/[^A-Za-z0-9_]+/g, ' ').trim().replace(/\s+/g, '_')).join(' ');
  const text = (expression, kind) =>
    // As plugins/rag/src/searcher.cpp sends it: at most 2,000 matches ranked.
    `EXPLAIN (ANALYZE, BUFFERS) SELECT id FROM (SELECT id, search, q FROM rag_chunks, to_tsquery('english', ${literal(expression)}) AS q` +
    ` WHERE project_id = ANY('{${projectId}}'::bigint[]) AND kind = '${kind}' AND search @@ q LIMIT 2000) AS matches` +
    ` ORDER BY ts_rank(search, q, 1) DESC, id LIMIT 40;`;
  const names = (kind) =>
    `EXPLAIN (ANALYZE, BUFFERS) SELECT id FROM rag_chunks WHERE project_id = ANY('{${projectId}}'::bigint[])` +
    ` AND kind = '${kind}' AND names % ${literal(words)} ORDER BY similarity(names, ${literal(words)}) DESC, id LIMIT 40;`;
  const statements = [text(every, 'code'), text(any, 'code')];
  if (words.split(' ').length <= 3) statements.push(names('code'));  // the plugin's kMaxNameQueryWords
  const r = spawnSync('psql', [dbUrl, '-qAt', '-f', '-'], { input: statements.join('\n'), encoding: 'utf8' });
  console.log(`${label} EXPLAIN of the plugin's code statements for: ${q}`);
  console.log(r.stdout + r.stderr);
}
