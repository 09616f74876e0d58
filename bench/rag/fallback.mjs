// Diagnostic for docs/benchmarks.md: the rag plugin's SQL for the latency questions of
// bench/rag/latency.mjs, replayed server-side with psql's \timing on a database left by
// bench/rag/run.sh (BENCH_KEEP=1, cluster started again with docsd postgres start), as the
// plugin sends it and with the any-word fallback limited to the query's K rarest words.
//
//   node bench/rag/fallback.mjs DATABASE_URL ANALYSIS_JSON PROJECT_ID LAST_REAL_ID [K]
//
// Per question and kind (code, docs), like plugins/rag/src/searcher.cpp with limit 20:
// every-word; any-word only when every-word found fewer than 20; trigram names for
// queries of at most 6 words. Word document frequencies come from ts_stat over the rows
// indexed by docsd (id <= LAST_REAL_ID), the copies having the same distribution.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { querySets, tsQueryExpression, nameWords } from './queries.mjs';

const [dbUrl, analysisPath, projectIdText, lastRealText, kText] = process.argv.slice(2);
const projectId = Number(projectIdText), lastReal = Number(lastRealText), k = Number(kText ?? 3);
const perSet = Number(process.env.BENCH_RAG_QUERIES ?? 100);
const sets = querySets(JSON.parse(readFileSync(analysisPath, 'utf8')), perSet, 4242);
const queries = [];
for (let i = 0; i < perSet; ++i) {
  if (sets.identifier[i]) queries.push(sets.identifier[i].query);
  if (sets.sentence[i]) queries.push(sets.sentence[i].query);
}
const literal = (text) => `'${text.replaceAll("'", "''")}'`;
const psql = (sql, args = ['-qAt']) => {
  const r = spawnSync('psql', [dbUrl, ...args, '-v', 'ON_ERROR_STOP=1', '-f', '-'], { input: sql, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};

// Document frequency of every lexeme among the rows docsd indexed.
psql(`DROP TABLE IF EXISTS rag_bench_df; CREATE TABLE rag_bench_df AS SELECT word, ndoc FROM
  ts_stat('SELECT search FROM rag_chunks WHERE id <= ${lastReal}'); CREATE UNIQUE INDEX ON rag_bench_df (word);`);
const df = new Map(psql('SELECT word, ndoc FROM rag_bench_df').split('\n').filter(Boolean).map((l) => {
  const [w, n] = l.split('|');
  return [w, Number(n)];
}));
// The lexemes of each word group of the any-word expression, rarest first.
function rareExpression(query) {
  const lexemes = psql(`SELECT lexeme FROM unnest(to_tsvector('english', ${literal(nameWords(query) + ' ' +
    (query.match(/[A-Za-z0-9_]+/g) ?? []).filter((w) => /[A-Z_]/.test(w.slice(1))).map((w) => w.replace(/_/g, '').toLowerCase()).join(' '))}))`)
    .split('\n').filter(Boolean);
  const rare = lexemes.filter((l) => df.has(l)).sort((a, b) => df.get(a) - df.get(b)).slice(0, k);
  return rare.length ? rare.map((l) => `'${l}'`).join(' | ') : '';
}

const statement = (expression, kind, names = false) => names
  ? `SELECT id FROM rag_chunks WHERE project_id = ANY('{${projectId}}'::bigint[]) AND kind = '${kind}' AND names % ${literal(expression)}` +
    ` ORDER BY similarity(names, ${literal(expression)}) DESC, id LIMIT 40;`
  : `SELECT id FROM rag_chunks, to_tsquery('english', ${literal(expression)}) AS q WHERE project_id = ANY('{${projectId}}'::bigint[])` +
    ` AND kind = '${kind}' AND search @@ q ORDER BY ts_rank(search, q, 1) DESC, id LIMIT 40;`;
const timed = (sql) => {
  const out = psql(`\\timing on\n${sql}\n`, ['-qAt']);
  const ms = [...out.matchAll(/Time: ([0-9.]+) ms/g)].map((m) => Number(m[1]));
  const rows = out.split('\n').filter((l) => l && !l.startsWith('Time:')).length;
  return { ms: ms.reduce((a, b) => a + b, 0), rows };
};

const plugin = [], rareVariant = [], parts = { every: [], any: [], names: [], rare: [] };
for (const query of queries) {
  let total = 0, totalRare = 0;
  for (const kind of ['code', 'docs']) {
    const every = timed(statement(tsQueryExpression(query, true), kind));
    parts.every.push(every.ms);
    total += every.ms;
    totalRare += every.ms;
    if (every.rows < 20) {
      const any = timed(statement(tsQueryExpression(query, false), kind));
      parts.any.push(any.ms);
      total += any.ms;
      const expression = rareExpression(query);
      if (expression) {
        const rare = timed(statement(expression, kind));
        parts.rare.push(rare.ms);
        totalRare += rare.ms;
      }
    }
    const words = nameWords(query);
    if (words && words.split(' ').length <= 6) {
      const names = timed(statement(words, kind, true));
      parts.names.push(names.ms);
      total += names.ms;
      totalRare += names.ms;
    }
  }
  plugin.push(total);
  rareVariant.push(totalRare);
}
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1) : '-';
};
const row = (name, values) => console.log(`${name} n=${values.length} p50=${pct(values, 0.5)}ms p95=${pct(values, 0.95)}ms`);
row('plugin-sql-per-question', plugin);
row(`any-word-limited-to-${k}-rarest-per-question`, rareVariant);
for (const [name, values] of Object.entries(parts)) row(`  statement ${name}`, values);
psql('DROP TABLE rag_bench_df');
