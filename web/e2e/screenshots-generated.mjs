// Screenshots of the pages generated from a real repository nobody here wrote: its
// overview, Getting started, Concepts, a guide and a file page, into docs/screenshots/
// as generated-*.png. Usage:
//   node web/e2e/screenshots-generated.mjs [SOURCE_DIR] [OUT_DIR]
// SOURCE_DIR defaults to web/node_modules/react-router (its code and 85 Markdown guides).
// docs/screenshots/generated-* show fastify 5.12.8 (41 guides):
//   (cd /tmp && npm pack fastify@5.12.8 && mkdir fastify && tar xzf fastify-5.12.8.tgz -C fastify --strip-components=1)
//   node web/e2e/screenshots-generated.mjs /tmp/fastify
// The source is uploaded as a ZIP to a fresh docsd (build/bin/docsd, web/dist) and the offline
// writer's pages are shot once generation reports DOC_SUCCESS.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { repoRoot, startDocsd } from './support/server.mjs';
import { launchBrowser } from './support/browser.mjs';
import { api, createZipProject, signInByEmail } from './support/flows.mjs';

const sourceDir = process.argv[2] ?? join(repoRoot, 'web/node_modules/react-router');
const outDir = process.argv[3] ?? join(repoRoot, 'docs/screenshots');
const VIEWPORT = { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 };

/** The tree's text files (what a ZIP of the repository would hold), path -> text. */
function readTree(dir) {
  const files = {};
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      if (name === 'node_modules' || name === '.git') continue;
      const path = join(folder, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.size < 2_000_000) files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

async function waitForGeneration(page, projectId) {
  for (;;) {
    const { body } = await api(page, 'GET', `/api/project?projectId=${projectId}`);
    if (body.status === 'DOC_SUCCESS') return body;
    if (/FAIL/.test(body.status ?? '')) throw new Error(`generation failed: ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));  // polling a state, not a timing assumption
  }
}

async function shoot(page, url, heading, name, theme) {
  await page.goto(url);
  await page.getByTestId('block-editor').locator('h1, h2').filter({ hasText: heading }).first().waitFor({ timeout: 60_000 });
  await page.evaluate(() => document.fonts.ready);
  const file = join(outDir, `generated-${name}-${theme}-desktop.png`);
  await page.screenshot({ path: file });
  console.log(`  ${file}`);
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const server = await startDocsd();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    const setup = await context.newPage();
    await signInByEmail(setup, server, 'ada@example.com');
    const name = basename(sourceDir);
    const projectId = await createZipProject(setup, name, readTree(sourceDir));
    const project = await waitForGeneration(setup, projectId);
    const byName = Object.fromEntries(project.pages.map((p) => [p.name, p]));
    // the Guides index is the first page of that name (a guide may be called Guides too)
    const guidesPage = project.pages.find((p) => p.name === 'Guides');
    const guide = project.pages.find((p) => p.name === 'Getting Started' && p.parent_id !== project.default_page_id) ??
      project.pages.find((p) => p.name === 'Using Fetchers') ??
      project.pages.find((p) => guidesPage && p.parent_id === guidesPage.id);
    const file = project.pages.find((p) => /\.(d\.ts|ts|js|go|py)$/.test(p.name) && p.name.startsWith('index')) ??
      project.pages.find((p) => /\.(ts|js|go|py)$/.test(p.name));
    const storage = await context.storageState();
    await context.close();

    const shots = [
      ['overview', project.default_page_id ?? project.pages[0].id, name],
      ['getting-started', byName['Getting started']?.id, 'Getting started'],
      ['concepts', byName.Concepts?.id, 'Concepts'],
      ['guide', guide?.id, guide?.name],
      ['file', file?.id, file?.name],
    ];
    for (const theme of ['light', 'dark']) {
      const shotContext = await browser.newContext({ ...VIEWPORT, colorScheme: theme, reducedMotion: 'reduce', storageState: storage });
      const page = await shotContext.newPage();
      for (const [shotName, pageId, heading] of shots) {
        if (!pageId || !heading) {
          console.error(`  ${shotName}: no such page in this tree, not shot`);
          continue;
        }
        if (theme === 'dark' && shotName !== 'overview' && shotName !== 'guide') continue;
        await shoot(page, `${server.url}/projects/${projectId}/${pageId}`, heading, shotName, theme);
      }
      await shotContext.close();
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
