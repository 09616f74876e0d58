#!/usr/bin/env bash
# How-to questions against POST /lab/rag on four repositories nobody here wrote
# (docs/rag-quality.md, "How-to questions"): react-router and undici from web/node_modules
# (their Markdown guides and their JavaScript), gin and cobra from Debian's Go sources
# (code and tests, no guides). Generates and indexes them through the real docsd, asks
# bench/rag/howto.json's questions, prints top-1 and top-3 hit rates.
#   BUILD_DIR (default build): the docsd to measure (a copy of an older build gives "before")
#   BENCH_RAG_OUT (default a temporary dir): where howto.json results go
#   BENCH_RAG_PRIOR_OFF=1: ask again with rag.role_prior=false (same index)
#   Compare runs: node bench/rag/howto.mjs compare before=A.json after=B.json
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/rag/lib.sh

nm=web/node_modules
go=/usr/share/gocode/src/github.com
for dir in "$nm/react-router/docs" "$nm/undici/docs" "$go/gin-gonic/gin" "$go/spf13/cobra"; do
  [[ -d "$dir" ]] || { echo "missing $dir (scripts/npm-deps.sh; apt-get install golang-github-gin-gonic-gin-dev golang-github-spf13-cobra-dev)"; exit 1; }
done

start_cluster
start_docsd
sign_in

out="${BENCH_RAG_OUT:-$work/out}"
mkdir -p "$out"
args=()
echo "== generating and indexing through docsd =="
for corpus in react-router undici gin cobra; do
  case $corpus in
    react-router) dir="$nm/react-router"; filter=( \( -name '*.md' -o -path './dist/development/*.js' -o -path './dist/development/*.d.ts' \) ) ;;
    undici) dir="$nm/undici"; filter=( \( -name '*.md' -o -path './lib/*.js' -o -name 'index.js' -o -path './types/*.d.ts' \) ) ;;
    gin) dir="$go/gin-gonic/gin"; filter=( \( -name '*.go' -o -name '*.md' \) ) ;;
    cobra) dir="$go/spf13/cobra"; filter=( \( -name '*.go' -o -name '*.md' \) ) ;;
  esac
  zip_tree "$corpus" "$work/$corpus.zip" "$dir" "${filter[@]}"
  start=$(date +%s.%N)
  id=$(new_project "$corpus" "$work/$corpus.zip")
  wait_active "$id"
  printf '  %-13s project %s: %s files, generated and indexed in %.1f s\n' "$corpus" "$id" \
    "$(unzip -l "$work/$corpus.zip" | tail -1 | awk '{print $2}')" "$(echo "$(date +%s.%N) - $start" | bc)"
  args+=("$corpus=$id")
done
echo "  rag_chunks: $(q "SELECT string_agg(kind || ' ' || n, ', ') FROM (SELECT kind, count(*) n FROM rag_chunks GROUP BY kind) k")"

echo "== how-to questions =="
node bench/rag/howto.mjs ask "$base" "$token" "$url" "$out/howto.json" "${args[@]}"
if [[ -n "${BENCH_RAG_PRIOR_OFF:-}" ]]; then
  stop_docsd
  start_docsd DOCS_RAG_ROLE_PRIOR=false
  node bench/rag/howto.mjs ask "$base" "$token" "$url" "$out/howto-prior-off.json" "${args[@]}"
fi
echo "details: $out/howto.json"
