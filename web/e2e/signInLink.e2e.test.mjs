// The sign-in link mailed with each code, against the real server: an account whose codes
// are locked by a stranger's wrong guesses still signs in through the link, in the browser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readOtp, readSignInLink, startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, newPage } from './support/browser.mjs';
import { closeCodeSentModal, uniqueEmail } from './support/flows.mjs';

let server;
let browser;

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  // Two wrong codes lock an account's codes for the day; no back-off to wait through.
  server = await startDocsd({ DOCS_AUTH_FAILURES_PER_ACCOUNT_PER_DAY: '2', DOCS_AUTH_FAILURE_BACKOFF_AFTER: '100' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const post = (path, body) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

test('a locked account signs in with the link from the mail', async () => {
  const email = uniqueEmail('locked');
  // A stranger guesses twice: the account's codes are locked.
  assert.equal((await post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status, 200);
  const strangers = await readOtp(server.dataDir, email);
  for (const guess of ['000000', '111111']) {
    if (guess === strangers) continue;
    assert.equal((await post('/api/auth/sign-in/email-otp', { email, otp: guess })).status, 400);
  }
  if (['000000', '111111'].includes(strangers)) assert.equal((await post('/api/auth/sign-in/email-otp', { email, otp: '222222' })).status, 400);

  // The owner asks for a code; the right code is refused, and the message points at the link.
  const page = await newPage(browser, { viewport: { width: 1280, height: 860 } });
  await page.goto(`${server.url}/login`);
  await page.getByRole('button', { name: 'Login via Email' }).click();
  await page.getByLabel('Email').fill(email);
  const sentAt = Date.now();
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').waitFor();
  const code = await readOtp(server.dataDir, email, sentAt);
  await closeCodeSentModal(page);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByTestId('toast').getByText('Verification failed').waitFor();
  await page.getByTestId('toast').getByText(/link in the email/).waitFor();

  // The link from the same mail signs in.
  const link = await readSignInLink(server.dataDir, email, sentAt);
  assert.ok(link.startsWith(`${server.url}/login/link#token=`), link);
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/projects$/);
  assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('user'))).email, email);
  assert.ok(await page.evaluate(() => localStorage.getItem('auth-jwt')));

  // Used once, it is spent.
  const again = await browser.newContext();
  const second = await again.newPage();
  await second.goto(link);
  await second.getByRole('button', { name: 'Continue' }).click();
  await second.getByRole('link', { name: 'Back to sign in' }).waitFor();
  await second.getByTestId('toast').getByText('Verification failed').waitFor();
  await again.close();
  await page.context().close();
});
