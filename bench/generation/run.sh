#!/usr/bin/env bash
# Offline generation time and peak memory on real code nobody here wrote (Debian's own
# packages), at about 100, 1,000 and 10,000 files, and the time to generate again after
# one file changed. Usage: bench/generation/run.sh (after bench/run.sh built docsd).
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d /tmp/docs-gen-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT

row() {  # label source
  local files out
  files=$(find "$2" -type f | wc -l)
  out=$( { /usr/bin/time -f '%e %M' build/bin/docsd generate "$2" --out "$work/out-$1" >"$work/log-$1"; } 2>&1 | tail -1)
  read -r seconds kib <<<"$out"
  echo "$1 files_in_tree=$files seconds=$seconds peak_rss_mib=$((kib / 1024)) $(tail -1 "$work/log-$1")"
}

echo "== Offline generation (docsd generate, ctags + analysis + writer, single process) =="
row python-cryptography /usr/lib/python3/dist-packages/cryptography
row boost-spirit /usr/include/boost/spirit
row boost /usr/include/boost

# One file changed: the same tree generated again (the command line has no cache; the
# server's sync, which rewrites only the pages of changed files, is bench/github).
cp -r /usr/include/boost/spirit "$work/spirit"
row spirit-before "$work/spirit"
echo "// changed" >> "$work/spirit/home/qi.hpp"
row spirit-one-file-changed "$work/spirit"
