#!/usr/bin/env bash
# Builds the single-page app into web/dist (served by docsd). Installs web/'s npm
# packages with `npm ci` only when web/package-lock.json changed or node_modules is
# missing (npm's cache stays outside the clone, in ~/.npm). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/../web"

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
