#!/usr/bin/env bash
# The rag index at scale (docs/benchmarks.md, "RAG"): by hand, full tier, not in CI.
#  1. Real indexing: Debian's Python (/usr/lib/python3.11 and /usr/lib/python3/dist-packages,
#     *.py) as a ZIP project through the real docsd: generation, then the rag index job;
#     the times to DOC_SUCCESS and to rag_status active.
#  2. Growth by SQL: the project's rag_chunks rows copied under renamed paths
#     (copy-N/<path>) into the same project up to 100,000 and 1,000,000 rows (this is
#     duplication, not indexing: timed and reported as such), with the indexes dropped
#     first and then built again (CREATE INDEX timed: the index build at that size).
#  3. At each size: POST /lab/rag latency (top 20 code + top 20 docs) for identifier and
#     sentence questions against the peer, plain websearch_to_tsquery + ts_rank over the
#     same rows and index (bench/rag/latency.mjs); docsd peak RSS; database size.
#   BUILD_DIR (default build), BENCH_RAG_SIZES (default "100000 1000000"), BENCH_RAG_QUERIES (100)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/rag/lib.sh

start_cluster
start_docsd
sign_in

echo "== 1. real indexing through docsd =="
mkdir -p "$work/src/python/stdlib" "$work/src/python/dist-packages"
cp -r /usr/lib/python3.11/. "$work/src/python/stdlib/"
cp -r /usr/lib/python3/dist-packages/. "$work/src/python/dist-packages/"
zip_tree python "$work/python.zip" "$work/src/python" -name '*.py'
files=$(unzip -l "$work/python.zip" | tail -1 | awk '{print $2}')
start=$(date +%s.%N)
id=$(new_project python "$work/python.zip")
generated=""
for _ in $(seq 1 18000); do
  status=$(curl -sf -H "Authorization: Bearer $token" "$base/api/project?projectId=$id" | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s);console.log(p.status+" "+p.rag_status)})')
  [[ -z "$generated" && "$status" == DOC_SUCCESS* ]] && generated=$(date +%s.%N)
  [[ "$status" == "DOC_SUCCESS active" ]] && break
  [[ "$status" == DOC_FAILURE* ]] && { echo "generation failed"; tail -20 "$work/docsd.log"; exit 1; }
  sleep 0.2
done
[[ "$status" == "DOC_SUCCESS active" ]] || { echo "never active: $status"; exit 1; }
done_at=$(date +%s.%N)
code=$(q "SELECT count(*) FROM rag_chunks WHERE project_id = $id AND kind = 'code'")
docs=$(q "SELECT count(*) FROM rag_chunks WHERE project_id = $id AND kind = 'docs'")
real=$((code + docs))
printf 'files=%s code_chunks=%s docs_chunks=%s upload_to_doc_success=%.1fs doc_success_to_rag_active=%.1fs (%.0f chunks/s) docsd_peak_rss=%s MiB\n' \
  "$files" "$code" "$docs" "$(echo "$generated - $start" | bc)" "$(echo "$done_at - $generated" | bc)" \
  "$(echo "$real / ($done_at - $generated)" | bc -l)" "$(( $(awk '/VmHWM/ {print $2}' /proc/$docsd_pid/status) / 1024 ))"
analysis="$work/data/generation/$id/analysis.json"
BENCH_RAG_QUERIES="${BENCH_RAG_QUERIES:-100}" node bench/rag/latency.mjs "$base" "$token" "$url" "$analysis" "$id" "real-$real"

columns="project_id, kind, path, start_line, end_line, symbol, symbol_kind, language, page_id, title, content, names, search"
indexes=(
  "rag_chunks_search|CREATE INDEX rag_chunks_search ON rag_chunks USING gin (search)"
  "rag_chunks_names|CREATE INDEX rag_chunks_names ON rag_chunks USING gin (names gin_trgm_ops)"
  "rag_chunks_file|CREATE INDEX rag_chunks_file ON rag_chunks (project_id, kind, path)"
  "rag_chunks_page|CREATE INDEX rag_chunks_page ON rag_chunks (page_id) WHERE kind = 'docs'"
)
timed() {  # SQL: prints seconds
  local s
  s=$(date +%s.%N)
  q "$1" >/dev/null
  printf '%.1f' "$(echo "$(date +%s.%N) - $s" | bc)"
}
copy=0
last_real=$(q "SELECT max(id) FROM rag_chunks")
for size in ${BENCH_RAG_SIZES:-100000 1000000}; do
  echo "== rows: $size =="
  for index in "${indexes[@]}"; do q "DROP INDEX ${index%%|*}"; done
  s=$(date +%s.%N)
  while (( $(q "SELECT count(*) FROM rag_chunks") < size )); do
    copy=$((copy + 1))
    missing=$(( size - $(q "SELECT count(*) FROM rag_chunks") ))
    q "INSERT INTO rag_chunks ($columns) SELECT project_id, kind, CASE WHEN path = '' THEN '' ELSE 'copy-$copy/' || path END,
       start_line, end_line, symbol, symbol_kind, language, page_id, title, content, names, search
       FROM rag_chunks WHERE id <= $last_real ORDER BY id LIMIT $missing" >/dev/null
  done
  printf 'sql_duplication rows=%s copies=%s seconds=%.1f (no indexes in place)\n' "$(q "SELECT count(*) FROM rag_chunks")" "$copy" \
    "$(echo "$(date +%s.%N) - $s" | bc)"
  line="index_build"
  for index in "${indexes[@]}"; do line+=" ${index%%|*}=$(timed "${index#*|}")s"; done
  line+=" analyze=$(timed "VACUUM ANALYZE rag_chunks")s"
  echo "$line"
  echo "db_size=$(q "SELECT pg_size_pretty(pg_database_size(current_database()))")" \
    "rag_chunks_total=$(q "SELECT pg_size_pretty(pg_total_relation_size('rag_chunks'))")" \
    "search_gin=$(q "SELECT pg_size_pretty(pg_relation_size('rag_chunks_search'))")" \
    "names_trgm=$(q "SELECT pg_size_pretty(pg_relation_size('rag_chunks_names'))")"
  sign_in  # a fresh token for each round (they last 15 minutes)
  BENCH_RAG_QUERIES="${BENCH_RAG_QUERIES:-100}" node bench/rag/latency.mjs "$base" "$token" "$url" "$analysis" "$id" "rows-$size" explain
  echo "docsd_peak_rss=$(( $(awk '/VmHWM/ {print $2}' /proc/$docsd_pid/status) / 1024 )) MiB docsd_rss_now=$(( $(awk '/VmRSS/ {print $2}' /proc/$docsd_pid/status) / 1024 )) MiB"
done

# BENCH_RAG_HOLD=1: keep the cluster and docsd running for manual queries (psql "$url")
# until the file it names is deleted.
if [[ -n "${BENCH_RAG_HOLD:-}" ]]; then
  hold="$work/hold"
  touch "$hold"
  echo "holding: psql '$url'; base $base; project $id; rm $hold to stop"
  while [[ -e "$hold" ]]; do sleep 2; done
fi
