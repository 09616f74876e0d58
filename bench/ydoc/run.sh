#!/usr/bin/env bash
# core/ydoc against yjs on the editing traces: builds core/ydoc on its own (build-ydoc/)
# with the benchmark on, replays each trace with yjs on Node, then runs the C++ rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/npm-deps.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S core/ydoc -B build-ydoc -G Ninja -DCMAKE_BUILD_TYPE=Release -DYDOC_BUILD_BENCH=ON >/dev/null
nice -n 10 ninja -C build-ydoc -j1 ydoc_bench_run
