#!/usr/bin/env node
// Parses every ```mermaid block of the Markdown files under a folder with mermaid itself,
// in Debian's Chromium (playwright-core and mermaid from web/node_modules): the check
// `docsd generate --report` runs after its own C++ subset check.
// Usage: node scripts/mermaid-check.mjs DIR   -> prints {"diagrams", "parsed", "failures"}
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'web', 'package.json'));
const { chromium } = require('playwright-core');
const mermaidScript = join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/mermaid-check.mjs DIR');
  process.exit(2);
}

function* markdownFiles(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* markdownFiles(path);
    else if (name.endsWith('.md')) yield path;
  }
}

const blocks = [];
for (const file of markdownFiles(dir)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(`{3,})mermaid\n([\s\S]*?)\n\1$/gm)) blocks.push({ file: relative(dir, file), source: match[2] });
}

const browser = await chromium.launch({ executablePath: process.env.DOCS_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ path: mermaidScript });
  const results = await page.evaluate(async (sources) => {
    window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    const out = [];
    for (const source of sources) {
      try {
        await window.mermaid.parse(source);
        out.push('');
      } catch (error) {
        out.push(String(error?.message ?? error).split('\n')[0]);
      }
    }
    return out;
  }, blocks.map((block) => block.source));
  const failures = [];
  results.forEach((error, i) => error && failures.push({ file: blocks[i].file, error }));
  console.log(JSON.stringify({ diagrams: blocks.length, parsed: blocks.length - failures.length, failures: failures.slice(0, 20) }));
} finally {
  await browser.close();
}
