// What a person does, step by step, shared by the tests and the screenshot command.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readOtp } from './server.mjs';
import { newPage } from './browser.mjs';

let counter = 0;
export function uniqueEmail(prefix = 'e2e') {
  counter += 1;
  return `${prefix}-${Date.now()}-${process.pid}-${counter}@example.com`;
}

export async function signInByEmail(page, server, email = uniqueEmail()) {
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
  await page.waitForURL(/\/projects$/);
  return email;
}

/**
 * Signs in through GitHub sign-in against the fake GitHub (support/fakeGithub.mjs) as
 * `profile` ({login, name, email}); answers the email.
 */
export async function signInByGithub(page, server, fakeGithub, profile) {
  const { email } = fakeGithub.next({ email: uniqueEmail(profile.login), ...profile });
  await page.goto(`${server.url}/login`);
  await page.getByRole('button', { name: 'Login via GitHub' }).click();
  await page.waitForURL(/\/projects$/);
  return email;
}

/** The "Check your email" modal closes itself after 5 s; close it now if it is still open. */
export async function closeCodeSentModal(page) {
  const enter = page.getByRole('dialog', { name: 'Check your email' }).getByRole('button', { name: 'Enter code' });
  if (await enter.isVisible()) await enter.click().catch(() => {});
}

/**
 * A call to the API from the page, with the signed-in user's stored token (none when
 * signed out). `body` is sent as JSON. Answers { status, body }: the parsed JSON for a
 * JSON answer (null if it does not parse), the text otherwise.
 */
export function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const token = localStorage.getItem('auth-jwt');
    const response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, body: type.includes('json') ? await response.json().catch(() => null) : await response.text() };
  }, { method, path, body });
}

/** Writes a ZIP archive at `zipPath` holding `files` ({ path: text }). */
export function writeZip(zipPath, files) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-zip-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    execFileSync('python3', ['-c', 'import zipfile, sys, os\nz = zipfile.ZipFile(sys.argv[1], "w")\nfor f in sys.argv[3:]: z.write(os.path.join(sys.argv[2], f), f)\nz.close()', zipPath, dir, ...Object.keys(files)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A ZIP project made of `files` ({ path: text }), created and its archive (named after
 * the project: 'Chat Tiny' uploads chat-tiny.zip) uploaded through the API as the
 * signed-in user; answers its id (generation starts on upload).
 */
export async function createZipProject(page, name, files, { isPrivate = false } = {}) {
  const fileName = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.zip`;
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-upload-'));
  let zip;
  try {
    writeZip(join(dir, fileName), files);
    zip = readFileSync(join(dir, fileName)).toString('base64');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return page.evaluate(async ({ name, zip, isPrivate, fileName }) => {
    const auth = { Authorization: `Bearer ${localStorage.getItem('auth-jwt')}` };
    const created = await fetch('/api/project/zip', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, is_private: isPrivate }) });
    if (!created.ok) throw new Error(`creating the ZIP project failed: ${created.status}`);
    const { id } = await created.json();
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(atob(zip), (c) => c.charCodeAt(0))], { type: 'application/zip' }), fileName);
    const uploaded = await fetch(`/api/project/${id}/upload-zip`, { method: 'POST', headers: auth, body: form });
    if (!uploaded.ok) throw new Error(`upload failed: ${uploaded.status}`);
    return id;
  }, { name, zip, isPrivate, fileName });
}

/** The pages of a project by name, as the server has them now. */
export async function pagesByName(page, projectId) {
  const { body } = await api(page, 'GET', `/api/project?projectId=${projectId}`);
  return Object.fromEntries(body.pages.map((p) => [p.name, p]));
}

/**
 * Fills a project (its default page makes the first) up to 2,000 pages: 40 roots
 * 'Chapter 0'..'Chapter 39', each with 'Section N of chapter C' children. Answers the
 * number of pages added (1999).
 */
export function addBigTree(page, projectId) {
  return page.evaluate(async (projectId) => {
    const token = localStorage.getItem('auth-jwt');
    const post = (name, parent) => fetch(`/api/project/${projectId}/page`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, parent_page_id: parent }),
    }).then((r) => r.json());
    const roots = [];
    for (let i = 0; i < 40; i += 10) roots.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => post(`Chapter ${i + k}`, 0)))));
    let count = roots.length;
    while (count < 1999) {
      const size = Math.min(25, 1999 - count);
      await Promise.all(Array.from({ length: size }, (_, k) => post(`Section ${count + k} of chapter ${(count + k) % 40}`, roots[(count + k) % 40].id)));
      count += size;
    }
    return count;
  }, projectId);
}

/** Opens a project page and waits until its editor takes input. */
export async function openEditablePage(page, server, projectId, pageId) {
  await page.goto(`${server.url}/projects/${projectId}/${pageId}`);
  await page.locator('[data-testid=block-editor][data-editable=true]').waitFor({ timeout: 45_000 });
}

/**
 * Alice (light) makes a private project and shares it with Bob (dark) as a writer; both
 * open its first page in the editor.
 */
export async function twoWritersOnANewPage(browser, server, projectName) {
  const alice = await newPage(browser);
  const bob = await newPage(browser, { colorScheme: 'dark' });
  await signInByEmail(alice, server);
  const bobEmail = await signInByEmail(bob, server);
  const created = await api(alice, 'POST', '/api/project', { name: projectName, is_private: true });
  if (created.status !== 201) throw new Error(`project not created: ${JSON.stringify(created.body)}`);
  const project = (await api(alice, 'GET', `/api/project?projectId=${created.body.id}`)).body;
  const pageId = project.default_page_id ?? project.pages[0].id;
  const shared = await api(alice, 'POST', '/api/rbac/project', { project_id: project.id, role: 'write', email: bobEmail });
  if (shared.status >= 300) throw new Error(`not shared with Bob: ${JSON.stringify(shared.body)}`);
  await openEditablePage(alice, server, project.id, pageId);
  await openEditablePage(bob, server, project.id, pageId);
  return { alice, bob, project, pageId };
}
