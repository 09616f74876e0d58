// Writes NAME.br and NAME.gz beside every compressible file in dist/ (docsd serves them by
// Accept-Encoding). Brotli at quality 11 and gzip at level 9: this runs once per build,
// so the slowest, smallest settings cost nothing at request time. A file under 1 KiB, or
// one whose encoded form does not save at least 5 %, gets no sibling.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../dist');
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map', '.wasm', '.webmanifest', '.ttf', '.xml']);
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

let count = 0;
let identity = 0;
let brotli = 0;
let gzip = 0;
for (const path of files(dist)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const data = readFileSync(path);
  if (data.length < MIN_BYTES) continue;
  const variants = [
    ['.br', brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })],
    ['.gz', gzipSync(data, { level: 9 })],
  ];
  for (const [suffix, encoded] of variants) {
    if (encoded.length > data.length * 0.95) continue;
    // Written after its file, so newer: docsd ignores a sibling older than the file it encodes.
    writeFileSync(path + suffix, encoded);
    if (suffix === '.br') brotli += encoded.length;
    else gzip += encoded.length;
  }
  identity += data.length;
  count += 1;
}
console.log(`precompressed ${count} files: ${(identity / 1024).toFixed(0)} kB -> br ${(brotli / 1024).toFixed(0)} kB, gzip ${(gzip / 1024).toFixed(0)} kB`);
