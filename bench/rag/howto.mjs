// How-to retrieval of POST /lab/rag (docs/rag-quality.md, "How-to questions"): each
// question of howto.json asked the way the chat asks (code and docs, top 5 of each, no
// model), the items taken in the order docsd returns them, each item's file found from
// its path or, for a page section, from the page generation made for a file or guide
// (generation_pages). Hit at rank r: the first item whose file is one of the expected.
//   node howto.mjs ask BASE TOKEN DB_URL OUT.json CORPUS=ID...   asks, writes OUT.json
//   node howto.mjs compare LABEL=A.json LABEL=B.json...         the table, side by side
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const testPath = /(^|\/)(tests?|__tests__|testdata|spec)\/|_test\.go$|\.(test|spec)\.[jt]sx?$|(^|\/)test_[^/]*\.py$/;

async function rag(base, token, body) {
  const response = await fetch(`${base}/lab/rag`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`/lab/rag ${response.status}: ${await response.text()}`);
  return response.json();
}

async function ask([base, token, dbUrl, out, ...pairs]) {
  const projects = Object.fromEntries(pairs.map((pair) => pair.split('=')).map(([name, id]) => [name, Number(id)]));
  const { questions } = JSON.parse(readFileSync(new URL('./howto.json', import.meta.url)));
  // page id -> the file or guide it was generated for
  const pagePath = new Map();
  const rows = execFileSync('psql', [dbUrl, '-qAtF', '\t', '-c',
    "SELECT page_id, substr(key, strpos(key, ':') + 1) FROM generation_pages WHERE key LIKE 'file:%' OR key LIKE 'guide:%'"]);
  for (const line of rows.toString().split('\n').filter(Boolean)) {
    const [page, path] = line.split('\t');
    pagePath.set(Number(page), path);
  }
  const pathOf = (item) => item.path || pagePath.get(item.page_id) || '';
  const results = [];
  for (const question of questions) {
    const id = projects[question.corpus];
    if (!id) throw new Error(`no project for ${question.corpus}`);
    const body = { query: question.q, is_all: false, is_code: true, is_docs: true, is_llm: false,
                   code_top_k: 5, docs_top_k: 5, projectIds: [id] };
    const items = await rag(base, token, body);
    const paths = items.map(pathOf);
    const rank = paths.findIndex((path) => question.expect.includes(path));
    // The no-model answer: which file its first quoted passage comes from.
    const answer = await rag(base, token, { ...body, is_llm: true });
    const first = /^### \[1\] \[(.*)\]\(([^)]*)\)$/m.exec(answer) || /^### \[1\] (.*)$/m.exec(answer);
    let answerPath = '';
    if (first) {
      const page = /\/projects\/\d+\/(\d+)$/.exec(first[2] || '');
      const label = first[1];
      answerPath = (/\(([^()]+) lines? [\d-]+\)$/.exec(label) || /^(\S+) lines? [\d-]+$/.exec(label) || [])[1] ||
                   (page ? pagePath.get(Number(page[1])) || '' : '');
    }
    results.push({
      corpus: question.corpus, question: question.q, tests: !!question.tests, expect: question.expect, rank,
      first: items[0] ? { source: items[0].source, path: paths[0], title: items[0].title, symbol: items[0].symbol } : null,
      firstIsTest: !!paths[0] && testPath.test(paths[0]),
      answerFirst: answerPath, answerHit: question.expect.includes(answerPath),
      top: items.slice(0, 5).map((item, i) => `${item.source} ${paths[i] || '(page ' + item.title + ')'}${item.symbol ? ' ' + item.symbol : ''}`),
    });
  }
  writeFileSync(out, JSON.stringify(results, null, 1));
  summary(results, out);
}

function rates(results) {
  const n = results.length;
  const pct = (k) => `${k}/${n} (${Math.round((100 * k) / n)}%)`;
  return {
    n,
    top1: pct(results.filter((r) => r.rank === 0).length),
    top3: pct(results.filter((r) => r.rank >= 0 && r.rank < 3).length),
    testFirst: pct(results.filter((r) => !r.tests && r.firstIsTest).length),
    answer: pct(results.filter((r) => r.answerHit).length),
  };
}

function summary(results, label) {
  const howTo = results.filter((r) => !r.tests);
  const tests = results.filter((r) => r.tests);
  for (const [name, set] of [['all', results], ['how-to (not about tests)', howTo], ['about tests', tests]]) {
    const r = rates(set);
    console.log(`${label} ${name}: top-1 ${r.top1}, top-3 ${r.top3}, a test first ${r.testFirst}, answer opens with the expected file ${r.answer}`);
  }
}

function compare(pairs) {
  const runs = pairs.map((pair) => {
    const at = pair.indexOf('=');
    return { label: pair.slice(0, at), results: JSON.parse(readFileSync(pair.slice(at + 1))) };
  });
  const rank = (r) => (r.rank < 0 ? '–' : String(r.rank + 1));
  console.log(`| corpus | question | expected | ${runs.map((run) => `${run.label}: rank (first item)`).join(' | ')} |`);
  console.log(`| --- | --- | --- | ${runs.map(() => '---').join(' | ')} |`);
  runs[0].results.forEach((r, i) => {
    const cells = runs.map((run) => {
      const x = run.results[i];
      const first = x.first ? `${x.first.source} ${x.first.path || x.first.title}${x.first.symbol ? ' `' + x.first.symbol + '`' : ''}` : 'nothing';
      return `${rank(x)} (${first.replaceAll('|', '\\|')})`;
    });
    console.log(`| ${r.corpus} | ${r.question}${r.tests ? ' (tests)' : ''} | ${r.expect.map((e) => '`' + e + '`').join(', ')} | ${cells.join(' | ')} |`);
  });
  console.log('');
  console.log(`| set | ${runs.map((run) => run.label).join(' | ')} |`);
  console.log(`| --- | ${runs.map(() => '---').join(' | ')} |`);
  const sets = [['all', () => true], ['how-to (not about tests)', (r) => !r.tests], ['about tests', (r) => r.tests]];
  for (const [name, keep] of sets) {
    const stats = runs.map((run) => rates(run.results.filter(keep)));
    console.log(`| ${name}: top-1 | ${stats.map((s) => s.top1).join(' | ')} |`);
    console.log(`| ${name}: top-3 | ${stats.map((s) => s.top3).join(' | ')} |`);
    if (name !== 'about tests') console.log(`| ${name}: a test ranked first | ${stats.map((s) => s.testFirst).join(' | ')} |`);
    console.log(`| ${name}: the no-model answer opens with an expected file | ${stats.map((s) => s.answer).join(' | ')} |`);
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'ask') await ask(args);
else if (mode === 'compare') compare(args);
else {
  console.error('usage: howto.mjs ask BASE TOKEN DB_URL OUT.json CORPUS=ID... | compare LABEL=FILE...');
  process.exit(2);
}
