// Personal access tokens in the browser against the real docsd: the API tokens screen
// from the user menu creates a token (its value shown once, copied with the Copy button),
// the token works as a Bearer credential from fetch and shows as used, the screen revokes
// it, and the same call is then a 401 JSON error; axe-clean in light and dark.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, newPage, seriousA11yViolations } from './support/browser.mjs';
import { signInByEmail } from './support/flows.mjs';

let server;
let browser;

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  server = await startDocsd();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A call from the page with `token` as the only credential (no cookie). */
function callWith(page, token, method, path) {
  return page.evaluate(async ({ token, method, path }) => {
    const response = await fetch(path, { method, credentials: 'omit', headers: { Authorization: `Bearer ${token}` } });
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, body: type.includes('json') ? await response.json() : await response.text() };
  }, { token, method, path });
}

async function assertAxeClean(page, where) {
  const violations = await seriousA11yViolations(page);
  assert.deepEqual(violations, [], `${where}: ${JSON.stringify(violations, null, 2)}`);
}

test('create a token, use it as Bearer, revoke it, and it is refused', async () => {
  const page = await newPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signInByEmail(page, server);

  await page.getByRole('button', { name: /e2e-/ }).click();
  await page.getByRole('menuitem', { name: 'API tokens' }).click();
  await page.waitForURL(/\/settings\/tokens$/);
  await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
  await page.getByText('You have no tokens.').waitFor();
  await assertAxeClean(page, 'empty tokens screen');

  await page.getByLabel('Token name').fill('e2e script');
  await page.getByLabel('Expires after').selectOption({ label: '90 days' });
  await page.getByRole('radio', { name: 'Read only' }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const value = (await page.getByTestId('new-token-value').textContent()).trim();
  assert.match(value, /^docs_pat_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value);
  const row = page.getByTestId('token-row').filter({ hasText: 'e2e script' });
  await row.getByText('Read only').waitFor();
  assert.equal(await row.locator('td').nth(2).textContent(), 'Never', 'not used yet');
  await assertAxeClean(page, 'tokens screen with a new token');

  // The value is not kept anywhere the page stores things.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!stored.includes(value), 'the token is not stored by the SPA');

  // The token works on its own, as its owner, read-only.
  const projects = await callWith(page, value, 'GET', '/api/projects');
  assert.equal(projects.status, 200, JSON.stringify(projects.body));
  const write = await callWith(page, value, 'POST', '/api/project/zip');
  assert.equal(write.status, 403);
  assert.equal(write.body.error.code, 'read_only_token');

  // After a reload the value is gone and the list says when it was last used.
  await page.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.getByTestId('new-token-value').count(), 0);
  await page.reload();
  await row.waitFor();
  assert.notEqual(await row.locator('td').nth(2).textContent(), 'Never', 'last use is shown');
  assert.ok(!(await page.content()).includes(value), 'the list never shows the value');

  // Revoke it from the screen (after the confirmation); the same call is now a 401.
  await row.getByRole('button', { name: 'Revoke e2e script' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke token?' });
  await assertAxeClean(page, 'revoke confirmation');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('You have no tokens.').waitFor();
  const refused = await callWith(page, value, 'GET', '/api/projects');
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error.code, 'invalid_token');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the tokens screen is axe-clean in the dark theme and on a phone', async () => {
  const page = await newPage(browser, { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  await signInByEmail(page, server);
  await page.goto(`${server.url}/settings/tokens`);
  await page.getByText('You have no tokens.').waitFor();
  await page.getByLabel('Token name').fill('phone');
  await page.getByRole('radio', { name: 'Read and write' }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByTestId('new-token-value').waitFor();
  await page.getByTestId('token-row').filter({ hasText: 'Read and write' }).waitFor();
  await assertAxeClean(page, 'dark phone tokens screen');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
