// End-to-end tests: the built SPA served by the real docsd with its embedded PostgreSQL,
// driven in Debian's Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFeatures, readOtp, startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, newPage as newPageIn, seriousA11yViolations } from './support/browser.mjs';
import { closeCodeSentModal, signInByEmail, uniqueEmail, writeZip } from './support/flows.mjs';

let server;
let browser;
let features = {};

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  server = await startDocsd({ DOCS_GITHUB_APP_SLUG: 'docs-e2e-app' });
  browser = await launchBrowser();
  features = await readFeatures(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// These screens are checked at 1280 x 860.
const newPage = (options = {}) => newPageIn(browser, { viewport: { width: 1280, height: 860 }, ...options });

async function expectNoSeriousA11y(page, screen) {
  const violations = await seriousA11yViolations(page);
  assert.deepEqual(violations, [], `${screen}: ${JSON.stringify(violations, null, 2)}`);
}

describe('public screens', () => {
  test('landing page shows the headline and its sections, and Try it out goes to /login', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1, name: /Automate your documentation, Accelerate your development\./ }).waitFor();
    for (const id of ['home', 'features', 'integration', 'sync', 'contact', 'share']) {
      assert.equal(await page.locator(`section#${id}`).count(), 1, `section ${id}`);
    }
    assert.equal(await page.locator('footer').count(), 1);
    await expectNoSeriousA11y(page, 'landing');
    await page.getByRole('button', { name: 'Request Demo' }).first().click(); // scrolls to Contact
    await page.waitForFunction(() => {
      const top = document.getElementById('contact').getBoundingClientRect().top;
      return top >= 0 && top < window.innerHeight / 2;
    });
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.waitForURL(/\/login$/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the not-found page', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/no/such/page/here`);
    await page.getByRole('heading', { name: 'Oops! This page does not exist.' }).waitFor();
    await expectNoSeriousA11y(page, 'not found');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.context().close();
  });

  test('/hello answers plain text', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/hello`);
    await page.getByText('the work is done').waitFor();
    await page.context().close();
  });

  test('a protected route while signed out goes to /login', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/projects`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${server.url}/generate/zip/1`);
    await page.waitForURL(/\/login$/);
    await expectNoSeriousA11y(page, 'login');
    await page.context().close();
  });

  test('examples show 13 cards with descriptions cut at 45 characters', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/examples`);
    await page.getByTestId('example-card').first().waitFor();
    assert.equal(await page.getByTestId('example-card').count(), 13);
    const texts = await page.locator('.example-card__text').allTextContents();
    for (const text of texts) assert.ok(text.length <= 48, text);
    // A fresh server has none of the example projects: no card opens a page that is not there.
    await page.locator('[data-testid=example-card][data-present=checking]').first().waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-testid=example-card][data-present=elsewhere]').count(), 13);
    assert.match(await page.getByTestId('example-card').first().locator('a').getAttribute('href'), /^https:\/\/github\.com\//);
    await expectNoSeriousA11y(page, 'examples');
    await page.context().close();
  });

  test('GitHub sign-in without a configured GitHub client shows Login failed', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Login via GitHub' }).click();
    const toast = page.getByTestId('toast');
    await toast.getByText('Login failed').waitFor();
    await toast.getByText('Unable to start GitHub authentication').waitFor();
    await page.context().close();
  });
});

