// The token refresh against the real server: with a 125 s token lifetime the SPA must
// refresh 5 s after sign-in (120 s before expiry) and store the new token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser } from './support/browser.mjs';
import { signInByEmail } from './support/flows.mjs';

let server;
let browser;

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  server = await startDocsd({ DOCS_AUTH_JWT_TTL_SECONDS: '125' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const claims = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

test('the token is refreshed 120 s before it expires and the new one is stored', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInByEmail(page, server);
  const first = await page.evaluate(() => localStorage.getItem('auth-jwt'));
  assert.ok(first);
  const firstExp = claims(first).exp;
  await page.waitForFunction((old) => localStorage.getItem('auth-jwt') !== old, first, { timeout: 20_000, polling: 250 });
  const second = await page.evaluate(() => localStorage.getItem('auth-jwt'));
  assert.ok(claims(second).exp >= firstExp, 'the new token does not expire earlier');
  // The new token works for API calls.
  const status = await page.evaluate(async (token) => (await fetch('/api/projects', { headers: { authorization: `Bearer ${token}` } })).status, second);
  assert.equal(status, 200);
  await context.close();
});
