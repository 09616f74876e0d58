// Runs the end-to-end tests (node:test, one file at a time).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((f) => f.endsWith('.e2e.test.mjs')).map((f) => join(here, f));
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
