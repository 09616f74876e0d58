#!/usr/bin/env bash
# Installs, builds and runs the tests. Tiers:
#   scripts/test.sh          default tier (what CI runs): unit, integration, sdk, oracle, 30 s of fuzzing per target,
#                            web (Vitest) and e2e (Playwright in Chromium against docsd)
#   scripts/test.sh full     everything, including long runs (crash loops, 10 min of fuzzing per target, 10k sockets),
#                            the lint (scripts/lint.sh) and ASan+UBSan
#   scripts/test.sh tsan     under ThreadSanitizer (build-tsan/): the unit tests, then the threaded suites
#                            (collab, the job queue, the WebSocket hub and server); reports in build-tsan/tsan/
# Extra arguments after the tier go to ctest (e.g. -R Router).
# DOCS_TEST_STRESS=1 runs `stress-ng --cpu 2` beside the tests (a busy machine: the default
# tier must pass so, since CI may share its cores); it stops with the run.
set -euo pipefail
cd "$(dirname "$0")/.."
tier="${1:-default}"
[[ $# -gt 0 ]] && shift
case "$tier" in default|full|tsan) ;; *) echo "usage: scripts/test.sh [default|full|tsan] [ctest args]"; exit 2 ;; esac

scripts/install-deps.sh "$([[ $tier == full ]] && echo full || echo test)"
scripts/npm-deps.sh

if [[ $tier == tsan ]]; then
  # A full build of its own (about as long as the dev build). Each process that sees a race
  # writes build-tsan/tsan/report.<pid>: a test binary then exits with 66 (its test fails), a
  # docsd a test started may not fail its test, so any report fails the tier.
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  cmake --preset tsan >/dev/null
  ninja -C build-tsan -j "$(nproc)"
  ulimit -n 65536 2>/dev/null || ulimit -n 4096 2>/dev/null || true
  reports="$PWD/build-tsan/tsan"
  rm -rf "$reports" && mkdir -p "$reports"
  export TSAN_OPTIONS="log_path=$reports/report second_deadlock_stack=1 history_size=4 suppressions=$PWD/tests/tsan.supp"
  threaded='^(Collab|Relay|History|UpdateLogRows|JobQueueTest|HubTest|WsFrame|RobustnessTest\.WebSocket|Lifecycle\.ShutdownWaitsForARunningJob)'
  status=0
  (cd build-tsan && ctest --output-on-failure --timeout 900 -j "$(nproc)" -L unit "$@") || status=1
  (cd build-tsan && ctest --output-on-failure --timeout 900 -j "$(nproc)" -LE "unit|full" -R "$threaded" "$@") || status=1
  if compgen -G "$reports/report.*" >/dev/null; then
    echo "ThreadSanitizer reports ($(ls "$reports" | wc -l) processes), first frames:"
    grep -h -A2 "^WARNING: ThreadSanitizer" "$reports"/report.* | grep "#0" | sed 's/ (.*//' | sort | uniq -c | sort -rn
    status=1
  fi
  exit "$status"
fi
scripts/build.sh
if [[ -f web/package.json ]]; then scripts/build-web.sh; fi

if [[ "${DOCS_TEST_STRESS:-}" == 1 ]]; then
  stress-ng --cpu 2 --timeout 0 --quiet &
  stress_pid=$!
  trap 'kill "$stress_pid" 2>/dev/null || true' EXIT
  echo "stress-ng --cpu 2 runs beside the tests (pid $stress_pid)"
fi

# Sockets-heavy tests raise their own limit, but give ctest's children room too.
ulimit -n 65536 2>/dev/null || ulimit -n 4096 2>/dev/null || true

label_args=(-LE full)
[[ $tier == full ]] && label_args=()
(cd build && ctest --output-on-failure --timeout 600 -j "$(nproc)" "${label_args[@]}" "$@")

# libFuzzer on the Yjs decoder and merge, from the committed corpus (skipped when ctest
# arguments select a subset).
if [[ $# -eq 0 ]]; then scripts/fuzz.sh "$([[ $tier == full ]] && echo 600 || echo 30)"; fi

if [[ $tier == full ]]; then
  # The lint: clang-tidy with .clang-tidy over every source of build/ (about 20 minutes on 2 cores).
  scripts/lint.sh
  # The same suites again under AddressSanitizer + UBSan (build-asan/).
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  cmake --preset asan >/dev/null
  ninja -C build-asan -j "$(nproc)"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
     ctest --output-on-failure --timeout 900 -j "$(nproc)" -LE "full|ydoc-oracle" "$@")
fi
