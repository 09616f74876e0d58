#!/usr/bin/env bash
# Builds core/ydoc's libFuzzer targets with clang (build-fuzz/, ASan+UBSan) and runs each
# for SECONDS (default 30) from a copy of the committed corpus (tests/ydoc/fuzz-corpus).
# Any crash, leak, sanitizer report or timeout fails. scripts/test.sh runs it for 30 s per
# target; the full tier for 10 minutes. New inputs that grow coverage are printed as a
# count, not committed: add interesting ones to the corpus by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [[ ! -f build-fuzz/build.ninja ]]; then
  cmake -S core/ydoc -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYDOC_FUZZ=ON -DYDOC_BUILD_TESTS=OFF >/dev/null
fi
ninja -C build-fuzz -j "${DOCS_BUILD_JOBS:-$(nproc)}" ydoc_fuzz_decode ydoc_fuzz_merge >/dev/null
work="$(mktemp -d /tmp/docs-fuzz-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cp -r tests/ydoc/fuzz-corpus/decode tests/ydoc/fuzz-corpus/merge "$work/"
for target in decode merge; do
  corpus=("$work/$target")
  [[ $target == merge ]] && corpus+=("$work/decode")
  before=$(ls "$work/$target" | wc -l)
  if ! build-fuzz/fuzz/ydoc_fuzz_$target "${corpus[@]}" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$work/" >"$work/$target.log" 2>&1; then
    tail -40 "$work/$target.log"
    echo "FAIL: ydoc_fuzz_$target found a problem (artifact above)"; exit 1
  fi
  runs=$(grep -o 'Done [0-9]* runs' "$work/$target.log" | tail -1)
  echo "ydoc_fuzz_$target: ${runs:-?} in ${seconds}s, corpus $before -> $(ls "$work/$target" | wc -l), no findings"
done
