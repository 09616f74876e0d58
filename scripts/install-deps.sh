#!/usr/bin/env bash
# Installs what docsd needs to build, run and test on Debian 12, and nothing that is
# already there. Safe to run again. Usage: scripts/install-deps.sh [build|package|test|full]
set -euo pipefail
tier="${1:-build}"

packages=(
  g++ cmake ninja-build pkg-config git ccache mold
  libpoco-dev libpq-dev libssl-dev libcurl4-openssl-dev libgit2-dev libzip-dev
  zlib1g-dev libbrotli-dev
  libboost-dev nlohmann-json3-dev libspdlog-dev libjemalloc-dev libmd4c-dev libmd4c-html0-dev
  postgresql universal-ctags
  # The generation plugin parses code with tree-sitter (its grammars come from npm, pinned).
  libtree-sitter-dev
  # The dev preset (scripts/build.sh) configures the tests too, even when only `product` is
  # built (scripts/run.sh): GoogleTest must be there to configure.
  libgtest-dev
)
if [[ "$tier" == package ]]; then
  # cpack -G DEB: dpkg-shlibdeps computes the package's dependencies, file finds the ELF files.
  packages+=(dpkg-dev file)
fi
if [[ "$tier" == test || "$tier" == full ]]; then
  # chromium: the web end-to-end tests drive Debian's Chromium with playwright-core.
  # stress-ng: DOCS_TEST_STRESS=1 scripts/test.sh runs the tests on a busy machine.
  # python3-prometheus-client: the Prometheus project's text-format parser reads /metrics.
  # clang-format, clang-tidy: scripts/format.sh and the lint (docs/testing.md).
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev curl python3 python3-prometheus-client chromium clang-14
             libclang-rt-14-dev stress-ng clang-format clang-tidy)
fi
if [[ "$tier" == full ]]; then
  packages+=(nginx-light wrk)
fi
# Node.js builds the web app (Vite needs >= 20.19) and runs the yjs oracle tests. Debian
# 12's nodejs is 18: it only brings npm, which then installs Node 22 from the npm
# registry (the `node` package) into /usr/local. A new enough node is kept as it is.
node_new_enough() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'
}
if ! node_new_enough; then
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
if ((${#missing[@]} > 0)); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # Debian starts the packaged cluster on install; docsd runs its own and needs no other.
  if [[ " ${missing[*]} " == *" postgresql "* ]] && command -v pg_ctlcluster >/dev/null; then
    $sudo pg_ctlcluster 15 main stop 2>/dev/null || true
  fi
fi
if ! node_new_enough; then
  node_prefix="${DOCS_NODE_PREFIX:-/usr/local}"
  echo "installing Node 22 from the npm registry into $node_prefix (the node found is $(node --version 2>/dev/null || echo missing))"
  $sudo npm install -g --prefix "$node_prefix" --no-audit --no-fund node@22 >/dev/null
  hash -r
  if ! node_new_enough; then
    echo "Node >= 20.19 is still not the first node on PATH ($(command -v node)): put $node_prefix/bin first" >&2
    exit 1
  fi
fi
