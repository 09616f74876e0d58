#!/usr/bin/env bash
# Runs the benchmarks and prints their results. Usage: bench/run.sh [http|ws|ydoc|collab|compression|generation|history|rag|github|all]
#   http  requests/s and p99 of a small JSON route, docsd vs nginx serving the same JSON
#         as a static file, with wrk at 1, 64 and 256 connections (same run, same machine)
#   ws    memory per idle WebSocket (10,000 connections) and threads held
#   ydoc  core/ydoc against yjs on the editing traces (bench/ydoc)
#   compression  bytes on the wire and time to interactive in Chromium on a slow-4G link,
#         compression off and on, and docsd's CPU per compressed answer (bench/compression)
#   collab  collaboration fan-out, docsd vs @hocuspocus/server 3 (bench/collab)
#   generation  offline `docsd generate` time and peak memory at about 100, 1,000 and 10,000
#         files of Debian's packaged sources, and again after one file changed (bench/generation)
#   history  a page with 100,000 logged updates: listing its history and rebuilding any
#         version through docsd, against replaying the whole log (bench/history)
#   rag   the rag index at 100k and 1M chunks: build time, /lab/rag p50/p95 against plain
#         websearch_to_tsquery, RSS, DB size (bench/rag/run.sh), then retrieval quality
#         (bench/rag/quality.sh) and the how-to questions (bench/rag/howto.sh). Full tier, by
#         hand: about 50 minutes; not part of `all`, not in CI.
#   github  a one-file push to a 1,000-file repository (webhook -> sync) against the full run:
#         time and pages rewritten (bench/github/run.sh). Full tier, by hand: about 5 minutes;
#         not part of `all`, not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
scripts/install-deps.sh full
scripts/npm-deps.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset dev -DDOCS_BUILD_BENCH=ON >/dev/null
ninja -C build product ws_idle collab_load history_bench >/dev/null
ulimit -n 65536 2>/dev/null || true

work="$(mktemp -d /tmp/docs-bench-XXXXXX)"
chmod 755 "$work"  # as root the embedded cluster runs as the postgres user, which must reach it
cleanup() {
  [[ -n "${docsd_pid:-}" ]] && kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  [[ -f "$work/nginx.pid" ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

start_docsd() {
  # The rows use the example plugin's routes and WebSocket: it is opt-in, so name it.
  DOCS_PLUGINS_ENABLED=all,example DOCS_DATA_DIR="$work/data" DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$work/port" \
    DOCS_LOG_ACCESS=false DOCS_LOG_LEVEL=warn DOCS_SERVER_MAX_WEBSOCKETS_PER_ADDRESS=0 \
    build/bin/docsd serve >"$work/docsd.log" 2>&1 &
  docsd_pid=$!
  for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
  [[ -s "$work/port" ]] || { echo "docsd did not start:"; cat "$work/docsd.log"; exit 1; }
  docsd_port=$(cat "$work/port")
}

wrk_row() {  # name url connections
  local out rps p99
  local threads=2; (( $3 < 2 )) && threads=1
  out=$(wrk -t "$threads" -c "$3" -d "${BENCH_SECONDS:-10}s" --latency "$2")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$1 $3 $rps $p99"
}

if [[ "$what" == http || "$what" == all ]]; then
  start_docsd
  body=$(curl -s "http://127.0.0.1:$docsd_port/api/example/hello")
  mkdir -p "$work/www"
  printf '%s' "$body" > "$work/www/hello.json"
  cat > "$work/nginx.conf" <<NGINX
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  server {
    listen 127.0.0.1:18099;
    root $work/www;
    location / { default_type application/json; }
  }
}
NGINX
  nginx -c "$work/nginx.conf"
  sleep 0.5
  echo "== HTTP: GET a small JSON document (wrk -t2, ${BENCH_SECONDS:-10}s per row) =="
  echo "server connections requests_per_s p99"
  for c in 1 64 256; do
    wrk_row docsd "http://127.0.0.1:$docsd_port/api/example/hello" "$c"
    wrk_row nginx "http://127.0.0.1:18099/hello.json" "$c"
  done
  kill "$(cat "$work/nginx.pid")"; rm -f "$work/nginx.pid"
fi

if [[ "$what" == ws || "$what" == all ]]; then
  [[ -n "${docsd_pid:-}" ]] || start_docsd
  echo "== WebSocket: idle connections =="
  build/bin/ws_idle "$docsd_port" "$docsd_pid" "${BENCH_WS_COUNT:-10000}"
fi

if [[ "$what" == collab || "$what" == all ]]; then
  bench/collab/run.sh
fi

if [[ "$what" == ydoc || "$what" == all ]]; then
  if [[ -x bench/ydoc/run.sh ]]; then bench/ydoc/run.sh; else echo "bench/ydoc not present"; fi
fi

if [[ "$what" == compression || "$what" == all ]]; then
  scripts/build-web.sh
  node bench/compression/run.mjs
fi

if [[ "$what" == generation || "$what" == all ]]; then
  bench/generation/run.sh
fi

if [[ "$what" == history || "$what" == all ]]; then
  bench/history/run.sh
fi

if [[ "$what" == rag ]]; then
  bench/rag/run.sh
  bench/rag/quality.sh
  bench/rag/howto.sh
fi

if [[ "$what" == github ]]; then
  bench/github/run.sh
fi
