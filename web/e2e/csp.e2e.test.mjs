// The browser security headers against the real docsd (docs/security.md#browser-headers):
// every screen and the editor holding every node type (mermaid, a drawing, an OpenAPI
// block, a YouTube video, images from https, data: and blob:) work under the SPA's
// Content-Security-Policy without a single `securitypolicyviolation`; script injected into
// a page (past the sanitiser, straight into the DOM) does not run, and what the browser
// reports of it names script-src; the editor cannot be framed. Run with DOCS_SERVER_CONTENT_SECURITY_POLICY set to try
// another policy: the test prints every violation it saw.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFeatures, startDocsd } from './support/server.mjs';
import { hasChromium, launchBrowser, newPage } from './support/browser.mjs';
import { api, signInByEmail } from './support/flows.mjs';

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

/**
 * A page whose CSP violations (document listener, installed before any script of the
 * app) and CSP console messages (workers' too) are collected in `page.csp`, across
 * navigations.
 */
async function watchedPage() {
  const page = await newPage(browser);
  page.csp = [];
  await page.exposeBinding('__reportCsp', (_source, v) => page.csp.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCsp({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        where: `${e.sourceFile}:${e.lineNumber}`,
        page: location.pathname,
      });
    });
  });
  page.on('console', (m) => {
    if (!/Content Security Policy/i.test(m.text())) return;
    page.csp.push({ console: m.text(), page: new URL(page.url()).pathname });
  });
  return page;
}

const cspOf = (page) => page.csp.map((v) => JSON.stringify(v)).join('\n');

const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const MERMAID = 'graph TD\n  A[Push] --> B{Changed?}\n  B -->|yes| C[Rewrite page]\n  B -->|no| D[Keep]';
const OPENAPI = 'openapi: 3.0.0\ninfo:\n  title: Widgets\n  version: 1.0.0\npaths:\n  /widgets:\n    get:\n      summary: List widgets\n    post:\n      summary: Create a widget\n';
const DRAWING = JSON.stringify({
  elements: [{ id: 'r1', type: 'rectangle', x: 40, y: 40, width: 160, height: 80, version: 1, versionNonce: 1, isDeleted: false, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, roughness: 1, opacity: 100, seed: 7 }],
});
const text = (t, marks) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
const para = (...content) => ({ type: 'paragraph', content });
const cell = (type, t, colwidth) => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth }, content: [para(text(t))] });

/** A document with every node and mark of core/ydoc/schema.json. */
const EVERY_NODE = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [text('Every node')] },
    para(
      text('bold', [{ type: 'bold' }]), text(' '), text('italic', [{ type: 'italic' }]), text(' '), text('underline', [{ type: 'underline' }]),
      text(' '), text('strike', [{ type: 'strike' }]), text(' '), text('code', [{ type: 'code' }]), text(' '),
      text('link', [{ type: 'link', attrs: { href: 'https://example.com/' } }]), { type: 'hardBreak' }, text('after a break'),
    ),
    { type: 'heading', attrs: { level: 2 }, content: [text('Lists')] },
    { type: 'bulletList', content: [{ type: 'listItem', content: [para(text('bullet'))] }] },
    { type: 'orderedList', attrs: { start: 1 }, content: [{ type: 'listItem', content: [para(text('ordered'))] }] },
    { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [para(text('task'))] }] },
    { type: 'blockquote', content: [para(text('quoted'))] },
    { type: 'alert', attrs: { type: 'warning' }, content: [para(text('an alert'))] },
    { type: 'codeBlock', attrs: { language: 'python' }, content: [text('def f():\n    return 1\n')] },
    { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [text(MERMAID)] },
    { type: 'codeBlock', attrs: { language: 'openapi' }, content: [text(OPENAPI)] },
    {
      type: 'table',
      content: [
        { type: 'tableRow', content: [cell('tableHeader', 'name', [180]), cell('tableHeader', 'value', null)] },
        { type: 'tableRow', content: [cell('tableCell', 'a', [180]), cell('tableCell', '1', null)] },
      ],
    },
    // a README's image on GitHub (no network needed: CSP decides before the request)
    { type: 'image', attrs: { src: 'https://raw.githubusercontent.com/acme/widgets/main/docs/logo.png', alt: 'logo' } },
    { type: 'image', attrs: { src: PNG_1x1, alt: 'inline pixel' } },
    { type: 'video', attrs: { src: 'https://www.youtube.com/embed/dQw4w9WgXcQ' } },
    { type: 'drawing', attrs: { store: DRAWING, users: '[]' } },
    { type: 'horizontalRule' },
    para(text('The end.')),
  ],
};

