#!/usr/bin/env bash
# Installs the npm packages of each Node project in the repo (pinned by its lockfile),
# again only when the lockfile changed. npm's cache lives outside the clone (~/.npm).
# With arguments, only those folders (scripts/build.sh: the grammars the build compiles).
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=("$@")
[[ ${#dirs[@]} -gt 0 ]] || dirs=(plugins/generation/grammars tests/ydoc tests/collab tests/openapi plugins/mcp/tests/client web)
for dir in "${dirs[@]}"; do
  [[ -f "$dir/package-lock.json" ]] || continue
  stamp="$dir/node_modules/.docs-lock-sha256"
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then continue; fi
  echo "npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" > "$stamp"
done
