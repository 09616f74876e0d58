#!/usr/bin/env bash
# Runs the README's two quick-start commands in a fresh Debian 12 root, as a new user
# would on a stock machine: a clone of this repository's HEAD, a user with sudo, and
# nothing else installed (no Node, no compiler, no PostgreSQL). Needs root and the
# network (Debian's mirror and the npm registry); run by hand, not by ctest or CI.
#
#   sudo scripts/check-quickstart.sh [run|test|both]     (default: both)
#
#   run   scripts/run.sh: installs, builds, serves; checked: /readyz is ready, / is the
#         built web app, every plugin loaded, docsd stops on SIGTERM. docsd listens on a
#         free port (DOCS_PORT=0), not 8080, so it cannot clash with the machine's.
#   test  scripts/test.sh: its exit status (the whole default tier).
#
# Only what is committed is checked (the clone is of HEAD). The logs go to
# DOCS_QUICKSTART_LOGS (default /var/tmp/docs-quickstart). DOCS_QUICKSTART_CCACHE=DIR
# starts the user with a copy of a ccache directory (e.g. the machine's own) so that the
# build is quicker; the compilers are still the root's own. The root itself:
# scripts/lib/debian-root.sh (DOCS_DEBIAN_MIRROR, DOCS_CLEAN_ROOT_TEMPLATE, DOCS_KEEP_CLEAN_ROOT,
# DOCS_CLEAN_ROOT_CA for a network that intercepts HTTPS).
set -euo pipefail
what="${1:-both}"
case "$what" in run | test | both) ;; *)
  echo "usage: check-quickstart.sh [run|test|both]" >&2
  exit 2
  ;;
esac
checkout="$(cd "$(dirname "$0")/.." && pwd)"
source "$checkout/scripts/lib/debian-root.sh"
logs="${DOCS_QUICKSTART_LOGS:-/var/tmp/docs-quickstart}"
mkdir -p "$logs"
make_debian_root

# The machine as a new user has it: sudo, a user allowed to use it, git, a clone.
step "a user with sudo, and a clone of $(git -C "$checkout" rev-parse --short HEAD)"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends sudo git ca-certificates >"$logs/apt.log" 2>&1 || {
  tail -20 "$logs/apt.log"
  fail "apt install sudo git"
}
debian_root_trust_ca
extra_env=()
[[ -n "${DOCS_CLEAN_ROOT_CA:-}" ]] && extra_env=(NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
in_root useradd --create-home --shell /bin/bash --groups sudo dev
echo "dev ALL=(ALL) NOPASSWD: ALL" >"$root/etc/sudoers.d/dev"
chmod 0440 "$root/etc/sudoers.d/dev"
git clone -q --no-local "$checkout" "$root/home/dev/docs"
chroot "$root" chown -R dev:dev /home/dev/docs
if [[ -n "${DOCS_QUICKSTART_CCACHE:-}" ]]; then
  mkdir -p "$root/home/dev/.cache"
  cp -a "$DOCS_QUICKSTART_CCACHE" "$root/home/dev/.cache/ccache"
  chroot "$root" chown -R dev:dev /home/dev/.cache
fi

# The user's login environment.
dev_env=(env -i HOME=/home/dev USER=dev LOGNAME=dev SHELL=/bin/bash LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin
  "${extra_env[@]}")
as_dev() { chroot --userspec=dev:dev "$root" "${dev_env[@]}" "$@"; }

check_run() {
  step "scripts/run.sh (log: $logs/run.log)"
  local port_file=/home/dev/docsd.port
  # A simple command in the background (not a function: that would be a subshell), so $!
  # becomes docsd: chroot, env, bash and run.sh each exec the next.
  chroot --userspec=dev:dev "$root" "${dev_env[@]}" DOCS_PORT=0 DOCS_SERVER_PORT_FILE="$port_file" DOCS_LOG_FORMAT=text \
    bash -c 'cd ~/docs && exec scripts/run.sh' >"$logs/run.log" 2>&1 &
  local pid=$!
  # Installing, building and the first start together (two cores: some ten minutes).
  wait_ready "$pid" "$port_file" "$logs/run.log" 7200
  curl -fsS "http://127.0.0.1:$port/" | cmp -s - "$root/home/dev/docs/web/dist/index.html" ||
    fail "/ is not the built web app"
  echo "/: the built web app"
  check_features
  as_dev /home/dev/docs/build/bin/docsd --version
  kill -TERM "$pid"
  local status=0
  wait "$pid" || status=$?
  [[ $status -eq 0 ]] || {
    tail -20 "$logs/run.log"
    fail "docsd exited $status"
  }
  echo "docsd stopped (exit 0)"
}

check_test() {
  step "scripts/test.sh (log: $logs/test.log)"
  local status=0
  as_dev bash -c 'cd ~/docs && exec scripts/test.sh' >"$logs/test.log" 2>&1 || status=$?
  grep -E "tests passed|tests failed|^FAILED|Total Test time" "$logs/test.log" | tail -5 || true
  [[ $status -eq 0 ]] || {
    tail -40 "$logs/test.log"
    fail "scripts/test.sh exited $status"
  }
}

[[ "$what" == test ]] || check_run
[[ "$what" == run ]] || check_test
echo "PASSED: the README's quick start ($what) in a clean Debian 12 root (logs: $logs)"
