#!/usr/bin/env bash
# Retrieval quality of the rag plugin on real code nobody here wrote, against plain
# PostgreSQL full-text search over the same chunks (docs/rag-quality.md). Generates and
# indexes four ZIP projects through the real docsd, then runs bench/rag/quality.mjs.
#   BUILD_DIR (default build), BENCH_RAG_SAMPLE (300 queries per corpus and set),
#   BENCH_RAG_SEED (12), BENCH_RAG_OUT (where quality.json goes; default a temporary dir)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/rag/lib.sh

start_cluster
start_docsd
sign_in

py=/usr/lib/python3/dist-packages
std=/usr/lib/python3.11
nm=web/node_modules
[[ -d "$nm/lib0" ]] || { echo "run scripts/npm-deps.sh first (web/node_modules)"; exit 1; }
mkdir -p "$work/src/python-libs" "$work/src/python-stdlib" "$work/src/npm" "$work/src/docs-platform"
for p in oauthlib pyparsing jwt httplib2 yaml cryptography wheel; do cp -r "$py/$p" "$work/src/python-libs/"; done
for p in email http json logging urllib asyncio concurrent importlib xml unittest; do cp -r "$std/$p" "$work/src/python-stdlib/"; done
cp -r "$nm/lib0" "$nm/yjs/src" "$work/src/npm/" && mv "$work/src/npm/src" "$work/src/npm/yjs"
for p in prosemirror-model prosemirror-state prosemirror-transform prosemirror-view; do cp -r "$nm/$p/src" "$work/src/npm/$p"; done
cp -r core plugins "$work/src/docs-platform/"

args=()
echo "== generating and indexing through docsd =="
for corpus in python-libs python-stdlib npm docs-platform; do
  case $corpus in
    python-*) filter=(-name '*.py') ;;
    npm) filter=( \( -name '*.js' -o -name '*.ts' \) ! -name '*.d.ts' ! -name '*.test.js' ! -path '*/dist/*' ! -path '*/node_modules/*' ) ;;
    docs-platform) filter=( \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) ) ;;
  esac
  zip_tree "$corpus" "$work/$corpus.zip" "$work/src/$corpus" "${filter[@]}"
  start=$(date +%s.%N)
  id=$(new_project "$corpus" "$work/$corpus.zip")
  wait_active "$id"
  printf '  %-14s project %s: %s files, generated and indexed in %.1f s\n' "$corpus" "$id" \
    "$(unzip -l "$work/$corpus.zip" | tail -1 | awk '{print $2}')" "$(echo "$(date +%s.%N) - $start" | bc)"
  args+=("$corpus=$id")
done

echo "== retrieval: ${BENCH_RAG_SAMPLE:-300} queries per corpus and set, seed ${BENCH_RAG_SEED:-12} =="
out="${BENCH_RAG_OUT:-$work/out}"
node bench/rag/quality.mjs "$base" "$token" "$url" "$work/data" "$out" "${args[@]}"
echo "details: $out/quality.json"
