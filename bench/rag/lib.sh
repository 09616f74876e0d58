# Shared by bench/rag/quality.sh and bench/rag/run.sh (sourced, not run): a private
# PostgreSQL cluster, docsd with generation and rag on it, a signed-in user, and ZIP
# projects generated and indexed through the real routes.
#   BUILD_DIR (default build): where bin/docsd and plugins/*.so are.
# Sets: work, docsd, url (the database docsd uses, for psql), base, token, docsd_pid.

build="${BUILD_DIR:-build}"
docsd="$build/bin/docsd"
[[ -x "$docsd" && -f "$build/plugins/rag.so" && -f "$build/plugins/generation.so" ]] ||
  { echo "build docsd with the generation and rag plugins in $build first"; exit 1; }
for tool in psql curl zip node ctags; do command -v "$tool" >/dev/null || { echo "missing $tool"; exit 1; }; done

work="$(mktemp -d /tmp/docs-bench-rag-XXXXXX)"
chmod 755 "$work"  # as root the cluster runs as the postgres user, which must reach it
cleanup() {
  [[ -n "${docsd_pid:-}" ]] && kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  "$docsd" postgres stop --dir "$work/pg" >/dev/null 2>&1 || true
  [[ -n "${BENCH_KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT

start_cluster() {
  local admin_url
  admin_url=$("$docsd" postgres start --dir "$work/pg" 2>/dev/null | tail -1)
  psql "$admin_url" -qc "CREATE DATABASE bench"
  url="${admin_url/:\/\/\/docs/:\/\/\/bench}"
}

q() { psql "$url" -qAtc "$1"; }

start_docsd() {  # extra environment assignments may follow
  rm -f "$work/port"
  env DATABASE_URL="$url" DOCS_DATA_DIR="$work/data" DOCS_PLUGINS_DIR="$build/plugins" \
    DOCS_PLUGINS_ENABLED=auth,rbac,projects,pages,generation,rag DOCS_JOBS_POLL_MS=200 \
    DOCS_RAG_USER_REQUESTS_PER_MINUTE=0 DOCS_RAG_ADDRESS_REQUESTS_PER_MINUTE=0 \
    DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$work/port" DOCS_LOG_ACCESS=false \
    DOCS_LOG_LEVEL=warn "$@" "$docsd" serve >>"$work/docsd.log" 2>&1 &
  docsd_pid=$!
  for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
  [[ -s "$work/port" ]] || { echo "docsd did not start:"; cat "$work/docsd.log"; exit 1; }
  base="http://127.0.0.1:$(cat "$work/port")"
}

stop_docsd() {
  kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  docsd_pid=
}

# Sign in through the real one-time-code flow (the code is read from the outbox).
sign_in() {
  local email=bench@example.com code
  curl -sf -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"type\":\"sign-in\"}" \
    "$base/api/auth/email-otp/send-verification-otp" >/dev/null
  code=$(cat "$(ls -t "$work"/data/outbox/*.eml | head -1)" | grep -o 'sign-in code is [0-9]\{6\}' | tail -1 | grep -o '[0-9]\{6\}$')
  token=$(curl -sf -D - -o /dev/null -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"otp\":\"$code\"}" \
    "$base/api/auth/sign-in/email-otp" | awk 'tolower($1) == "set-auth-jwt:" {print $2}' | tr -d '\r')
  [[ -n "$token" ]] || { echo "sign-in failed"; exit 1; }
}

# zip_tree NAME ZIP DIR [find arguments...]: the files of DIR (find's filter) under NAME/.
zip_tree() {
  local name=$1 zipfile=$2 dir=$3
  shift 3
  rm -rf "$work/tree-$name" && mkdir -p "$work/tree-$name/$name"
  (cd "$dir" && find . -type f "$@" -print0 | tar --null -T - -cf -) | tar -xf - -C "$work/tree-$name/$name"
  rm -f "$zipfile"
  (cd "$work/tree-$name" && zip -qr "$zipfile" "$name")
}

# new_project NAME ZIP: creates a private ZIP project, uploads, prints its id.
new_project() {
  local id
  id=$(curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"name\":\"$1\",\"is_private\":true,\"language\":\"en\"}" "$base/api/project/zip" | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')
  curl -sf -H "Authorization: Bearer $token" -F "file=@$2;type=application/zip" \
    "$base/api/project/$id/upload-zip" >/dev/null || { echo "upload of $1 failed"; exit 1; }
  echo "$id"
}

# wait_active ID [TIMEOUT_S]: until generation succeeded and the rag index is active.
wait_active() {
  local status="" i
  for i in $(seq 1 $(( ${2:-1800} * 5 ))); do
    status=$(curl -sf -H "Authorization: Bearer $token" "$base/api/project?projectId=$1" | node -e \
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s);console.log(p.status+" "+p.rag_status)})')
    [[ "$status" == "DOC_SUCCESS active" ]] && return 0
    [[ "$status" == DOC_FAILURE* ]] && { echo "project $1 failed: $status"; tail -20 "$work/docsd.log"; exit 1; }
    sleep 0.2
  done
  echo "project $1 never became active: $status"; exit 1
}
