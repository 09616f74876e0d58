// Page history in the browser against the real docsd: the History panel from the page's
// right sidebar lists versions with their authors, shows one against the current page
// (additions and removals marked), and restores it after a confirmation while a second
// browser is on the page (both see it, and what was typed before is kept in a version);
// keyboard reachable and axe-clean in light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFeatures, startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, seriousA11yViolations } from './support/browser.mjs';
import { api, twoWritersOnANewPage } from './support/flows.mjs';

let server;
let browser;
let features = {};

before(async () => {
  assert.ok(hasChromium(), 'Debian chromium is needed: scripts/install-deps.sh test');
  // versions a second after editing pauses, checked often: the test waits for states
  server = await startDocsd({ DOCS_HISTORY_IDLE_SECONDS: '1', DOCS_HISTORY_SNAPSHOT_CHECK_MS: '200', DOCS_COLLAB_COMPACT_DEBOUNCE_MS: '100' });
  browser = await launchBrowser();
  features = await readFeatures(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const editorOf = (page) => page.locator('.block-editor__content');

/** Waits until the page's newest version holds `text` (its Markdown). */
async function versionWith(page, pageId, text) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const list = await api(page, 'GET', `/api/page/${pageId}/history`);
    const newest = list.body?.versions?.[0];
    if (newest) {
      const md = await api(page, 'GET', `/api/page/${pageId}/history/${newest.id}?format=md`);
      if (typeof md.body === 'string' && md.body.includes(text)) return newest;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no version with ${text}`);
}

describe('page history', () => {
  test('the panel lists versions, marks differences, and a restore reaches a second browser', async (t) => {
    if (!features.collab) {
      assert.ok(process.env.DOCS_E2E_REQUIRE_PLUGINS !== '1', 'docsd lacks the collab plugin');
      return t.skip('needs the collab plugin');
    }
    const { alice, bob, pageId } = await twoWritersOnANewPage(browser, server, 'History Docs');
    await editorOf(alice).click();
    await alice.keyboard.press('Control+End');
    await alice.keyboard.type('First words that stay');
    await editorOf(bob).getByText('First words that stay').waitFor();
    const kept = await versionWith(alice, pageId, 'First words that stay');
    // Then a word taken out of the first paragraph and a second paragraph written.
    for (let i = 0; i < ' stay'.length; i += 1) await alice.keyboard.press('Backspace');
    await alice.keyboard.press('Enter');
    await alice.keyboard.type('Second thoughts to undo');
    await editorOf(bob).getByText('Second thoughts to undo').waitFor();
    await versionWith(alice, pageId, 'Second thoughts to undo');

    // Keyboard: the History button is reachable and opens the panel.
    const history = alice.getByRole('button', { name: 'History', exact: true });
    await history.focus();
    await alice.keyboard.press('Enter');
    const dialog = alice.getByRole('dialog', { name: 'Page history' });
    await dialog.waitFor();
    const versions = dialog.getByRole('navigation', { name: 'Versions' }).getByRole('button');
    await versions.first().waitFor();
    assert.ok((await versions.count()) >= 2);
    // The version with the first words only (listed by its time), against the current page.
    const keptTime = await alice.evaluate((at) => new Date(at).toLocaleString(), kept.created_at);
    const older = versions.filter({ hasText: keptTime }).first();
    await older.focus();
    await alice.keyboard.press('Enter');
    // Only in the current page: struck through; only in the version: underlined.
    await dialog.locator('del', { hasText: 'Second thoughts to undo' }).waitFor();
    await dialog.locator('ins', { hasText: 'stay' }).waitFor();
    assert.equal(await dialog.locator('del', { hasText: 'First words' }).count(), 0);
    assert.deepEqual(await seriousA11yViolations(alice), []);

    // Restore, after the confirmation; Bob's browser (dark theme) sees it at once.
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    const confirm = alice.getByRole('dialog', { name: 'Restore version' });
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await alice.getByText(/Restored the version/).waitFor();
    await editorOf(bob).getByText('Second thoughts to undo').waitFor({ state: 'detached' });
    await editorOf(alice).getByText('Second thoughts to undo').waitFor({ state: 'detached' });
    await editorOf(bob).getByText('First words that stay').waitFor();
    await editorOf(alice).getByText('First words that stay').waitFor();
    // Nothing typed is lost: the version taken before the restore holds it.
    const listed = (await api(alice, 'GET', `/api/page/${pageId}/history`)).body.versions;
    const before = listed.find((v) => (v.label ?? '').startsWith('Before restoring'));
    assert.ok(before, JSON.stringify(listed));
    const md = await api(alice, 'GET', `/api/page/${pageId}/history/${before.id}?format=md`);
    assert.match(md.body, /Second thoughts to undo/);

    // Bob, in the dark theme, opens the panel too: the labelled version is listed; axe-clean.
    await bob.getByRole('button', { name: 'History', exact: true }).click();
    const bobDialog = bob.getByRole('dialog', { name: 'Page history' });
    await bobDialog.getByText(/Before restoring version/).first().waitFor();
    // It holds the undone paragraph: only in the version, so underlined (dark colours checked too).
    await bobDialog.getByRole('button', { name: /Before restoring version/ }).first().click();
    await bobDialog.locator('ins', { hasText: 'Second thoughts to undo' }).waitFor();
    assert.equal(await bob.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.deepEqual(await seriousA11yViolations(bob), []);
    await bob.keyboard.press('Escape');
    await bobDialog.waitFor({ state: 'detached' });
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  });
});
