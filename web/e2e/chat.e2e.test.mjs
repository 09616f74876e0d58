// The chat screen against the real docsd: the settings rules (any deployment), and with
// the rag plugin loaded a question on a generated ZIP project whose results lead to the
// code lines and to the page, 'Continue prompting' once the log is scrolled up, and a
// question on a generated repository project (cloned from a local git server standing
// in for GitHub) whose code result links to its exact lines there and to its file page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFeatures, startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, newPage, seriousA11yViolations } from './support/browser.mjs';
import { api, createZipProject, signInByEmail } from './support/flows.mjs';
import { startGitServer } from './support/git.mjs';

let server;
let browser;
let git;
let features = {};

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  // Repository addresses on this git server count as GitHub's (cloned anonymously: no App).
  git = await startGitServer();
  server = await startDocsd({ DOCS_GITHUB_URL: git.url });
  browser = await launchBrowser();
  features = await readFeatures(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await git?.stop();
});

const send = (page) => page.getByRole('button', { name: 'Send', exact: true });
const prompt = (page) => page.getByLabel('Ask a question');

// 'Search only' on, asks `question`, and waits for its answer and the code item holding `codeText`.
async function searchOnly(page, question, codeText) {
  await page.getByRole('checkbox', { name: /Search only/ }).check();
  await prompt(page).fill(question);
  await prompt(page).press('Enter');
  const answer = page.getByTestId('chat-answer').last();
  await answer.waitFor({ timeout: 30_000 });
  const codeResult = answer.locator('.chat-result[data-source="code"]').filter({ hasText: codeText }).first();
  await codeResult.waitFor();
  return { answer, codeResult };
}

/** A small Python module and a README: the ZIP project's files. */
const TINY_FILES = {
  'main.py': [
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
  ].join('\n'),
  'README.md': '# Chat Tiny\n\nA tiny project that reads a configuration file and greets users.\n',
};

/** The repository project's module: read_config_file is neither its first nor its last function. */
const REPO_MODULE = [
  '"""Settings of the tiny tool: where they are read from."""',
  'import os',
  '',
  'DEFAULT_PATH = os.path.join(os.path.expanduser("~"), ".tiny.conf")',
  '',
  '',
  'def greet(user):',
  '    """Greet a user by name."""',
  '    return "Hello, " + user',
  '',
  '',
  'def read_config_file(path=DEFAULT_PATH):',
  '    """Read the configuration file and return its settings as a dict."""',
  '    settings = {}',
  '    with open(path) as f:',
  '        for line in f:',
  '            if "=" in line:',
  '                key, value = line.split("=", 1)',
  '                settings[key.strip()] = value.strip()',
  '    return settings',
  '',
  '',
  'def save_config_file(settings, path=DEFAULT_PATH):',
  '    """Write the settings back, one key=value line each."""',
  '    with open(path, "w") as f:',
  '        for key, value in settings.items():',
  '            f.write(key + "=" + value + "\\n")',
  '',
].join('\n');

