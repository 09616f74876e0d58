#!/usr/bin/env node
// Creates public example projects on a deployment and points the examples grid at them.
//
//   node web/scripts/create-examples.mjs --server http://localhost:8080 --email you@example.com \
//        [--outbox $DOCS_DATA_DIR/outbox] [--write] <path-or-github-url>...
//
// A GitHub URL becomes a repository project (the deployment's GitHub App must be able to
// read it); a directory is zipped and uploaded as a ZIP project. Every project is made
// public. The sign-in code is read from --outbox (the embedded setup writes mail there)
// or asked for on the terminal. With --write, web/src/data/examples.json gets the new
// links: an entry whose `repository` matches is updated, others are appended.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';

const examplesFile = join(dirname(fileURLToPath(import.meta.url)), '../src/data/examples.json');

function parseArgs(argv) {
  const options = { sources: [], write: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--server') options.server = argv[++i];
    else if (arg === '--email') options.email = argv[++i];
    else if (arg === '--outbox') options.outbox = argv[++i];
    else if (arg === '--write') options.write = true;
    else options.sources.push(arg);
  }
  if (!options.server || !options.email || options.sources.length === 0) {
    console.error('usage: create-examples.mjs --server URL --email EMAIL [--outbox DIR] [--write] <path-or-github-url>...');
    process.exit(2);
  }
  options.server = options.server.replace(/\/+$/, '');
  return options;
}

async function call(server, token, path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(init.json);
  }
  const response = await fetch(`${server}${path}`, { ...init, headers });
  const text = await response.text();
  const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return { body, response };
}

async function codeFrom(outbox, email, after) {
  if (!outbox) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const code = (await rl.question(`Sign-in code sent to ${email}: `)).trim();
    rl.close();
    return code;
  }
  for (let tries = 0; tries < 50; tries++) {
    const files = existsSync(outbox) ? readdirSync(outbox).map((f) => join(outbox, f)).filter((f) => statSync(f).mtimeMs >= after - 1000) : [];
    for (const file of files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)) {
      const text = readFileSync(file, 'utf8');
      const match = text.includes(email) && /Your sign-in code is (\d{6})/.exec(text);
      if (match) return match[1];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${email} in ${outbox}`);
}

async function signIn({ server, email, outbox }) {
  const sentAt = Date.now();
  await call(server, null, '/api/auth/email-otp/send-verification-otp', { method: 'POST', json: { email, type: 'sign-in' } });
  const otp = await codeFrom(outbox, email, sentAt);
  const { response } = await call(server, null, '/api/auth/sign-in/email-otp', { method: 'POST', json: { email, otp } });
  const token = response.headers.get('set-auth-jwt');
  if (!token) throw new Error('sign-in gave no token');
  return token;
}

function readmeDescription(dir) {
  const readme = readdirSync(dir).find((f) => /^readme(\.md|\.txt)?$/i.test(f));
  if (!readme) return '';
  const paragraph = readFileSync(join(dir, readme), 'utf8').split(/\n\s*\n/).map((p) => p.trim()).find((p) => p && !p.startsWith('#') && !p.startsWith('[!') && !p.startsWith('<'));
  return (paragraph ?? '').replace(/\s+/g, ' ').slice(0, 200);
}

function zipDirectory(dir) {
  const out = join(mkdtempSync(join(tmpdir(), 'docs-example-')), `${basename(dir)}.zip`);
  if (existsSync(join(dir, '.git'))) {
    execFileSync('git', ['-C', dir, 'archive', '--format=zip', '-o', out, 'HEAD']);
  } else {
    execFileSync('python3', ['-c', 'import shutil,sys; shutil.make_archive(sys.argv[1][:-4], "zip", sys.argv[2])', out, dir]);
  }
  return out;
}

async function createExample(server, token, source) {
  const github = /^(https?:\/\/)?(www\.)?github\.com\/([^/]+)\/([^/#?]+)/i.exec(source);
  if (github) {
    const [owner, repo] = [github[3], github[4].replace(/\.git$/, '')];
    const { body } = await call(server, token, '/api/project/github', {
      method: 'POST',
      json: { repo_owner: owner, repo_name: repo, name: repo, language: 'en', is_private: false },
    });
    return { id: body.id, title: repo, description: '', href: `/github/${owner}/${repo}`, repository: `https://github.com/${owner}/${repo}` };
  }
  const dir = resolve(source);
  if (!statSync(dir).isDirectory()) throw new Error(`${source} is neither a GitHub URL nor a directory`);
  const name = basename(dir);
  const { body } = await call(server, token, '/api/project/zip', { method: 'POST', json: { name, is_private: false } });
  const form = new FormData();
  form.append('file', new Blob([readFileSync(zipDirectory(dir))], { type: 'application/zip' }), `${name}.zip`);
  await call(server, token, `/api/project/${body.id}/upload-zip`, { method: 'POST', body: form });
  await call(server, token, `/api/project/${body.id}`, { method: 'PATCH', json: { visibility: 'public' } });
  return { id: body.id, title: name, description: readmeDescription(dir), href: `/projects/${body.id}`, repository: dir };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const token = await signIn(options);
  const created = [];
  for (const source of options.sources) {
    const example = await createExample(options.server, token, source);
    console.log(`${source} -> project ${example.id} (${example.href})`);
    created.push(example);
  }
  if (!options.write) return;
  const examples = JSON.parse(readFileSync(examplesFile, 'utf8'));
  for (const example of created) {
    const existing = examples.find((e) => e.repository === example.repository);
    if (existing) existing.href = example.href;
    else examples.push({ image: '/examples/json.svg', title: example.title, description: example.description || example.title, href: example.href, repository: example.repository });
  }
  writeFileSync(examplesFile, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`updated ${examplesFile}`);
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
