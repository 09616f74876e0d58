#!/usr/bin/env bash
# Installs a docsd package into a fresh Debian 12 root and checks that it serves: the
# package's declared dependencies are all it gets (apt resolves them from the mirror),
# docsd runs as the package's docsd user the way docsd.service runs it, /readyz is ready,
# / is the web app and every plugin loaded; then, with systemd-nspawn, the root is booted
# and docsd.service started by systemd. Needs root and the network; not a ctest test.
#
#   sudo scripts/check-clean-root.sh build-package/docsd_0.1.0_amd64.deb
#
# The root: scripts/lib/debian-root.sh (DOCS_DEBIAN_MIRROR, DOCS_CLEAN_ROOT_TEMPLATE,
# DOCS_KEEP_CLEAN_ROOT).
set -euo pipefail
deb="${1:?usage: check-clean-root.sh DOCSD_DEB}"
deb="$(realpath "$deb")"
source "$(dirname "$0")/lib/debian-root.sh"
make_debian_root
work="$debian_root_work"

# The root booted with systemd (systemd-nspawn, its own network): the unit as installed
# starts at boot (enabled by the package), `systemctl start` returns once docsd said
# READY=1, /readyz answers, the first start's initdb and migrations run inside the
# hardening, and `systemctl stop` ends it cleanly. Skipped when systemd-nspawn is missing
# (Debian: systemd-container) or DOCS_CHECK_SYSTEMD=0.
check_under_systemd() {
  if ! command -v systemd-nspawn >/dev/null; then
    echo "(no systemd-nspawn: the unit was not started under systemd)"
    return 0
  fi
  step "docsd.service under systemd (systemd-nspawn --boot)"
  # systemd, and curl for the check; the cluster made above goes, so the unit's first
  # start makes its own.
  in_root apt-get install -y -q --no-install-recommends systemd systemd-sysv dbus curl >"$work/apt-systemd.log" 2>&1 || {
    tail -30 "$work/apt-systemd.log"
    fail "apt install systemd"
  }
  rm -rf "$root/var/lib/docsd/pg" "$root/var/lib/docsd/port"
  # Installed again now that systemctl is there, as on a machine with systemd: purged
  # first (the data directory and the user stay), so it is a first install that enables it.
  in_root apt-get purge -y -q docsd >>"$work/apt-systemd.log" 2>&1 || fail "apt purge docsd"
  [[ -d "$root/var/lib/docsd" ]] && in_root getent passwd docsd >/dev/null || fail "the purge took the data or the user"
  in_root apt-get install -y -q "/tmp/$(basename "$deb")" >>"$work/apt-systemd.log" 2>&1 || {
    tail -30 "$work/apt-systemd.log"
    fail "apt install again"
  }
  cat >"$root/usr/local/sbin/docsd-check" <<'CHECK'
#!/bin/sh
# Runs once at boot in the booted root, writes what it saw and powers off.
{
  systemctl is-enabled docsd.service
  systemctl start docsd.service && echo "start: ok"
  systemctl show docsd.service -p Type -p ActiveState -p SubState -p NRestarts -p StatusText -p User
  echo "readyz: $(curl -fsS http://127.0.0.1:8080/readyz)"
  echo "pg owner: $(stat -c %U /var/lib/docsd/pg/data)"
  systemd-analyze security docsd.service --no-pager | tail -1
  systemctl stop docsd.service && echo "stop: ok"
  systemctl show docsd.service -p ActiveState -p Result
  journalctl -u docsd.service --no-pager -o cat | tail -n 40
} >/docsd-check.out 2>&1
systemctl poweroff
CHECK
  chmod 755 "$root/usr/local/sbin/docsd-check"
  cat >"$root/etc/systemd/system/docsd-check.service" <<'UNIT'
[Unit]
Description=docsd package check
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/docsd-check
[Install]
WantedBy=multi-user.target
UNIT
  in_root systemctl enable docsd-check.service >/dev/null 2>&1
  # nspawn mounts what it needs itself.
  local i
  for ((i = ${#debian_root_mounts[@]} - 1; i >= 0; i--)); do umount -l "${debian_root_mounts[i]}" 2>/dev/null || true; done
  debian_root_mounts=()
  # nspawn refuses a /run that is no tmpfs (as in some containers): give it one of its own.
  local nspawn_run=""
  if [[ "$(stat -f -c %T /run 2>/dev/null)" != tmpfs ]] && ! mountpoint -q /run/systemd/nspawn; then
    mkdir -p /run/systemd/nspawn
    mount -t tmpfs tmpfs /run/systemd/nspawn
    nspawn_run=/run/systemd/nspawn
  fi
  local status=0
  timeout 900 systemd-nspawn --quiet --boot --directory="$root" --register=no --keep-unit --private-network \
    >"$work/boot.log" 2>&1 || status=$?
  [[ -n "$nspawn_run" ]] && umount "$nspawn_run"
  cat "$root/docsd-check.out" 2>/dev/null || {
    tail -30 "$work/boot.log"
    fail "the booted root wrote no result (systemd-nspawn exited $status)"
  }
  grep -q "^enabled" "$root/docsd-check.out" || fail "the package did not enable docsd.service"
  grep -q "^start: ok" "$root/docsd-check.out" || fail "systemctl start docsd"
  grep -q '^readyz: .*"ready"' "$root/docsd-check.out" || fail "/readyz under systemd"
  grep -q "^pg owner: docsd" "$root/docsd-check.out" || fail "the unit's embedded cluster"
  grep -q "^stop: ok" "$root/docsd-check.out" || fail "systemctl stop docsd"
  grep -q "^Result=success" "$root/docsd-check.out" || fail "docsd.service did not stop cleanly"
  grep -q "did not stop cleanly" "$root/docsd-check.out" && fail "the embedded PostgreSQL did not stop cleanly"
  echo "docsd.service: started (READY=1), ready, stopped cleanly"
}

step "apt install ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root apt-get install -y -q "/tmp/$(basename "$deb")" >"$work/apt.log" 2>&1 || {
  tail -30 "$work/apt.log"
  fail "apt install"
}
grep -E "^(Setting up|Unpacking) docsd" "$work/apt.log" || true

step "what the package set up"
in_root getent passwd docsd || fail "no docsd user"
owner="$(in_root stat -c '%U %a' /var/lib/docsd)" # names from the root's own passwd
[[ "$owner" == "docsd 700" ]] || fail "/var/lib/docsd: $owner"
for path in usr/bin/docsd usr/share/docsd/web/index.html lib/systemd/system/docsd.service etc/docsd/docsd.env; do
  [[ -e "$root/$path" || -e "$root/usr/$path" ]] || fail "missing /$path"
done
grep -q "^ExecStart=/usr/bin/docsd serve" "$root/lib/systemd/system/docsd.service" || fail "the unit's ExecStart"
in_root /usr/bin/docsd --version
plugins="$(chroot --userspec=docsd:docsd "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/docsd \
  DOCS_DATA_DIR=/var/lib/docsd /usr/bin/docsd plugins)"
echo "$plugins" | grep -E "^plugins in|^  [a-z]"
grep -q "NOT LOADABLE" <<<"$plugins" && fail "a plugin does not load"

step "docsd generate (the offline writer; Universal Ctags from the package's dependencies)"
mkdir -p "$root/var/lib/docsd/sample/src"
printf '# sample\n\nA tiny tool that greets.\n' >"$root/var/lib/docsd/sample/README.md"
printf 'def greet(name):\n    """Says hello."""\n    return "hello " + name\n' >"$root/var/lib/docsd/sample/src/greet.py"
chroot "$root" chown -R docsd:docsd /var/lib/docsd/sample
chroot --userspec=docsd:docsd "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/docsd DOCS_DATA_DIR=/var/lib/docsd \
  /usr/bin/docsd generate /var/lib/docsd/sample --out /var/lib/docsd/sample-docs --allow-local-sources \
  >"$work/generate.log" 2>&1 || {
  tail -20 "$work/generate.log"
  fail "docsd generate"
}
tail -1 "$work/generate.log"
grep -rq "greet" "$root/var/lib/docsd/sample-docs/files" || fail "no file page names greet()"
rm -rf "$root/var/lib/docsd/sample" "$root/var/lib/docsd/sample-docs"

