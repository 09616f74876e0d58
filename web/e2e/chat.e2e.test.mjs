// The chat screen against the real docsd: the settings rules (any deployment), and with
// the rag plugin loaded a question on a generated ZIP project whose results lead to the
// code lines and to the page, and 'Continue prompting' once the log is scrolled up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, seriousA11yViolations } from './support/browser.mjs';
import { signInByEmail } from './support/flows.mjs';

let server;
let browser;
let features = {};

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  server = await startDocsd();
  browser = await launchBrowser();
  features = (await (await fetch(`${server.url}/config.json`)).json()).features ?? {};
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

const send = (page) => page.getByRole('button', { name: 'Send', exact: true });
const prompt = (page) => page.getByLabel('Ask a question');

describe('chat', () => {
  test('settings: digits only, spaces blocked, 0 to 1000, kept after a reload; Send enablement', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/chat`);
    await page.getByRole('heading', { name: 'Ask AI (Beta)' }).waitFor();
    const docs = page.getByLabel('Docs results');
    const code = page.getByLabel('Code results');
    assert.equal(await docs.inputValue(), '10');
    assert.equal(await code.inputValue(), '10');
    assert.equal(await page.getByRole('radio', { name: 'Code and docs' }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: /Search only/ }).isChecked(), false);

    await docs.fill('');
    await docs.pressSequentially('1 2x-');
    assert.equal(await docs.inputValue(), '12', 'spaces and letters are refused');
    await docs.pressSequentially('34');
    assert.equal(await docs.inputValue(), '1000', 'capped at 1000');
    await code.fill('');
    await code.press('Tab');
    assert.equal(await code.inputValue(), '0', 'empty means 0');
    await page.getByRole('radio', { name: 'Docs', exact: true }).check();
    await page.getByRole('checkbox', { name: /Search only/ }).check();
    await page.reload();
    await page.getByLabel('Docs results').waitFor();
    assert.equal(await page.getByLabel('Docs results').inputValue(), '1000');
    assert.equal(await page.getByLabel('Code results').inputValue(), '0');
    assert.equal(await page.getByRole('radio', { name: 'Docs', exact: true }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: /Search only/ }).isChecked(), true);

    // Enabled only with a prompt, a project (here: all public ones) and a count above 0.
    await prompt(page).fill('where is the parser');
    assert.equal(await send(page).isDisabled(), true, 'no project chosen');
    await page.getByText('Choose at least one project.').waitFor();
    await page.getByRole('checkbox', { name: 'All public projects' }).check();
    assert.equal(await send(page).isDisabled(), false);
    await page.getByLabel('Docs results').fill('0');
    assert.equal(await send(page).isDisabled(), true, 'both counts 0');
    await page.getByLabel('Code results').fill('1');
    assert.equal(await send(page).isDisabled(), false);
    await prompt(page).fill('   ');
    assert.equal(await send(page).isDisabled(), true, 'blank prompt');

    assert.deepEqual(await seriousA11yViolations(page), [], 'chat');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`${server.url}/`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
  test('dark theme at phone width: the panel opens from the toolbar; no serious accessibility violations', async () => {
    const page = await newPage({ colorScheme: 'dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/chat`);
    const toggle = page.getByRole('button', { name: 'Projects and settings' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'closed by default on narrow screens');
    assert.deepEqual(await seriousA11yViolations(page), [], 'chat (dark, phone)');
    await toggle.click();
    await page.getByLabel('Docs results').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'chat with the panel (dark, phone)');
    const box = await page.getByLabel('Ask a question').boundingBox();
    assert.ok(box && box.y + box.height <= 844, 'the prompt stays on screen');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a question on a generated ZIP project from Ask AI: the code result (file and lines) leads to its file page, a docs result to its page; Markdown answer; Continue prompting', async (t) => {
    if (!features.rag || !features.generation) return t.skip('the rag and generation plugins are not loaded in this docsd');
    const page = await newPage();
    await signInByEmail(page, server);
    const id = await createZipProject(page, 'Chat Tiny');
    await waitForIndexed(page, id);

    // From the project view's 'Ask AI (Beta)', with the project chosen.
    await page.goto(`${server.url}/projects/${id}`);
    await page.getByRole('link', { name: 'Ask AI (Beta)' }).click();
    await page.waitForURL(/\/chat$/);
    assert.equal(await page.getByRole('checkbox', { name: 'Chat Tiny' }).isChecked(), true);

    // Search only: a list of items; the code item shows its file and lines.
    await page.getByRole('checkbox', { name: /Search only/ }).check();
    await prompt(page).fill('read config file');
    await prompt(page).press('Enter');
    const answer = page.getByTestId('chat-answer').last();
    await answer.waitFor({ timeout: 30_000 });
    const codeResult = answer.locator('.chat-result[data-source="code"]').filter({ hasText: 'read_config_file' }).first();
    await codeResult.waitFor();
    const codeLink = codeResult.getByRole('link', { name: 'View code lines' });
    if (await codeLink.count()) {
      // A repository project: the link goes to the exact lines.
      assert.match(await codeLink.getAttribute('href'), /#L\d+(-L\d+)?$/);
    } else {
      // A ZIP project has no repository: the item names the file and lines instead.
      assert.match(await codeResult.locator('.chat-result__location').textContent(), /^main\.py, lines? \d+/);
    }
    // The code item leads to its file's page, a docs item to its page.
    const codeHref = await codeResult.getByRole('link', { name: 'Open page' }).getAttribute('href');
    assert.match(codeHref, new RegExp(`^/projects/${id}/\\d+$`));
    const docsResult = answer.locator('.chat-result[data-source="docs"]').first();
    const href = await docsResult.getByRole('link', { name: 'Open page' }).getAttribute('href');
    assert.match(href, new RegExp(`^/projects/${id}/\\d+$`));

    // With the model path on (no model configured here): a Markdown answer document.
    await page.getByRole('checkbox', { name: /Search only/ }).uncheck();
    await prompt(page).fill('How do I read the configuration file?');
    await prompt(page).press('Enter');
    await page.getByTestId('chat-answer').nth(1).waitFor({ timeout: 30_000 });

    // Enough answers to scroll: then up, the button, and back down.
    await page.getByRole('checkbox', { name: /Search only/ }).check();
    for (const q of ['greet a user', 'configuration', 'tiny project']) {
      const before = await page.getByTestId('chat-answer').count();
      await prompt(page).fill(q);
      await prompt(page).press('Enter');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="chat-answer"], .chat-alert').length > n, before, { timeout: 30_000 });
    }
    assert.equal(await page.locator('.chat-alert').count(), 0, 'no failed answer');
    const log = page.getByTestId('chat-log');
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    const cont = page.getByRole('button', { name: /Continue prompting/ });
    await cont.waitFor();
    await cont.click();
    await cont.waitFor({ state: 'detached' });
    assert.equal(await prompt(page).evaluate((el) => el === document.activeElement), true);
    assert.ok(await log.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop < 48), 'at the bottom');

    assert.deepEqual(await seriousA11yViolations(page), [], 'chat with answers');

    // Following the code item: its file's page, with the function in it.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.locator(`.chat-result[data-source="code"] a[href="${codeHref}"]`).first().click();
    await page.waitForURL(`${server.url}${codeHref}`);
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    await page.locator('main').getByText('read_config_file').first().waitFor();

    // Back in the chat (the project still chosen), a docs item leads to its page.
    await page.goBack();
    await page.waitForURL(/\/chat$/);
    assert.equal(await page.getByRole('checkbox', { name: 'Chat Tiny' }).isChecked(), true);
    await prompt(page).fill('read config file');
    await prompt(page).press('Enter');
    await page.locator(`.chat-result[data-source="docs"] a[href="${href}"]`).first().click();
    await page.waitForURL(`${server.url}${href}`);
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

/** A public ZIP project with a small Python module, created and uploaded through the API. */
async function createZipProject(page, name) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-chat-'));
  writeFileSync(join(dir, 'main.py'), [
    'def read_config_file(path):',
    '    """Read the configuration file and return its settings as a dict."""',
    '    with open(path) as f:',
    '        return dict(line.split("=", 1) for line in f if "=" in line)',
    '',
    '',
    'def greet(user):',
    '    """Greet a user by name."""',
    '    return "Hello, " + user',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'README.md'), '# Chat Tiny\n\nA tiny project that reads a configuration file and greets users.\n');
  const zipPath = join(dir, 'chat-tiny.zip');
  execFileSync('python3', ['-c', `import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.write(sys.argv[2],'main.py'); z.write(sys.argv[3],'README.md'); z.close()`, zipPath, join(dir, 'main.py'), join(dir, 'README.md')]);
  const zip = readFileSync(zipPath).toString('base64');
  return page.evaluate(async ({ name, zip }) => {
    const auth = { Authorization: `Bearer ${localStorage.getItem('auth-jwt')}` };
    const created = await fetch('/api/project/zip', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, is_private: false }) });
    const { id } = await created.json();
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(atob(zip), (c) => c.charCodeAt(0))], { type: 'application/zip' }), 'chat-tiny.zip');
    const uploaded = await fetch(`/api/project/${id}/upload-zip`, { method: 'POST', headers: auth, body: form });
    if (!uploaded.ok) throw new Error(`upload failed: ${uploaded.status}`);
    return id;
  }, { name, zip });
}

/** Waits until the documentation is generated and the search index is complete. */
async function waitForIndexed(page, id, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const project = await page.evaluate(async (projectId) => {
      const r = await fetch(`/api/project?projectId=${projectId}`, { headers: { Authorization: `Bearer ${localStorage.getItem('auth-jwt')}` } });
      return r.json();
    }, id);
    if (project.status === 'DOC_SUCCESS' && project.rag_status === 'active') return project;
    assert.ok(!['DOC_FAILURE', 'CLONE_FAIL'].includes(project.status), `generation failed: ${project.status}`);
    assert.ok(Date.now() < deadline, `not indexed in time: ${project.status}, rag_status ${project.rag_status}`);
    await page.waitForTimeout(1000);
  }
}
