// Fails when the landing page's JavaScript (the entry chunk and every chunk it imports
// statically, as the browser loads it for "/") is over 250 kB gzipped.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 250 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]);

const seen = new Set();
function visit(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  // Static imports only: `import ... from "./x.js"` and `import "./x.js"`; dynamic import() is lazy.
  for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
    visit(join(dirname(file), m[1]));
  }
}
entries.forEach(visit);

let total = 0;
for (const file of seen) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} kB gzipped`);
}
console.log(`landing page JavaScript: ${(total / 1024).toFixed(1)} kB gzipped (budget ${BUDGET_BYTES / 1024} kB)`);
if (entries.length === 0 || total > BUDGET_BYTES) {
  console.error(entries.length === 0 ? 'no entry script found in dist/index.html' : 'over the bundle budget');
  process.exit(1);
}
