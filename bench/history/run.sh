#!/usr/bin/env bash
# Page history at scale (bench/history/history_bench.cpp): a page with 100,000 logged
# updates; listing its history and rebuilding any version through docsd, against
# replaying the whole log. Usage: bench/history/run.sh [updates] [updates_per_version]
# (after bench/run.sh has built the tools; bench/run.sh history does both).
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d /tmp/docs-history-bench-XXXXXX)"
chmod 755 "$work"
cleanup() {
  build/bin/docsd postgres stop --dir "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
build/bin/docsd postgres start --dir "$work/pg" >/dev/null
DOCS_TEST_PG_DIR="$work/pg" build/bin/history_bench "${1:-100000}" "${2:-100}"
