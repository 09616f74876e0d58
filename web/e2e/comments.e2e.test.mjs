// Comment threads in two browsers against the real docsd: Alice selects a passage,
// presses Comment in the formatting menu and writes; Bob's browser shows the thread at
// once (the collaboration socket's Stateless news) with the passage highlighted, Bob
// answers, Alice sees the answer live and resolves the thread, which hides the highlight
// in both browsers. Axe-clean in light and dark.
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
  server = await startDocsd();
  browser = await launchBrowser();
  features = await readFeatures(server);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const editorOf = (page) => page.locator('.block-editor__content');
const panelOf = (page) => page.getByRole('region', { name: 'Comments' });

describe('comment threads', () => {
  test('a thread started in one browser is answered in another live; resolving hides the mark', async (t) => {
    for (const plugin of ['collab', 'comments']) {
      if (!features[plugin]) {
        assert.ok(process.env.DOCS_E2E_REQUIRE_PLUGINS !== '1', `docsd lacks the ${plugin} plugin`);
        return t.skip(`needs the ${plugin} plugin`);
      }
    }
    const { alice, bob, pageId } = await twoWritersOnANewPage(browser, server, 'Comment Docs');
    await editorOf(alice).click();
    await alice.keyboard.press('Control+End');
    await alice.keyboard.type('Please review the wording here.');
    await editorOf(bob).getByText('Please review the wording here.').waitFor();
    await panelOf(bob).getByText('No comments yet.').waitFor();

    // Alice selects "wording" and comments on it from the formatting menu.
    await editorOf(alice).getByText('Please review the wording here.').dblclick({ position: { x: 120, y: 8 } });
    const selected = await alice.evaluate(() => window.getSelection()?.toString() ?? '');
    assert.ok(selected.trim().length > 0, 'a word is selected');
    await alice.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Comment' }).click();
    await panelOf(alice).getByRole('textbox', { name: 'New comment' }).fill('Is this **clear**? See [the guide](javascript:alert(1))');
    await panelOf(alice).getByRole('button', { name: 'Comment', exact: true }).click();
    const aliceThread = panelOf(alice).getByRole('article');
    await aliceThread.getByText('clear', { exact: true }).waitFor();
    await editorOf(alice).locator('.comment-highlight').first().waitFor();

    // Bob's browser shows it at once, the passage highlighted; the unsafe link is text.
    const bobThread = panelOf(bob).getByRole('article');
    await bobThread.locator('strong', { hasText: 'clear' }).waitFor();
    assert.equal(await bobThread.locator('a').count(), 0);
    await editorOf(bob).locator('.comment-highlight', { hasText: selected.trim() }).waitFor();
    assert.deepEqual(await seriousA11yViolations(bob), []);

    // Bob answers; Alice sees the answer without reloading.
    await bobThread.getByRole('textbox', { name: 'Reply' }).fill('Yes, it reads well.');
    await bobThread.getByRole('button', { name: 'Reply' }).click();
    await aliceThread.getByText('Yes, it reads well.').waitFor();

    // Alice resolves: the highlight goes in both browsers; the thread is under Resolved.
    await aliceThread.getByRole('button', { name: 'Resolve' }).click();
    await editorOf(bob).locator('.comment-highlight').first().waitFor({ state: 'detached' });
    await editorOf(alice).locator('.comment-highlight').first().waitFor({ state: 'detached' });
    await panelOf(bob).getByText('Resolved (1)').waitFor();
    // the mark itself stays in the document (a reopen highlights it again)
    assert.equal(await editorOf(bob).locator('span[data-thread-id]').count() > 0, true);
    assert.deepEqual(await seriousA11yViolations(alice), []);
    assert.deepEqual(await seriousA11yViolations(bob), []);
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  });
});
