#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/ from tests/fuzz, ASan+UBSan) and
# runs each from a copy of its committed corpus:
#   ydoc_fuzz_decode, ydoc_fuzz_merge   core/ydoc (tests/ydoc/fuzz-corpus), SECONDS each
#   docs_fuzz_analysis                  one file's analysis, every language (tests/fuzz/corpus/analysis)
#   docs_fuzz_declarations              the parsed languages' declarations and doc dialects (tests/fuzz/corpus/declarations)
#   docs_fuzz_ws_frame                  WebSocket frames from a client (tests/fuzz/corpus/ws_frame)
#   docs_fuzz_multipart                 multipart upload bodies (tests/fuzz/corpus/multipart)
#   docs_fuzz_markdown                  Markdown to page nodes (tests/fuzz/corpus/markdown)
# The last five run for two thirds of SECONDS (20 s of the default 30) below 600, for
# SECONDS from 600 on (the full tier). Any crash, leak, sanitizer report or timeout fails.
# scripts/test.sh runs it with 30; the full tier with 600. New inputs that grow coverage
# are printed as a count, not committed: add interesting ones to the corpus by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
other_seconds=$(( seconds < 600 ? seconds * 2 / 3 : seconds ))
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# build-fuzz/ used to be configured from core/ydoc alone: start it again from tests/fuzz.
if [[ -f build-fuzz/CMakeCache.txt ]] && ! grep -q "^CMAKE_HOME_DIRECTORY:INTERNAL=$PWD/tests/fuzz$" build-fuzz/CMakeCache.txt; then
  rm -rf build-fuzz/CMakeCache.txt build-fuzz/CMakeFiles build-fuzz/build.ninja
fi
if [[ ! -f build-fuzz/build.ninja ]]; then
  cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
# Quiet when it builds; the whole output when it does not.
if ! ninja -C build-fuzz -j "${DOCS_BUILD_JOBS:-$(nproc)}" ydoc_fuzz_decode ydoc_fuzz_merge docs_fuzz_analysis docs_fuzz_ws_frame \
  docs_fuzz_multipart docs_fuzz_markdown docs_fuzz_declarations >"${TMPDIR:-/tmp}/docs-fuzz-build.log" 2>&1; then
  grep -v '^\[' "${TMPDIR:-/tmp}/docs-fuzz-build.log" | tail -40
  echo "FAIL: the fuzz targets do not build"; exit 1
fi
work="$(mktemp -d /tmp/docs-fuzz-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cp -r tests/ydoc/fuzz-corpus/decode tests/ydoc/fuzz-corpus/merge "$work/"
for target in analysis ws_frame multipart markdown declarations; do cp -r "tests/fuzz/corpus/$target" "$work/"; done

# fuzz NAME BINARY SECONDS MAX_LEN CORPUS...: the first corpus folder gathers new inputs.
fuzz() {
  local name=$1 binary=$2 time=$3 max_len=$4
  shift 4
  local before
  before=$(ls "$1" | wc -l)
  if ! "$binary" "$@" -max_total_time="$time" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$work/$name-" >"$work/$name.log" 2>&1; then
    tail -40 "$work/$name.log"
    echo "FAIL: $name found a problem (artifact above)"; exit 1
  fi
  local runs
  runs=$(grep -o 'Done [0-9]* runs' "$work/$name.log" | tail -1)
  echo "$name: ${runs:-?} in ${time}s, corpus $before -> $(ls "$1" | wc -l), no findings"
}
fuzz ydoc_fuzz_decode build-fuzz/ydoc/fuzz/ydoc_fuzz_decode "$seconds" 4096 "$work/decode"
fuzz ydoc_fuzz_merge build-fuzz/ydoc/fuzz/ydoc_fuzz_merge "$seconds" 4096 "$work/merge" "$work/decode"
# Long enough for lines far past the analysis's 4 KB line cap.
fuzz docs_fuzz_analysis build-fuzz/docs_fuzz_analysis "$other_seconds" 32768 "$work/analysis"
fuzz docs_fuzz_ws_frame build-fuzz/docs_fuzz_ws_frame "$other_seconds" 4096 "$work/ws_frame"
fuzz docs_fuzz_multipart build-fuzz/docs_fuzz_multipart "$other_seconds" 8192 "$work/multipart"
fuzz docs_fuzz_markdown build-fuzz/docs_fuzz_markdown "$other_seconds" 16384 "$work/markdown"
fuzz docs_fuzz_declarations build-fuzz/docs_fuzz_declarations "$other_seconds" 16384 "$work/declarations"
