#!/usr/bin/env bash
# Configures and builds with the dev preset (build/bin/docsd, build/plugins/*.so), or the
# ci preset (-Werror) when CI=true. Extra arguments go to ninja (targets).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache hits across clones: paths are taken relative to the checkout.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The tree-sitter grammars the generation plugin compiles (C sources from npm, pinned).
scripts/npm-deps.sh plugins/generation/grammars
preset=dev
[[ "${CI:-}" == true ]] && preset=ci
if [[ ! -f build/build.ninja ]] || ! grep -q "DOCS_WERROR:BOOL=$([[ $preset == ci ]] && echo ON || echo OFF)" build/CMakeCache.txt 2>/dev/null; then
  cmake --preset "$preset" >/dev/null
fi
jobs="${DOCS_BUILD_JOBS:-$(nproc)}"
ninja -C build -j "$jobs" "$@"
