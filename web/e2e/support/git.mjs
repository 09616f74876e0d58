// A local git smart-HTTP server (tests/support/git_http_server.py: `git http-backend`)
// serving bare repositories at /<owner>/<name>, for docsd started with
// DOCS_GITHUB_URL=<its url>: repository projects are then cloned from it anonymously.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './server.mjs';

export async function startGitServer() {
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-git-'));
  const root = join(dir, 'root');
  const portFile = join(dir, 'port');
  mkdirSync(root);
  // Commits made here: a fixed author, no system or user configuration.
  const gitEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.com',
    GIT_CONFIG_NOSYSTEM: '1', HOME: dir,
  };
  const log = [];
  const child = spawn('python3', [join(repoRoot, 'tests/support/git_http_server.py'), '--root', root, '--port-file', portFile], { env: gitEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => log.push(String(d)));
  let exited = null;
  const gone = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(5_000)]);
      if (!exited) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !existsSync(portFile); i++) {
    if (exited || i > 200) {
      await stop();
      throw new Error(`the git HTTP server did not start (${JSON.stringify(exited)}):\n${log.join('')}`);
    }
    await sleep(50);
  }
  const url = `http://127.0.0.1:${Number(readFileSync(portFile, 'utf8').trim())}`;
  const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' }).trim();

  return {
    url,
    log: () => log.join(''),
    /**
     * A bare repository at /<owner>/<name> holding `files` ({ path: text }) in one
     * commit on main; answers that commit's hash.
     */
    createRepository(owner, name, files) {
      const work = join(dir, 'work', `${owner}--${name}`);
      mkdirSync(work, { recursive: true });
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), text);
      }
      git(work, 'init', '-q', '--initial-branch=main');
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', 'initial');
      mkdirSync(join(root, owner), { recursive: true });
      git(dir, 'clone', '-q', '--bare', work, join(root, owner, name));
      return git(work, 'rev-parse', 'HEAD');
    },
    stop,
  };
}
