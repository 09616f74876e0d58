#!/usr/bin/env bash
# Collaboration fan-out: docsd against @hocuspocus/server 3 in the same run, same load
# (build/bin/collab_load), same machine. Usage: bench/collab/run.sh  (after bench/run.sh
# has built the tools; bench/run.sh collab does both).
#   BENCH_SECONDS   length of each measured row (default 10)
#   BENCH_MEMORY_ROOMS  documents held open for the memory row (default 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${BENCH_SECONDS:-10}"
memory_rooms="${BENCH_MEMORY_ROOMS:-2000}"
(cd bench/collab && [[ -d node_modules ]] || npm ci --no-audit --no-fund --loglevel=error >/dev/null)
work="$(mktemp -d /tmp/docs-collab-bench-XXXXXX)"
chmod 755 "$work"
cleanup() {
  [[ -n "${docsd_pid:-}" ]] && kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  [[ -n "${peer_pid:-}" ]] && kill "$peer_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# PostgreSQL's processes together (docsd's database work happens there).
db_ticks() { local t=0 p; for p in $(pgrep -x postgres); do t=$(( t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0) )); done; echo "$t"; }

# docsd with the embedded PostgreSQL; one user, one project, enough pages for every room.
DOCS_DATA_DIR="$work/data" DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$work/port" \
  DOCS_LOG_ACCESS=false DOCS_LOG_LEVEL=warn DOCS_COLLAB_MAX_CONNECTIONS_PER_USER=100000 \
  DOCS_SERVER_MAX_WEBSOCKETS_PER_ADDRESS=0 \
  DOCS_COLLAB_MESSAGES_PER_SECOND=100000 DOCS_COLLAB_MESSAGE_BURST=100000 \
  build/bin/docsd serve >"$work/docsd.log" 2>&1 &
docsd_pid=$!
for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || { cat "$work/docsd.log"; exit 1; }
port=$(cat "$work/port")
api="http://127.0.0.1:$port"
curl -sf -X POST "$api/api/auth/email-otp/send-verification-otp" -H 'Content-Type: application/json' \
  -d '{"email":"bench@example.com","type":"sign-in"}' >/dev/null
code=$(grep -ho 'sign-in code is [0-9]*' "$work"/data/outbox/*.eml | tail -1 | grep -o '[0-9]*$')
token=$(curl -s -D - -o /dev/null -X POST "$api/api/auth/sign-in/email-otp" -H 'Content-Type: application/json' \
  -d "{\"email\":\"bench@example.com\",\"otp\":\"$code\"}" | awk -F': ' 'tolower($1)=="set-auth-jwt" {print $2}' | tr -d '\r')
project=$(curl -sf -X POST "$api/api/project" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"name":"bench","is_private":true}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
make_rooms() {  # count file: one page per room, created through the REST API
  python3 - "$api" "$token" "$project" "$1" > "$2" <<'PY'
import json, sys, urllib.request
api, token, project, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
for _ in range(count):
    request = urllib.request.Request(f"{api}/api/project/{project}/page", data=b'{"parent_page_id":0}', method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        print(f"{project}__{json.load(answer)['id']}")
PY
}
make_rooms 10 "$work/rooms10"
make_rooms "$memory_rooms" "$work/rooms_memory"
head -1 "$work/rooms10" > "$work/rooms1"

node bench/collab/hocuspocus_server.cjs 18111 > "$work/peer.log" 2>&1 &
peer_pid=$!
for _ in $(seq 1 100); do grep -q listening "$work/peer.log" && break; sleep 0.1; done

failed_rows=0
row() {  # label server-pid port rooms editors rate window
  local t0 out t1 d0 d1 status=0
  t0=$(cpu_ticks "$2")
  d0=$(db_ticks)
  # A row that fails keeps its output (the load tool's JSON names what went wrong) and
  # the other rows still run; the script fails at the end.
  out=$(build/bin/collab_load --port "$3" --rooms-file "$4" --editors "$5" --rate "$6" --window "$7" \
        --seconds "$seconds" --token "$token" --warm-updates 3 2>&1) || status=$?
  if ((status != 0)); then
    out="$out collab_load_exit=$status"
    failed_rows=$((failed_rows + 1))
    [[ $1 == docsd ]] && { echo "-- docsd's log, last lines:"; tail -20 "$work/docsd.log"; } >&2
  fi
  t1=$(cpu_ticks "$2")
  d1=$(db_ticks)
  local hz
  hz=$(getconf CLK_TCK)
  echo "$1 $(basename "$4") editors=$5 rate=$6 window=$7 server_cpu_s=$(awk -v t=$(( t1 - t0 )) -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}')" \
    "db_cpu_s=$(awk -v t=$(( d1 - d0 )) -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}') $out"
}

echo "== Collaboration: one-char updates, fan-out to every editor of the room (${seconds}s per row) =="
for server in docsd hocuspocus; do
  if [[ $server == docsd ]]; then pid=$docsd_pid; p=$port; else pid=$peer_pid; p=18111; fi
  row "$server" "$pid" "$p" "$work/rooms1" 10 0 1
  row "$server" "$pid" "$p" "$work/rooms1" 10 0 8
  row "$server" "$pid" "$p" "$work/rooms10" 10 0 1
  row "$server" "$pid" "$p" "$work/rooms10" 10 0 8
  row "$server" "$pid" "$p" "$work/rooms10" 10 5 1
done

echo "== Memory per open document ($memory_rooms rooms, 1 editor, 200 updates each) =="
for server in docsd hocuspocus; do
  if [[ $server == docsd ]]; then pid=$docsd_pid; p=$port; else pid=$peer_pid; p=18111; fi
  before=$(rss_kib "$pid")
  build/bin/collab_load --port "$p" --rooms-file "$work/rooms_memory" --editors 1 --rate 1 --seconds 3 \
    --token "$token" --warm-updates 200 > /dev/null &
  load_pid=$!
  sleep 0.5
  while kill -0 "$load_pid" 2>/dev/null; do after=$(rss_kib "$pid"); sleep 0.2; done
  echo "$server rss_before_kib=$before rss_with_${memory_rooms}_open_docs_kib=$after" \
    "per_doc_kib=$(awk -v a="$after" -v b="$before" -v n="$memory_rooms" 'BEGIN {printf "%.1f", (a - b) / n}')"
done
if ((failed_rows > 0)); then
  echo "$failed_rows row(s) failed: see collab_load_exit above" >&2
  exit 1
fi