describe('signed in', () => {
  test('keyboard-only sign-in by email', async () => {
    const page = await newPage();
    const email = uniqueEmail('keys');
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Login via Email' }).waitFor(); // the screen is lazy-loaded
    // Tab to "Login via Email" from the top of the page.
    let found = false;
    for (let i = 0; i < 12 && !found; i++) {
      await page.keyboard.press('Tab');
      found = (await page.evaluate(() => document.activeElement?.textContent?.trim())) === 'Login via Email';
    }
    assert.ok(found, 'Login via Email is reachable with Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.type(email); // the email field has focus
    const sentAt = Date.now();
    await page.keyboard.press('Enter');
    const modal = page.getByRole('dialog', { name: 'Check your email' });
    await modal.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') !== null);
    await page.keyboard.press('Escape'); // the modal closes and focus moves to the code field
    await modal.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'otp', null, { timeout: 5000 });
    const code = await readOtp(server.dataDir, email, sentAt);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/projects$/);
    // The JWT from set-auth-jwt is kept as auth-jwt, with an exp claim in the future.
    const exp = await page.evaluate(() => JSON.parse(atob(localStorage.getItem('auth-jwt').split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp);
    assert.ok(exp * 1000 > Date.now());
    assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('user'))).email, email);
    await page.context().close();
  });

  test('a wrong code shows Invalid verification code', async () => {
    const page = await newPage();
    const email = uniqueEmail('wrong');
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Login via Email' }).click();
    await page.getByLabel('Email').fill(email);
    const sentAt = Date.now();
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Verification code').waitFor();
    const code = await readOtp(server.dataDir, email, sentAt);
    await closeCodeSentModal(page);
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Verification code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('toast').getByText('Invalid verification code').waitFor();
    assert.match(await page.getByRole('button', { name: /Resend code/ }).innerText(), /Resend code in \d+s/);
    await page.context().close();
  });

  test('create an empty project, land on it, rename and delete it, sign out', async (t) => {
    if (!features.projects) return t.skip('the projects plugin is not loaded in this docsd');
    const page = await newPage();
    await signInByEmail(page, server);
    await page.getByRole('heading', { name: 'No projects found' }).waitFor();
    await expectNoSeriousA11y(page, 'projects (empty)');

    await page.getByRole('button', { name: 'Create New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Project' });
    await dialog.waitFor();
    await expectNoSeriousA11y(page, 'new project dialog');
    // Clicking outside does not dismiss it.
    await page.mouse.click(5, 5);
    assert.equal(await dialog.isVisible(), true);
    await dialog.getByLabel('Empty').check();
    await dialog.getByLabel('Project Title').fill('Handbook');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/projects\/\d+$/);
    await page.getByTestId('project-title').getByText('Handbook').waitFor();

    await page.goto(`${server.url}/projects`);
    const card = page.getByTestId('project-card').filter({ hasText: 'Handbook' });
    await card.waitFor();
    assert.equal(await card.getByText('Private').count(), 1);
    await card.getByRole('button', { name: 'Settings for Handbook' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename project' });
    await rename.getByLabel('Project name').fill('Team Handbook');
    await rename.getByRole('button', { name: 'Rename' }).click();
    const renamed = page.getByTestId('project-card').filter({ hasText: 'Team Handbook' });
    await renamed.waitFor();

    await renamed.getByRole('button', { name: /Description: No description/ }).click();
    await page.keyboard.type('  How   we work  ');
    await page.keyboard.press('Enter');
    await renamed.getByRole('button', { name: 'Description: How we work. Edit' }).waitFor();

    await page.reload();
    await page.getByTestId('project-card').filter({ hasText: 'Team Handbook' }).getByText('How we work').waitFor();

    await page.getByRole('button', { name: 'Settings for Team Handbook' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete project' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'No projects found' }).waitFor();

    await page.getByRole('button', { name: /@example\.com/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL(/\/login$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('auth-jwt')), null);
    await page.goto(`${server.url}/projects`);
    await page.waitForURL(/\/login$/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('create a ZIP project and watch the progress screen', async (t) => {
    if (!features.projects) return t.skip('the projects plugin is not loaded in this docsd');
    const page = await newPage();
    await signInByEmail(page, server);
    const zipPath = join(mkdtempSync(join(tmpdir(), 'docs-zip-')), 'tiny-project.zip');
    writeZip(zipPath, { 'main.py': 'def hello():\n    """Say hello."""\n    return "hello"\n', 'README.md': '# Tiny\n\nA tiny project.\n' });

    await page.getByRole('button', { name: 'Create New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Project' });
    await dialog.getByLabel('ZIP').check();
    await dialog.locator('input[type=file]').setInputFiles(zipPath);
    assert.equal(await dialog.getByLabel('Project Title').inputValue(), 'tiny-project');
    await dialog.getByRole('button', { name: 'Create & Upload' }).click();
    await page.waitForURL(/\/generate\/zip\/\d+$/);
    await page.getByText('You can close this page without causing any issues.').waitFor();
    await page.getByRole('progressbar').waitFor();
    if (!features.generation) {
      // Without the generation plugin nothing moves the status: the screen stays in progress.
      t.diagnostic('generation plugin not loaded: checked the progress screen only, not the redirect on DOC_SUCCESS');
      await page.getByTestId('progress-title').getByText('Getting things ready').waitFor();
    } else {
      await page.waitForURL(/\/projects\/\d+(\/\d+)?$/, { timeout: 120_000 });
    }
    await expectNoSeriousA11y(page, 'progress');
    await page.context().close();
  });

  test('dark theme and phone width: no serious accessibility violations', async () => {
    const page = await newPage({ colorScheme: 'dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    for (const [path, ready] of [['/', 'Try it out'], ['/login', 'Login via Email']]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('button', { name: ready }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      await expectNoSeriousA11y(page, `${path} (dark, phone)`);
    }
    await page.goto(`${server.url}/examples`);
    await page.getByTestId('example-card').first().waitFor();
    await expectNoSeriousA11y(page, 'examples (dark, phone)');
    if (features.projects) {
      await signInByEmail(page, server);
      await page.getByRole('heading', { name: 'No projects found' }).waitFor();
      await expectNoSeriousA11y(page, 'projects (dark, phone)');
      await page.getByRole('button', { name: 'Create New Project' }).click();
      await page.getByRole('dialog', { name: 'New Project' }).waitFor();
      await expectNoSeriousA11y(page, 'new project dialog (dark, phone)');
    }
    await page.context().close();
  });

  test('create a repository project: progress screen, list badge, then Project already exists', async (t) => {
    if (!features.projects) return t.skip('the projects plugin is not loaded in this docsd');
    const page = await newPage();
    // No GitHub App in this deployment: answer the installation check in the browser.
    let exists = false;
    await page.route('**/api/github/*/*/installation/status', (route) =>
      route.fulfill({ json: { is_project_already_exists: exists, has_installation_access: true } }));
    await signInByEmail(page, server);
    // A repository that does not exist: with the generation plugin loaded its clone fails
    // (CLONE_FAIL, 10 %), without it the project waits in REQUEST_TO_CLONE (5 %).
    const owner = 'docs-e2e-no-such-owner';
    const repo = `no-such-repo-${process.pid}`;
    const allowed = { titles: ['Getting things ready', 'Documentation Failed'], percents: ['5%', '10%'], badges: ['In Progress', 'Failed'] };

    await page.getByRole('button', { name: 'Create New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Project' });
    await dialog.getByLabel('GitHub URL').fill(`github.com/${owner}/${repo}`);
    assert.equal(await dialog.getByLabel('Project Title').inputValue(), repo);
    await dialog.getByLabel('Language').selectOption('de');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/generate\/github$/);
    await page.getByText('You can close this page without causing any issues.').waitFor();
    await page.getByTestId('progress-title').waitFor();
    // The progress screen creates the project, then remembers its id in the basis.
    await page.waitForFunction(() => typeof JSON.parse(localStorage.getItem('project-creation-basis'))?.project_id === 'number');
    assert.ok(allowed.titles.includes(await page.getByTestId('progress-title').innerText()));
    assert.ok(allowed.percents.includes(await page.getByTestId('progress-percent').innerText()));
    const { project_id: createdId, ...basis } = JSON.parse(await page.evaluate(() => localStorage.getItem('project-creation-basis')));
    assert.deepEqual(basis, { owner_name: owner, repo_name: repo, project_name: repo, language: 'de', is_private: true });
    assert.equal(typeof createdId, 'number');
    await page.reload(); // follows the created project, does not create it again
    await page.getByRole('progressbar').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByText('Could not create project').count(), 0);

    await page.goto(`${server.url}/projects`);
    const card = page.getByTestId('project-card').filter({ hasText: repo });
    await card.getByTestId('status-badge').waitFor();
    assert.ok(allowed.badges.includes(await card.getByTestId('status-badge').innerText()));
    assert.equal(await card.getByRole('link', { name: repo }).getAttribute('href'), `/github/${owner}/${repo}`);

    exists = true;
    await page.getByRole('button', { name: 'Create New Project' }).click();
    await dialog.getByLabel('GitHub URL').fill(`https://github.com/${owner}/${repo}`);
    await dialog.getByText('Project already exists').waitFor();
    await dialog.getByRole('button', { name: 'View project' }).click();
    await page.waitForURL(new RegExp(`/github/${owner}/${repo}$`));
    await page.getByTestId('project-title').getByText(repo).waitFor();
    await page.context().close();
  });

  test('the repository progress screen without a creation basis fails with the spec message', async (t) => {
    if (!features.projects) return t.skip('the projects plugin is not loaded in this docsd');
    const page = await newPage();
    await signInByEmail(page, server);
    await page.evaluate(() => localStorage.removeItem('project-creation-basis'));
    await page.goto(`${server.url}/generate/github`);
    await page.getByTestId('progress-title').getByText('Documentation Failed').waitFor();
    await page.getByTestId('toast').getByText('Project creation info is missing or invalid').waitFor();
    await page.context().close();
  });

  test('Install GitHub App opens this deployment\'s app and polls until access', async (t) => {
    if (!features.projects) return t.skip('the projects plugin is not loaded in this docsd');
    const page = await newPage();
    let access = false;
    let checks = 0;
    await page.route('**/api/github/*/*/installation/status', (route) => {
      checks += 1;
      return route.fulfill({ json: { is_project_already_exists: false, has_installation_access: access } });
    });
    // Never reach the real GitHub from a test.
    await page.context().route('https://github.com/**', (route) => route.fulfill({ body: '<title>install</title>', contentType: 'text/html' }));
    await signInByEmail(page, server);
    await page.getByRole('button', { name: 'Create New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Project' });
    await dialog.getByLabel('GitHub URL').fill('https://github.com/acme/widgets');
    const install = dialog.getByRole('button', { name: 'Install GitHub App' });
    await install.waitFor();
    const [popup] = await Promise.all([page.context().waitForEvent('page'), install.click()]);
    assert.equal(popup.url(), 'https://github.com/apps/docs-e2e-app/installations/new');
    const before = checks;
    access = true; // the user installs the app in the other window
    await dialog.getByRole('button', { name: 'Create', exact: true }).waitFor({ timeout: 10_000 });
    assert.ok(checks > before, 'installation status was polled');
    await page.context().close();
  });
});
