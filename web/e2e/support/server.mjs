// Starts the real docsd (embedded PostgreSQL in a fresh data directory, the built SPA
// from web/dist, or DOCS_E2E_WEB_ROOT) on a free port, and reads sign-in codes from its outbox.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const docsdPath = process.env.DOCS_DOCSD ?? join(repoRoot, 'build/bin/docsd');
// Another build of the SPA (e.g. `vite build --outDir dist-pv`) can be served instead, so
// two people can build and test side by side without overwriting one web/dist.
export const webRoot = process.env.DOCS_E2E_WEB_ROOT ? resolve(process.env.DOCS_E2E_WEB_ROOT) : join(repoRoot, 'web/dist');

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export async function startDocsd(extraEnv = {}) {
  if (!existsSync(docsdPath)) throw new Error(`${docsdPath} is missing: build docsd first`);
  if (!existsSync(join(webRoot, 'index.html'))) throw new Error(`${webRoot} is missing: run scripts/build-web.sh`);
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-'));
  // As root the embedded cluster runs as the postgres user, which must reach the data dir.
  chmodSync(dir, 0o755);
  const portFile = join(dir, 'port');
  const dataDir = join(dir, 'data');
  const env = { ...process.env, DOCS_PORT: '0', DOCS_SERVER_PORT_FILE: portFile, DOCS_DATA_DIR: dataDir, DOCS_SERVER_WEB_ROOT: webRoot, ...extraEnv };
  delete env.DATABASE_URL;
  const log = [];
  let child;
  let exited = null;
  const spawnDocsd = (spawnEnv) => {
    exited = null;
    child = spawn(docsdPath, ['serve'], { env: spawnEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => log.push(String(d)));
    child.stderr.on('data', (d) => log.push(String(d)));
    child.on('exit', (code, signal) => (exited = { code, signal }));
  };
  const stopDocsd = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    await waitFor(async () => exited, 30_000, 'docsd to stop').catch(() => child.kill('SIGKILL'));
  };
  spawnDocsd(env);
  try {
    const port = await waitFor(async () => {
      if (exited) throw new Error(`docsd exited early (${JSON.stringify(exited)}):\n${log.join('')}`);
      return existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) || null : null;
    }, 120_000, 'the port file');
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`)).ok, 120_000, 'readyz');
    return {
      url,
      dataDir,
      log: () => log.join(''),
      readOtp: (email, after = 0) => readOtp(dataDir, email, after),
      /** Stops docsd and starts it again on the same port and data directory. */
      async restart() {
        await stopDocsd();
        spawnDocsd({ ...env, DOCS_PORT: String(port) });
        await waitFor(async () => {
          if (exited) throw new Error(`docsd exited early after restart (${JSON.stringify(exited)})`);
          return (await fetch(`${url}/readyz`)).ok;
        }, 120_000, 'readyz after restart');
      },
      async stop() {
        await stopDocsd();
        if (!process.env.DOCS_KEEP_E2E_DATA) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    error.message += `\n--- docsd log (last 40 lines) ---\n${log.join('').split('\n').slice(-40).join('\n')}`;
    throw error;
  }
}

/** The features of this docsd (its loaded plugins), as /config.json tells the SPA. */
export async function readFeatures(server) {
  return (await (await fetch(`${server.url}/config.json`)).json()).features ?? {};
}

/** The newest one-time code mailed to `email` after `after` (ms since the epoch). */
export async function readOtp(dataDir, email, after = 0, timeoutMs = 15_000) {
  const outbox = join(dataDir, 'outbox');
  return waitFor(async () => {
    if (!existsSync(outbox)) return null;
    const files = readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => join(outbox, f))
      .filter((f) => statSync(f).mtimeMs >= after - 1000)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text)) continue;
      const match = /Your sign-in code is (\d{6})/.exec(text);
      if (match) return match[1];
    }
    return null;
  }, timeoutMs, `a code for ${email}`);
}

/** The sign-in link in the newest mail to `email` after `after` (ms since the epoch). */
export async function readSignInLink(dataDir, email, after = 0, timeoutMs = 15_000) {
  const outbox = join(dataDir, 'outbox');
  return waitFor(async () => {
    if (!existsSync(outbox)) return null;
    const files = readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => join(outbox, f))
      .filter((f) => statSync(f).mtimeMs >= after - 1000)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text)) continue;
      const match = /(https?:\/\/\S+\/login\/link#token=[A-Za-z0-9_-]+)/.exec(text);
      if (match) return match[1];
    }
    return null;
  }, timeoutMs, `a sign-in link for ${email}`);
}
