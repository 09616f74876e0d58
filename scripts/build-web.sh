#!/usr/bin/env bash
# Builds the single-page app into web/dist (served by docsd), with precompressed .br and
# .gz files beside its assets. Installs web/'s npm packages with `npm ci` only when
# web/package-lock.json changed or node_modules is missing (npm's cache stays outside the
# clone, in ~/.npm). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/../web"

# Vite 8 needs Node 20.19 or later (Debian 12's own nodejs is 18).
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  echo "web/ needs Node.js >= 20.19 (found $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

stamp=node_modules/.docs-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "npm ci in web"
  nice -n 10 npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$want" > "$stamp"
fi

echo "building web/dist"
nice -n 10 npx --no-install tsc --noEmit -p tsconfig.json
nice -n 10 npx --no-install vite build --logLevel warn
# Brotli and gzip files beside each compressible asset (docsd serves them by Accept-Encoding).
nice -n 10 node scripts/precompress.mjs
# The landing page's JavaScript must stay under 250 kB gzipped (other routes load lazily).
node scripts/bundle-budget.mjs | tail -1
