#!/usr/bin/env bash
# Installs what docsd needs to build, run and test on Debian 12, and nothing that is
# already there. Safe to run again. Usage: scripts/install-deps.sh [build|test|full]
set -euo pipefail
tier="${1:-build}"

packages=(
  g++ cmake ninja-build pkg-config git ccache mold
  libpoco-dev libpq-dev libssl-dev libcurl4-openssl-dev libgit2-dev libzip-dev
  libboost-dev nlohmann-json3-dev libspdlog-dev libjemalloc-dev libmd4c-dev
  postgresql universal-ctags
)
if [[ "$tier" == test || "$tier" == full ]]; then
  # chromium: the web end-to-end tests drive Debian's Chromium with playwright-core.
  # stress-ng: DOCS_TEST_STRESS=1 scripts/test.sh runs the tests on a busy machine.
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev curl python3 chromium clang-14 libclang-rt-14-dev stress-ng)
fi
if [[ "$tier" == full ]]; then
  packages+=(nginx-light wrk)
fi
# Node.js runs the yjs oracle tests (and builds the web app); keep an existing one.
if ! command -v node >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian starts the packaged cluster on install; docsd runs its own and needs no other.
if [[ " ${missing[*]} " == *" postgresql "* ]] && command -v pg_ctlcluster >/dev/null; then
  $sudo pg_ctlcluster 15 main stop 2>/dev/null || true
fi
