#!/usr/bin/env bash
# Builds the Dockerfile from this repository's HEAD and checks the image as docs/deployment.md
# describes it: /readyz is ready, / is the installed web app, every plugin loaded, the
# HEALTHCHECK passes, a project created through the API survives a restart on the same
# volume, and stopping the container stops docsd and its PostgreSQL cleanly (exit 0).
# Needs Docker or Podman and the network; run by hand, not by ctest or CI.
#
#   scripts/check-docker.sh
#
# DOCS_DOCKER: the engine (default: docker, else podman). The build log goes to
# DOCS_DOCKER_LOGS (default /var/tmp/docs-check-docker). DOCS_DOCKER_IMAGE=NAME checks an
# image built before instead of building one. DOCS_DOCKER_BUILD_FLAGS: more `build` flags
# (e.g. --pull=never with base images made locally). DOCS_DOCKER_CA="FILE...": certificates
# the build stage trusts besides Debian's, for a network that intercepts HTTPS (the
# Dockerfile's DOCS_BUILD_CA; the image does not get them).
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
engine="${DOCS_DOCKER:-$(command -v docker >/dev/null && echo docker || echo podman)}"
command -v "$engine" >/dev/null || {
  echo "FAILED: neither docker nor podman is installed" >&2
  exit 1
}
step() { echo "== $*"; }
fail() {
  echo "FAILED: $*" >&2
  [[ -n "${name:-}" ]] && "$engine" logs --tail 40 "$name" >&2 2>&1
  exit 1
}

work="$(mktemp -d "${TMPDIR:-/tmp}/docs-check-docker-XXXXXX")"
logs="${DOCS_DOCKER_LOGS:-/var/tmp/docs-check-docker}"
mkdir -p "$logs"
name="docsd-check-$$"
volume="docsd-check-$$"
cleanup() {
  "$engine" rm -f "$name" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

image="${DOCS_DOCKER_IMAGE:-}"
if [[ -z "$image" ]]; then
  # Only what is committed is checked: the context is an export of HEAD.
  commit="$(git -C "$checkout" rev-parse --short=12 HEAD)"
  image="docsd:check-$commit"
  git -C "$checkout" archive HEAD | tar -x -C "$work"
  build_args=(--build-arg "DOCS_COMMIT=$commit")
  # Podman builds OCI images by default, which have no HEALTHCHECK: the Docker format keeps it.
  [[ "$engine" == podman ]] && build_args+=(--format docker)
  if [[ -n "${DOCS_DOCKER_CA:-}" ]]; then
    # shellcheck disable=SC2086 # a list of files
    build_args+=(--build-arg "DOCS_BUILD_CA=$(cat $DOCS_DOCKER_CA)")
  fi
  step "$engine build $commit (log: $logs/build.log)"
  started=$SECONDS
  # shellcheck disable=SC2086 # flags as given
  "$engine" build ${DOCS_DOCKER_BUILD_FLAGS:-} "${build_args[@]}" -t "$image" "$work" >"$logs/build.log" 2>&1 || {
    tail -30 "$logs/build.log"
    fail "$engine build"
  }
  echo "built $image in $((SECONDS - started)) s"
fi
size="$("$engine" image inspect --format '{{.Size}}' "$image")"
echo "image size: $((size / 1000000)) MB"
"$engine" run --rm "$image" --version

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"

# Waits until /readyz says ready while the container runs (the first start runs initdb).
wait_ready() {
  local ready="" i
  for ((i = 0; i < 600; i++)); do
    [[ "$("$engine" inspect --format '{{.State.Running}}' "$name")" == true ]] || fail "the container exited"
    ready="$(curl -fsS "$base/readyz" 2>/dev/null)" && [[ "$ready" == *'"ready"'* ]] && break
    sleep 0.5
  done
  echo "/readyz: $ready"
  [[ "$ready" == *'"ready"'* ]] || fail "/readyz"
}

# Stops the container; docsd must exit 0 after stopping its PostgreSQL.
stop_cleanly() {
  "$engine" stop -t 60 "$name" >/dev/null
  local code
  code="$("$engine" inspect --format '{{.State.ExitCode}}' "$name")"
  [[ "$code" == 0 ]] || fail "docsd exited $code on stop"
  "$engine" logs "$name" 2>&1 | tail -5 | grep -q "embedded PostgreSQL stopped" ||
    fail "the log does not say the embedded PostgreSQL stopped"
  echo "stopped: exit 0, embedded PostgreSQL stopped"
}

step "$engine run (port $port, volume $volume)"
"$engine" run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$volume:/var/lib/docsd" "$image" >/dev/null
wait_ready
curl -fsS "$base/" | cmp -s - <("$engine" exec "$name" cat /usr/share/docsd/web/index.html) ||
  fail "/ is not the installed web app"
echo "/: the installed web app"
python3 - "$(curl -fsS "$base/config.json")" <<'EOF' || fail "a plugin did not load"
import json, sys
features = json.loads(sys.argv[1])["features"]
print("features:", " ".join(f"{k}={v}" for k, v in sorted(features.items())))
sys.exit(0 if all(v for k, v in features.items() if k != "example") else 1)
EOF

step "HEALTHCHECK"
if [[ "$engine" == podman ]]; then
  podman healthcheck run "$name" || fail "podman healthcheck run"
  echo "healthcheck: healthy"
else
  # Docker runs it every 30 s: the first result comes within one interval.
  for ((i = 0; i < 90; i++)); do
    health="$(docker inspect --format '{{.State.Health.Status}}' "$name")"
    [[ "$health" == starting ]] || break
    sleep 1
  done
  echo "health: $health"
  [[ "$health" == healthy ]] || fail "HEALTHCHECK: $health"
fi

step "a project through the API (signed in with a code from the outbox)"
email=check@example.com
curl -fsS -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"type\":\"sign-in\"}" \
  "$base/api/auth/email-otp/send-verification-otp" >/dev/null
code=""
for ((i = 0; i < 60; i++)); do
  code="$("$engine" exec "$name" sh -c 'cat /var/lib/docsd/outbox/*.eml 2>/dev/null' |
    sed -n 's/.*Your sign-in code is \([0-9]\{6\}\).*/\1/p' | tail -1)"
  [[ -n "$code" ]] && break
  sleep 0.5
done
[[ -n "$code" ]] || fail "no sign-in code in the outbox"
jwt="$(curl -fsS -D - -o /dev/null -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"otp\":\"$code\"}" \
  "$base/api/auth/sign-in/email-otp" | sed -n 's/^set-auth-jwt: *\([^[:space:]]*\).*/\1/Ip')"
[[ -n "$jwt" ]] || fail "sign-in gave no JWT"
project="$(curl -fsS -H "Authorization: Bearer $jwt" -H 'Content-Type: application/json' \
  -d '{"name":"Survives a restart","is_private":false}' "$base/api/project")"
id="$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["id"])' "$project")"
echo "project $id created"

step "stop, start on the same volume"
stop_cleanly
"$engine" start "$name" >/dev/null
wait_ready
curl -fsS "$base/api/project?projectId=$id" | grep -q '"Survives a restart"' || fail "project $id is gone after the restart"
echo "project $id is still there"
stop_cleanly
echo "PASSED: the Docker image ($image, $engine)"
