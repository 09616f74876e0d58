// Screenshots of each screen in light and dark, at desktop and phone width, into
// docs/screenshots/ (node web/e2e/screenshots.mjs; needs build/bin/docsd and web/dist).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startDocsd } from './support/server.mjs';
import { launchBrowser } from './support/browser.mjs';
import { signInByEmail } from './support/flows.mjs';

const outDir = process.argv[2] ?? join(repoRoot, 'docs/screenshots');
const DEVICES = {
  desktop: { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
};
const THEMES = ['light', 'dark'];

async function seedProjects(page) {
  await page.evaluate(async () => {
    const token = localStorage.getItem('auth-jwt');
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const post = (path, body) => fetch(path, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
    const patch = (id, body) => fetch(`/api/project/${id}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
    const a = await post('/api/project', { name: 'Team Handbook', is_private: true });
    await patch(a.id, { description: 'How we plan, build, review and ship' });
    const b = await post('/api/project', { name: 'Payments Service', is_private: false });
    await patch(b.id, { description: 'Card payments, refunds and the ledger' });
    const c = await post('/api/project/zip', { name: 'ml-pipeline', is_private: true });
    const form = new FormData();
    // A one-file ZIP archive ("README.md"), stored uncompressed.
    const bytes = Uint8Array.from(atob('UEsDBBQAAAAAAFWbdl3gNrkkCgAAAAoAAAAJAAAAUkVBRE1FLm1kIyBQaXBlbGluZVBLAQIUAxQAAAAAAFWbdl3gNrkkCgAAAAoAAAAJAAAAAAAAAAAAAACAAQAAAABSRUFETUUubWRQSwUGAAAAAAEAAQA3AAAAMQAAAAAA'), (ch) => ch.charCodeAt(0));
    form.append('file', new Blob([bytes], { type: 'application/zip' }), 'ml-pipeline.zip');
    await fetch(`/api/project/${c.id}/upload-zip`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    localStorage.setItem('screenshot-zip-id', String(c.id));
    const page = (name, parent) => post(`/api/project/${a.id}/page`, { name, parent_page_id: parent });
    const guide = await page('Getting started', 0);
    await page('Local setup', guide.id);
    await page('Code review', guide.id);
    const ops = await page('Operations', 0);
    await page('On-call', ops.id);
    await page('Releases', 0);
    localStorage.setItem('screenshot-view-id', String(a.id));
  });
}

async function shoot(page, name, theme, device) {
  await page.waitForTimeout(350);
  const file = join(outDir, `${name}-${theme}-${device}.png`);
  await page.screenshot({ path: file });
  console.log(`  ${file}`);
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const server = await startDocsd();
  const browser = await launchBrowser();
  try {
    // One account with a few projects for the signed-in screens.
    const seedContext = await browser.newContext();
    const seedPage = await seedContext.newPage();
    await signInByEmail(seedPage, server, 'ada@example.com');
    await seedProjects(seedPage);
    const storage = await seedContext.storageState();
    const zipId = await seedPage.evaluate(() => localStorage.getItem('screenshot-zip-id'));
    const viewId = await seedPage.evaluate(() => localStorage.getItem('screenshot-view-id'));
    await seedContext.close();

    for (const [device, options] of Object.entries(DEVICES)) {
      for (const theme of THEMES) {
        const anon = await browser.newContext({ ...options, colorScheme: theme, reducedMotion: 'reduce' });
        const page = await anon.newPage();
        await page.goto(server.url);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await shoot(page, 'landing', theme, device);
        await page.locator('#sync').scrollIntoViewIfNeeded();
        await shoot(page, 'landing-sync', theme, device);
        await page.goto(`${server.url}/login`);
        await page.getByRole('button', { name: 'Login via Email' }).waitFor();
        await shoot(page, 'login', theme, device);
        await page.getByRole('button', { name: 'Login via Email' }).click();
        await page.getByLabel('Email').fill(`shot-${theme}-${device}@example.com`);
        await page.getByRole('button', { name: 'Send code' }).click();
        await page.getByRole('dialog', { name: 'Check your email' }).waitFor();
        await shoot(page, 'login-code-sent', theme, device);
        await page.goto(`${server.url}/examples`);
        await page.getByTestId('example-card').first().waitFor();
        await shoot(page, 'examples', theme, device);
        // the offline editor with its command menu open
        await page.goto(`${server.url}/editor-sandbox`);
        await page.getByTestId('block-editor').waitFor();
        await page.locator('.block-editor__content p').last().click();
        await page.keyboard.press('End');
        await page.keyboard.press('Enter');
        await page.keyboard.type('/');
        await page.getByRole('listbox', { name: 'Commands' }).waitFor();
        await shoot(page, 'editor-sandbox', theme, device);
        await page.goto(`${server.url}/missing-page/that/is/not/here`);
        await page.getByRole('heading', { name: /Oops/ }).waitFor();
        await shoot(page, 'not-found', theme, device);
        await anon.close();

        const signedIn = await browser.newContext({ ...options, colorScheme: theme, reducedMotion: 'reduce', storageState: storage });
        const app = await signedIn.newPage();
        await app.goto(`${server.url}/projects`);
        await app.getByTestId('project-card').first().waitFor();
        await shoot(app, 'projects', theme, device);
        await app.goto(`${server.url}/projects/${viewId}`);
        await app.getByTestId('block-editor').waitFor();
        await shoot(app, 'project-view', theme, device);
        await app.keyboard.press('Control+Backslash');
        await shoot(app, 'project-view-sidebar-toggled', theme, device);
        await app.goto(`${server.url}/projects`);
        await app.getByTestId('project-card').first().waitFor();
        // This deployment has no GitHub App: show the dialog as it looks with one.
        await app.route('**/api/github/*/*/installation/status', (route) =>
          route.fulfill({ json: { is_project_already_exists: false, has_installation_access: false } }));
        await app.getByRole('button', { name: 'Create New Project' }).click();
        await app.getByLabel('GitHub URL').fill('https://github.com/acme/rocket');
        await app.waitForTimeout(800);
        await shoot(app, 'new-project', theme, device);
        // Shown mid-generation: the offline writer finishes small projects in seconds.
        await app.route(/\/api\/project\?projectId=/, async (route) => {
          const response = await route.fetch();
          route.fulfill({ response, json: { ...(await response.json()), status: 'DOC_TOPICS_GENERATING' } });
        });
        await app.goto(`${server.url}/generate/zip/${zipId}`);
        await app.getByRole('progressbar').waitFor().catch(async (error) => {
          await app.screenshot({ path: '/tmp/screenshot-failure.png' });
          throw new Error(`${error.message}\nat ${app.url()}`);
        });
        await shoot(app, 'progress', theme, device);
        await signedIn.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
