#!/usr/bin/env bash
# Offline generation time and peak memory on real code nobody here wrote (Debian's own
# packages), at about 100, 1,000 and 10,000 files, and the time to generate again after
# one file changed. Usage: bench/generation/run.sh (after bench/run.sh built docsd).
#
# DOCS_BEFORE=/path/to/an/older/build/bin/docsd: the same trees through that docsd too, in
# the same run, one after the other, with the ratio of time per file and of peak memory
# (how the parsers of issue 32 compare with the ctags reading they replaced).
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d /tmp/docs-gen-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
before="${DOCS_BEFORE:-}"

measure() {  # docsd source out -> "seconds kib"
  { /usr/bin/time -f '%e %M' "$1" generate "$2" --out "$3" --allow-local-sources >"$3.log"; } 2>&1 | tail -1
}

row() {  # label source
  local files seconds kib
  files=$(find "$2" -type f | wc -l)
  # The tree read once before timing, so neither docsd pays for a cold page cache.
  find "$2" -type f -exec cat {} + >/dev/null 2>&1 || true
  read -r seconds kib <<<"$(measure build/bin/docsd "$2" "$work/out-$1")"
  local line="$1 files_in_tree=$files seconds=$seconds peak_rss_mib=$((kib / 1024))"
  if [[ -n "$before" ]]; then
    local seconds0 kib0
    read -r seconds0 kib0 <<<"$(measure "$before" "$2" "$work/before-$1")"
    line+=" before_seconds=$seconds0 before_peak_rss_mib=$((kib0 / 1024))"
    line+=" time_ratio=$(awk -v a="$seconds" -v b="$seconds0" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    line+=" memory_ratio=$(awk -v a="$kib" -v b="$kib0" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  fi
  echo "$line $(tail -1 "$work/out-$1.log")"
}

# Each docsd once on a small tree first: loading its plugins from a cold disk is no part of it.
measure build/bin/docsd /usr/lib/python3/dist-packages/cryptography "$work/warm" >/dev/null
[[ -n "$before" ]] && measure "$before" /usr/lib/python3/dist-packages/cryptography "$work/warm-before" >/dev/null

echo "== Offline generation (docsd generate: inventory, parsers or ctags, analysis, writer) =="
row python-cryptography /usr/lib/python3/dist-packages/cryptography
row boost-spirit /usr/include/boost/spirit
row boost /usr/include/boost

# One file changed: the same tree generated again (the command line has no cache; the
# server's sync, which rewrites only the pages of changed files, is bench/github).
cp -r /usr/include/boost/spirit "$work/spirit"
row spirit-before "$work/spirit"
echo "// changed" >> "$work/spirit/home/qi.hpp"
row spirit-one-file-changed "$work/spirit"