/** Waits until every rendered part of EVERY_NODE is on screen. */
async function everyNodeShown(page) {
  const content = page.locator('.block-editor__content');
  await content.getByText('The end.').waitFor({ timeout: 45_000 });
  await page.locator('[data-testid=diagram] svg').first().waitFor({ timeout: 30_000 });
  await page.locator('.openapi-view').getByText('/widgets').first().waitFor({ timeout: 30_000 });
  await page.locator('[data-testid=drawing] .excalidraw canvas.interactive').waitFor({ timeout: 30_000 });
  await content.locator('iframe[src^="https://www.youtube.com/embed/"]').waitFor();
  await content.locator('img[alt=logo]').waitFor({ state: 'attached' });
  await content.locator('img[alt="inline pixel"]').waitFor();
  await content.locator('table').waitFor();
  // the pixel decoded, so data: images load
  await page.waitForFunction(() => document.querySelector('img[alt="inline pixel"]')?.naturalWidth === 1);
}

describe('browser security headers', () => {
  test('the SPA and the API carry the headers', async () => {
    const spa = await fetch(`${server.url}/projects/1`);
    const csp = spa.headers.get('content-security-policy') ?? '';
    for (const part of ["script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"]) assert.ok(csp.includes(part), csp);
    assert.equal(spa.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    assert.equal(spa.headers.get('cross-origin-opener-policy'), 'same-origin-allow-popups');
    assert.equal(spa.headers.get('x-frame-options'), 'DENY');
    const html = await spa.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'index.html holds an inline script');
    const apiAnswer = await fetch(`${server.url}/api/projects`);
    assert.match(apiAnswer.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
  });

  test('every screen and the editor with every node type report no violation', async (t) => {
    const page = await watchedPage();
    for (const path of ['/', '/examples', '/hello', '/editor-sandbox', '/chat', '/no/such/page/at/all', '/login']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('#root *').first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    // the theme script (a file now, not inline) ran before the app
    assert.ok(['light', 'dark'].includes(await page.evaluate(() => document.documentElement.dataset.theme)));
    await signInByEmail(page, server);
    const created = await api(page, 'POST', '/api/project', { name: 'CSP every node', is_private: false });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const project = (await api(page, 'GET', `/api/project?projectId=${created.body.id}`)).body;
    const pageId = project.default_page_id ?? project.pages[0].id;
    await page.goto(`${server.url}/projects/${project.id}/${pageId}`);
    const collab = !!features.collab;
    await page.locator(`[data-testid=block-editor][data-editable=${collab}]`).waitFor({ timeout: 45_000 });
    if (!collab) {
      assert.ok(process.env.DOCS_E2E_REQUIRE_PLUGINS !== '1', 'docsd lacks the collab plugin');
      return t.skip('needs the collab plugin to write the page');
    }
    await page.evaluate((doc) => document.querySelector('.block-editor__content').editor.commands.setContent(doc), EVERY_NODE);
    await everyNodeShown(page);
    // blob: images (a pasted image shows locally before its upload ends)
    await page.evaluate(async (src) => {
      const bytes = Uint8Array.from(atob(src.split(',')[1]), (c) => c.charCodeAt(0));
      const blob = new Blob([bytes], { type: 'image/png' });
      const img = new Image();
      img.src = URL.createObjectURL(blob);
      await img.decode();
    }, PNG_1x1);
    // the stored page, as everyone else opens it: load it again, then as a visitor
    const exported = await api(page, 'GET', `/api/page/${pageId}/export?format=md`);
    assert.match(exported.body, /The end\./);
    await page.reload();
    await everyNodeShown(page);
    const visitor = await watchedPage();
    await visitor.goto(`${server.url}/projects/${project.id}/${pageId}`);
    await everyNodeShown(visitor);
    await visitor.context().close();
    assert.equal(visitor.csp.length, 0, `visitor:\n${cspOf(visitor)}`);
    // the other signed-in screens
    await page.goto(`${server.url}/projects`);
    await page.getByText('CSP every node').first().waitFor();
    await page.goto(`${server.url}/chat`);
    await page.locator('#root *').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(page.errors.map(String), []);
    assert.equal(page.csp.length, 0, cspOf(page));
    await page.context().close();
  });

  test('script injected into a page does not run', async () => {
    const page = await watchedPage();
    await page.goto(`${server.url}/editor-sandbox`);
    const content = page.locator('.block-editor__content');
    await content.waitFor({ timeout: 45_000 });
    // Every payload calls this marker; it announces itself so that a payload that ran ends
    // the wait for its injection as surely as a block does.
    await page.evaluate(() => {
      window.__ran = [];
      window.__injectedRan = (what) => {
        window.__ran.push(what);
        dispatchEvent(new CustomEvent('injected-ran', { detail: what }));
      };
    });
    // through the editor: pasted HTML is sanitised first
    await content.focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/html', '<p>pasted</p><img src="/no-such.png" onerror="__injectedRan(\'paste onerror\')"><script>__injectedRan("paste script")</script>');
      document.querySelector('.block-editor__content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await content.getByText('pasted').waitFor();
    // Past the sanitiser, as if it had missed something: an inline script, an event
    // handler, a srcdoc frame and a javascript: link, straight into the page's DOM, one at
    // a time, each until it was processed. Not into the editor: ProseMirror takes foreign
    // nodes out of its DOM at once and a link inside contenteditable is not followed, so
    // there the frame would never load and the link never navigate, whatever the policy.
    const steps = await page.evaluate(async () => {
      const host = document.createElement('div');
      document.querySelector('main').append(host);
      const steps = [];
      // processed when the script element is inserted: it runs then or is refused
      const script = document.createElement('script');
      script.textContent = '__injectedRan("script")';
      host.append(script);
      steps.push('script');
      // processed once the error event is dispatched (the handler runs first: it was added first)
      host.insertAdjacentHTML('beforeend', '<img src="/no-such-image.png" onerror="__injectedRan(\'onerror\')">');
      await new Promise((resolve) => host.lastElementChild.addEventListener('error', resolve, { once: true }));
      steps.push('onerror');
      // processed once the frame has loaded (its inline script runs while it is parsed)
      host.insertAdjacentHTML('beforeend', '<iframe srcdoc="<script>parent.__injectedRan(\'srcdoc\')</script><p>framed</p>"></iframe>');
      const frame = host.lastElementChild;
      await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      if (frame.contentDocument?.body?.textContent !== 'framed') throw new Error('the srcdoc frame did not load');
      steps.push('srcdoc');
      // processed once the navigation to the javascript: URL either ran or was refused: a
      // refusal is reported on the document itself (no element), as script-src-elem
      const link = document.createElement('a');
      link.href = 'javascript:void __injectedRan("javascript-url")';
      link.textContent = 'x';
      host.append(link);
      const settled = new Promise((resolve) => {
        const refused = (e) => e.target === document && /^script-src(-elem)?$/.test(e.effectiveDirective);
        document.addEventListener('securitypolicyviolation', (e) => refused(e) && resolve());
        addEventListener('injected-ran', resolve, { once: true });
      });
      link.click();
      await settled;
      steps.push('javascript-url');
      return steps;
    });
    assert.deepEqual(steps, ['script', 'onerror', 'srcdoc', 'javascript-url']);
    // none ran: each was processed, and a payload that runs does so before that point
    const ran = await page.evaluate(() => window.__ran);
    assert.equal(ran.length, 0, `ran: ${ran.join(', ')}\nreported:\n${cspOf(page)}`);
    // what the browser reported names script-src (events, the frame's too, and console lines)
    const events = page.csp.filter((v) => v.directive);
    assert.ok(events.length > 0, 'no violation reported');
    for (const v of events) assert.match(v.directive, /^script-src/, cspOf(page));
    for (const v of page.csp.filter((v) => v.console)) assert.match(v.console, /directive 'script-src/, cspOf(page));
    await page.context().close();
  });

  test('another site cannot frame the editor', async () => {
    const page = await watchedPage();
    // a page of another origin (about:blank's opaque one) framing ours
    await page.setContent(`<iframe id="victim" src="${server.url}/editor-sandbox"></iframe>`);
    const frame = await (await page.$('#victim')).contentFrame();
    await frame.waitForLoadState('load');
    // refused: Chromium shows its error page in the frame, none of the app
    assert.equal(await frame.evaluate(() => document.querySelectorAll('#root, script[src^="/assets/"]').length).catch(() => 0), 0);
    await page.context().close();
  });
});
