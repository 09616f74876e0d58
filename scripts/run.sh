#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running docsd on http://localhost:8080
# with an embedded PostgreSQL and the offline writer. Stop it with Ctrl+C.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
scripts/build.sh product
if [[ -f web/package.json ]]; then scripts/build-web.sh; fi
exec build/bin/docsd serve "$@"