describe('chat', () => {
  test('settings: digits only, spaces blocked, 0 to 1000, kept after a reload; Send enablement', async () => {
    const page = await newPage(browser);
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
    const page = await newPage(browser, { colorScheme: 'dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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
    const page = await newPage(browser);
    await signInByEmail(page, server);
    const id = await createZipProject(page, 'Chat Tiny', TINY_FILES);
    await waitForIndexed(page, id);

    // From the project view's 'Ask AI (Beta)', with the project chosen.
    await page.goto(`${server.url}/projects/${id}`);
    await page.getByRole('link', { name: 'Ask AI (Beta)' }).click();
    await page.waitForURL(/\/chat$/);
    assert.equal(await page.getByRole('checkbox', { name: 'Chat Tiny' }).isChecked(), true);

    // Search only: a list of items; the code item shows its file and lines.
    const { answer, codeResult } = await searchOnly(page, 'read config file', 'read_config_file');
    // A ZIP project has no repository: its code link opens the app's source view at the
    // lines (a repository project's link: the next test), and the item names them too.
    const location = await codeResult.locator('.chat-result__location').textContent();
    assert.match(location, /^main\.py, lines? \d+/);
    const viewHref = await codeResult.getByRole('link', { name: 'View code lines' }).getAttribute('href');
    assert.match(viewHref, new RegExp(`^/projects/${id}/source\\?path=main\\.py#L\\d+-L\\d+$`));
    const [view] = await Promise.all([page.waitForEvent('popup'), codeResult.getByRole('link', { name: 'View code lines' }).click()]);
    await view.waitForURL(`${server.url}${viewHref}`);
    await view.getByRole('heading', { name: 'main.py' }).waitFor();
    await view.getByTestId('source-marked-lines').waitFor();
    assert.match(await view.getByTestId('source-code').innerText(), /def read_config_file/);
    await view.close();
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

  test('a question on a generated repository project: the code result links to its exact lines in the repository (a new tab) and to its file page', async (t) => {
    if (!features.rag || !features.generation) return t.skip('the rag and generation plugins are not loaded in this docsd');
    const modulePath = 'tiny/config.py';
    const commit = git.createRepository('acme', 'tiny', {
      [modulePath]: REPO_MODULE,
      'tiny/__init__.py': '"""The tiny tool."""\n',
      'README.md': '# Tiny\n\nA tiny tool that reads and writes its configuration file.\n',
    });
    // Where read_config_file is: from its def line to its last line (1-based).
    const lines = REPO_MODULE.split('\n');
    const first = lines.indexOf('def read_config_file(path=DEFAULT_PATH):') + 1;
    const last = lines.indexOf('    return settings') + 1;
    assert.ok(first > 1 && last > first);

    const page = await newPage(browser);
    await signInByEmail(page, server);
    // As the SPA's 'Add from GitHub' does.
    const created = await api(page, 'POST', '/api/project/github', { repo_owner: 'acme', repo_name: 'tiny', name: 'Tiny Repo', language: 'en', is_private: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    const project = await waitForIndexed(page, id);
    assert.equal(project.git_url, `${git.url}/acme/tiny`);
    assert.equal(project.commit_hash, commit, 'the project was generated from the pushed commit');

    // Search only, on this project chosen in the chat's own list.
    await page.goto(`${server.url}/chat`);
    await page.getByRole('checkbox', { name: 'Tiny Repo' }).check();
    const { codeResult } = await searchOnly(page, 'read config file', 'def read_config_file');
    assert.equal(await codeResult.locator('.chat-result__location').textContent(), `${modulePath}, lines ${first}-${last}`);

    // The code link: the file at the project's commit, at the function's lines, in a new tab.
    const codeLink = codeResult.getByRole('link', { name: 'View code lines' });
    const expected = `${git.url}/acme/tiny/blob/${commit}/${modulePath}#L${first}-L${last}`;
    assert.equal(await codeLink.getAttribute('href'), expected);
    assert.equal(await codeLink.getAttribute('target'), '_blank');
    assert.match(await codeLink.getAttribute('rel'), /\bnoopener\b/);
    const requested = page.context().waitForEvent('request', (r) => r.url().split('#')[0] === expected.split('#')[0]);
    const popupOpened = page.waitForEvent('popup');
    await codeLink.click();
    const popup = await popupOpened;
    const request = await requested;
    assert.equal(request.frame().page(), popup, 'the new tab asked for the address');
    await popup.waitForURL(expected);
    assert.equal(popup.url(), expected);
    assert.equal(page.url(), `${server.url}/chat`, 'the chat stays where it was');
    // The git server's page of that file at that commit (GitHub's, as plain text): those
    // lines are the function.
    const shown = (await popup.locator('body').innerText()).split('\n');
    assert.equal(shown.slice(first - 1, last).join('\n'), lines.slice(first - 1, last).join('\n'));
    assert.match(shown[first - 1], /^def read_config_file\(/);
    await popup.close();

    // 'Open page': the generated page of that file, with the function in it.
    const openPage = codeResult.getByRole('link', { name: 'Open page' });
    const pageHref = await openPage.getAttribute('href');
    const pageId = Number(new RegExp(`^/projects/${id}/(\\d+)$`).exec(pageHref)?.[1]);
    assert.ok(pageId > 0, pageHref);
    assert.match(project.pages.find((p) => p.id === pageId)?.name ?? '', /config\.py$/, 'the page of the module');
    await openPage.click();
    await page.waitForURL(`${server.url}${pageHref}`);
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    await page.locator('main').getByText('read_config_file').first().waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

/** Waits until the documentation is generated and the search index is complete. */
async function waitForIndexed(page, id, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body: project } = await api(page, 'GET', `/api/project?projectId=${id}`);
    if (project.status === 'DOC_SUCCESS' && project.rag_status === 'active') return project;
    assert.ok(!['DOC_FAILURE', 'CLONE_FAIL'].includes(project.status), `generation failed: ${project.status}`);
    assert.ok(Date.now() < deadline, `not indexed in time: ${project.status}, rag_status ${project.rag_status}`);
    await page.waitForTimeout(1000);
  }
}
