#!/usr/bin/env bash
# Installs a docsd package into a fresh Debian 12 root and checks that it serves: the
# package's declared dependencies are all it gets (apt resolves them from the mirror),
# docsd runs as the package's docsd user the way docsd.service runs it, /readyz is ready,
# / is the web app and every plugin loaded; then docsd behind the nginx block of
# docs/deployment.md; then, with systemd-nspawn, the root is booted and docsd.service
# started by systemd. Needs root and the network; not a ctest test.
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

# docs/deployment.md's nginx block as written (ports, names and a self-signed certificate
# put in; nginx 1.22's `listen ... http2`) in front of docsd with server.public_url and
# server.trusted_proxies set: plain HTTP is redirected, TLS serves /readyz with HSTS,
# /collaboration upgrades to a WebSocket through the proxy, and docsd logs the client's
# address (127.0.0.2), not the proxy's. DOCS_CHECK_PROXY=0 skips it.
check_behind_nginx() {
  step "behind nginx (docs/deployment.md's block)"
  in_root apt-get install -y -q --no-install-recommends nginx-light openssl curl >"$work/apt-nginx.log" 2>&1 || {
    tail -30 "$work/apt-nginx.log"
    fail "apt install nginx-light"
  }
  in_root openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=docs.example.test \
    -keyout /etc/ssl/docs.key -out /etc/ssl/docs.crt 2>/dev/null
  local http_port tls_port docsd_port
  read -r http_port tls_port docsd_port <<<"$(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')"
  python3 -c '
import re, sys
doc, out, http_port, tls_port, docsd_port = sys.argv[1:]
conf = re.search(r"```nginx\n(.*?)```", open(doc).read(), re.S).group(1)
for old, new in [("listen 80;", f"listen {http_port};"), ("listen [::]:80;", ""),
                 ("listen 443 ssl;", f"listen {tls_port} ssl http2;"), ("listen [::]:443 ssl;", ""),
                 ("http2 on;", ""),
                 ("/etc/letsencrypt/live/docs.example.com/fullchain.pem", "/etc/ssl/docs.crt"),
                 ("/etc/letsencrypt/live/docs.example.com/privkey.pem", "/etc/ssl/docs.key"),
                 ("docs.example.com", "docs.example.test"), ("127.0.0.1:8080", f"127.0.0.1:{docsd_port}")]:
    assert old in conf, old
    conf = conf.replace(old, new)
open(out, "w").write(conf)
' "$(dirname "$0")/../docs/deployment.md" "$root/etc/nginx/sites-enabled/docs" "$http_port" "$tls_port" "$docsd_port" ||
    fail "the nginx block of docs/deployment.md is not as expected"
  rm -f "$root/etc/nginx/sites-enabled/default"
  in_root nginx -t 2>&1 | tail -1
  local port_file=/var/lib/docsd/port
  rm -f "$root$port_file"
  chroot --userspec=docsd:docsd "$root" env -i PATH=/usr/bin:/bin HOME=/var/lib/docsd DOCS_DATA_DIR=/var/lib/docsd \
    DOCS_PORT="$docsd_port" DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$port_file" DOCS_LOG_FORMAT=text \
    DOCS_SERVER_PUBLIC_URL=https://docs.example.test DOCS_SERVER_TRUSTED_PROXIES=127.0.0.1 \
    /usr/bin/docsd serve >"$work/proxied.log" 2>&1 &
  local pid=$!
  wait_ready "$pid" "$port_file" "$work/proxied.log" 300
  in_root nginx
  local tls=(--resolve "docs.example.test:$tls_port:127.0.0.1" --cacert "$root/etc/ssl/docs.crt" --interface 127.0.0.2)
  local redirect headers upgrade
  redirect="$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' \
    --resolve "docs.example.test:$http_port:127.0.0.1" "http://docs.example.test:$http_port/projects")"
  [[ "$redirect" == "301 https://docs.example.test/projects" ]] || fail "http is not redirected: $redirect"
  headers="$(curl -sS "${tls[@]}" -D - -o /dev/null "https://docs.example.test:$tls_port/readyz")"
  grep -qi "^strict-transport-security:" <<<"$headers" || fail "no HSTS over TLS"
  # curl hangs up after the 101 (-m): only the answer to the upgrade matters here.
  upgrade="$(curl -sS "${tls[@]}" --http1.1 -m 5 -o /dev/null -w '%{http_code}' \
    -H "Connection: Upgrade" -H "Upgrade: websocket" -H "Sec-WebSocket-Version: 13" \
    -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" -H "Origin: https://docs.example.test" \
    "https://docs.example.test:$tls_port/collaboration" 2>/dev/null || true)"
  [[ "$upgrade" == 101 ]] || fail "/collaboration did not upgrade through nginx: $upgrade"
  in_root nginx -s stop || true
  kill -TERM "$pid"
  wait "$pid" || fail "docsd behind nginx did not stop cleanly"
  grep -q '"path":"/collaboration","remote":"127.0.0.2"' "$work/proxied.log" ||
    fail "docsd did not see the client's address through the trusted proxy"
  echo "http -> https, TLS with HSTS, /collaboration upgraded (101), the client's address seen by docsd"
}

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

if [[ "${DOCS_CHECK_PROXY:-1}" == 1 ]]; then check_behind_nginx; fi
if [[ "${DOCS_CHECK_SYSTEMD:-1}" == 1 ]]; then check_under_systemd; fi
echo "PASSED: $(basename "$deb") installs into a clean Debian 12 root and serves"
