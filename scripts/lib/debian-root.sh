# Sourced by scripts/check-clean-root.sh and scripts/check-quickstart.sh: a fresh Debian 12
# root made with debootstrap (minbase: what a bookworm container image holds), with /proc,
# /dev and /sys mounted, and everything undone on exit. Needs root and the network.
#
# DOCS_DEBIAN_MIRROR (default http://deb.debian.org/debian): the mirror for debootstrap.
# DOCS_DEBIAN_SECURITY_MIRROR (default http://deb.debian.org/debian-security): bookworm-security.
# DOCS_CLEAN_ROOT_TEMPLATE=DIR: copy an existing debootstrap root instead of making one.
# DOCS_KEEP_CLEAN_ROOT=1: keep the root afterwards (its path is printed).
# DOCS_CLEAN_ROOT_CA="FILE...": CA certificates the root trusts besides Debian's, for a
# network whose HTTPS goes through an intercepting proxy (as the machine's own trust does).

step() { echo "== $*"; }
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

debian_root_work=""
root=""
debian_root_mounts=()

# Every process whose root directory is the clean root (what the checks started there),
# so nothing of it outlives the check or keeps a mount busy.
debian_root_stop_processes() {
  local signal="$1" proc pids=()
  for proc in /proc/[0-9]*; do
    [[ "$(readlink "$proc/root" 2>/dev/null)" == "$root" ]] && pids+=("${proc#/proc/}")
  done
  ((${#pids[@]} > 0)) && kill "-$signal" "${pids[@]}" 2>/dev/null
  return 0
}

debian_root_cleanup() {
  [[ -n "$root" ]] || return 0
  debian_root_stop_processes TERM
  for _ in $(seq 1 50); do
    local left=0 proc
    for proc in /proc/[0-9]*; do [[ "$(readlink "$proc/root" 2>/dev/null)" == "$root" ]] && left=1; done
    ((left)) || break
    sleep 0.2
  done
  debian_root_stop_processes KILL
  local i
  for ((i = ${#debian_root_mounts[@]} - 1; i >= 0; i--)); do umount -l "${debian_root_mounts[i]}" 2>/dev/null || true; done
  if [[ "${DOCS_KEEP_CLEAN_ROOT:-}" == 1 ]]; then
    echo "kept: $root"
  elif grep -q " $root/" /proc/mounts; then
    # Never delete through a bind mount (/dev, a shared cache).
    echo "left in place, still mounted: $root" >&2
  else
    rm -rf "$debian_root_work"
  fi
}

# Makes the root at $debian_root_work/root (sets $root) and mounts what programs need.
make_debian_root() {
  [[ $(id -u) -eq 0 ]] || fail "needs root (debootstrap, chroot, mounts)"
  debian_root_work="$(mktemp -d /var/tmp/docs-clean-root-XXXXXX)"
  root="$debian_root_work/root"
  trap debian_root_cleanup EXIT
  local mirror="${DOCS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  if [[ -n "${DOCS_CLEAN_ROOT_TEMPLATE:-}" ]]; then
    step "copying the Debian 12 root $DOCS_CLEAN_ROOT_TEMPLATE"
    cp -a "$DOCS_CLEAN_ROOT_TEMPLATE" "$root"
  else
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
    step "debootstrap --variant=minbase bookworm ($mirror)"
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$debian_root_work/debootstrap.log" 2>&1 ||
      {
        tail -20 "$debian_root_work/debootstrap.log"
        fail "debootstrap"
      }
  fi
  # What Debian's installer and its bookworm container image list, not only debootstrap's
  # release: the point releases' updates and the security archive (Chromium, for one, is
  # kept current only in bookworm-security; the release's own is versions older).
  local security="${DOCS_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
    "$mirror" "$mirror" "$security" >"$root/etc/apt/sources.list"
  debian_root_mount -t proc proc "$root/proc"
  debian_root_mount -t sysfs sysfs "$root/sys"
  debian_root_mount --bind /dev "$root/dev"
  debian_root_mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
  debian_root_mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # debootstrap writes no /etc/hosts (the installer or the container engine does): without
  # one, localhost does not resolve. sudo looks its host up.
  [[ -e "$root/etc/hosts" ]] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
  echo "127.0.1.1 $(hostname)" >>"$root/etc/hosts"
  # As in any chroot or container image: installed packages do not start services
  # (postgresql would start its cluster on the host's network).
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
}

# Adds DOCS_CLEAN_ROOT_CA to the root's trust (needs ca-certificates installed there).
# Node's official builds read only their own list: NODE_EXTRA_CA_CERTS names the bundle.
debian_root_trust_ca() {
  [[ -n "${DOCS_CLEAN_ROOT_CA:-}" ]] || return 0
  local file
  for file in $DOCS_CLEAN_ROOT_CA; do cp "$file" "$root/usr/local/share/ca-certificates/$(basename "${file%.crt}").crt"; done
  in_root update-ca-certificates >/dev/null
  echo "the root trusts also: $DOCS_CLEAN_ROOT_CA"
}

# mount ... TARGET, remembered for the cleanup (the target is the last argument).
debian_root_mount() {
  mount "$@"
  debian_root_mounts+=("${!#}")
}

# A command in the root as root, with a bare environment.
in_root() {
  chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# Waits for docsd's port file in the root (written once listening), then for /readyz to
# say ready; $1 is docsd's pid (its exit ends the wait), $2 the port file inside the
# root, $3 the log to show on failure, $4 the longest wait in seconds. Sets $port.
wait_ready() {
  local pid="$1" port_file="$2" log="$3" limit="$4" ready="" i
  for ((i = 0; i < limit * 5; i++)); do
    [[ -s "$root$port_file" ]] && break
    kill -0 "$pid" 2>/dev/null || {
      tail -40 "$log"
      fail "docsd exited"
    }
    sleep 0.2
  done
  port="$(cat "$root$port_file" 2>/dev/null)" || {
    tail -40 "$log"
    fail "docsd never listened"
  }
  for ((i = 0; i < 300; i++)); do
    ready="$(curl -fsS "http://127.0.0.1:$port/readyz" 2>/dev/null)" && break
    sleep 0.2
  done
  echo "/readyz: $ready"
  [[ "$ready" == *'"ready"'* ]] || {
    tail -40 "$log"
    fail "/readyz"
  }
}

# Every product plugin is on in /config.json (the example plugin is opt-in).
check_features() {
  local features
  features="$(curl -fsS "http://127.0.0.1:$port/config.json")"
  python3 - "$features" <<'EOF' || fail "a plugin did not load"
import json, sys
features = json.loads(sys.argv[1])["features"]
print("features:", " ".join(f"{k}={v}" for k, v in sorted(features.items())))
sys.exit(0 if all(v for k, v in features.items() if k != "example") else 1)
EOF
}
