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
});