step "docsd serve as the docsd user (the unit's command line and environment)"
port_file=/var/lib/docsd/port
rm -f "$root$port_file"
# A simple command in the background: $! is docsd itself (chroot and env exec it).
chroot --userspec=docsd:docsd "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/docsd DOCS_DATA_DIR=/var/lib/docsd \
  DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$port_file" DOCS_LOG_FORMAT=text \
  /usr/bin/docsd serve >"$work/docsd.log" 2>&1 &
pid=$!
wait_ready "$pid" "$port_file" "$work/docsd.log" 300
curl -fsS "http://127.0.0.1:$port/" | cmp -s - "$root/usr/share/docsd/web/index.html" || fail "/ is not the installed web app"
echo "/: the installed web app"
check_features
[[ "$(in_root stat -c %U /var/lib/docsd/pg/data)" == docsd ]] || fail "the embedded cluster's owner"
echo "embedded PostgreSQL $(cat "$root/var/lib/docsd/pg/data/PG_VERSION"), owned by docsd"

step "SIGTERM"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[[ $status -eq 0 ]] || {
  tail -20 "$work/docsd.log"
  fail "docsd exited $status"
}
echo "docsd stopped (exit 0)"

if [[ "${DOCS_CHECK_SYSTEMD:-1}" == 1 ]]; then check_under_systemd; fi
echo "PASSED: $(basename "$deb") installs into a clean Debian 12 root and serves"
