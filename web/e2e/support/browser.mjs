// Debian's Chromium driven by playwright-core (no browser download).
import { chromium } from 'playwright-core';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const chromiumPath = process.env.DOCS_CHROMIUM ?? '/usr/bin/chromium';

export function hasChromium() {
  return existsSync(chromiumPath);
}

export function launchBrowser() {
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath: chromiumPath, headless: true, args });
}

/**
 * A page in a fresh context (its own storage: one person), 1440 x 900 unless `options`
 * (Playwright's context options) say otherwise. Uncaught page errors are collected in
 * `page.errors` for the test to assert on.
 */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousA11yViolations(page) {
  // evaluated through the DevTools protocol: an inline <script> tag would be refused by
  // docsd's Content-Security-Policy (script-src 'self')
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
