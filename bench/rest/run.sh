#!/usr/bin/env bash
# The REST core under load: GET /api/projects for a user with 1,000 projects and
# GET /api/project?projectId= for a project with 10,000 pages. For each: wrk latency
# (p50/p99) and throughput, the statements one request runs (pg_stat_statements), and the
# same plugin SQL run alone by pgbench against the same database (the floor).
#   BUILD_DIR (default build), BENCH_SECONDS (default 10), BENCH_CONNECTIONS ("1 16")
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${BUILD_DIR:-build}"
seconds="${BENCH_SECONDS:-10}"
connections="${BENCH_CONNECTIONS:-1 16}"
docsd="$build/bin/docsd"
[[ -x "$docsd" && -f "$build/plugins/projects.so" && -f "$build/plugins/auth.so" ]] ||
  { echo "build docsd and the auth, rbac, projects, pages plugins in $build first"; exit 1; }
for tool in wrk pgbench psql curl; do command -v "$tool" >/dev/null || { echo "missing $tool"; exit 1; }; done

work="$(mktemp -d /tmp/docs-bench-rest-XXXXXX)"
chmod 755 "$work"  # as root the cluster runs as the postgres user, which must reach it
cleanup() {
  [[ -n "${docsd_pid:-}" ]] && kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  "$docsd" postgres stop --dir "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# A private cluster with pg_stat_statements, so statements per request can be counted.
"$docsd" postgres start --dir "$work/pg" >/dev/null 2>&1
echo "shared_preload_libraries = 'pg_stat_statements'" >> "$work/pg/data/postgresql.conf"
"$docsd" postgres stop --dir "$work/pg" >/dev/null 2>&1
admin_url=$("$docsd" postgres start --dir "$work/pg" 2>/dev/null | tail -1)
psql "$admin_url" -qc "CREATE DATABASE bench"
url="${admin_url/:\/\/\/docs/:\/\/\/bench}"
psql "$url" -qc "CREATE EXTENSION pg_stat_statements"
q() { psql "$url" -qAtc "$1"; }

DATABASE_URL="$url" DOCS_DATA_DIR="$work/data" DOCS_PLUGINS_ENABLED=auth,rbac,projects,pages \
  DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$work/port" DOCS_LOG_ACCESS=false \
  DOCS_PROJECTS_MAX_PER_USER=0 DOCS_SERVER_MAX_CONNECTIONS_PER_ADDRESS=0 \
  DOCS_LOG_LEVEL=warn "$docsd" serve >"$work/docsd.log" 2>&1 &
docsd_pid=$!
for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || { echo "docsd did not start:"; cat "$work/docsd.log"; exit 1; }
base="http://127.0.0.1:$(cat "$work/port")"

# Sign in through the real one-time-code flow (the code is read from the outbox).
email=bench@example.com
curl -sf -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"type\":\"sign-in\"}" \
  "$base/api/auth/email-otp/send-verification-otp" >/dev/null
code=$(cat "$work"/data/outbox/*.eml | grep -o 'sign-in code is [0-9]\{6\}' | tail -1 | grep -o '[0-9]\{6\}$')
token=$(curl -sf -D - -o /dev/null -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"otp\":\"$code\"}" \
  "$base/api/auth/sign-in/email-otp" | awk 'tolower($1) == "set-auth-jwt:" {print $2}' | tr -d '\r')
[[ -n "$token" ]] || { echo "sign-in failed"; exit 1; }
auth=(-H "Authorization: Bearer $token")

# 1,000 projects through the API (each is created READY with one page), spread over
# statuses so the sort has work to do; one of them then gets 10,000 pages.
echo "seeding 1,000 projects and a 10,000-page project ..."
for i in $(seq 1 1000); do
  curl -sf "${auth[@]}" -H 'Content-Type: application/json' -d "{\"name\":\"Project $i\"}" "$base/api/project" >/dev/null
done
q "UPDATE projects SET status = (ARRAY['READY','DOC_SUCCESS','DOC_UPDATING','CLONING','DOC_FAILURE','DOC_FILE_PAGES_FAILED'])[1 + id % 6]" >/dev/null
big=$(q "SELECT id FROM projects ORDER BY id LIMIT 1")
q "INSERT INTO pages (project_id, parent_id, name, position) SELECT $big, NULL, 'Root ' || g, g + 1 FROM generate_series(1, 100) g" >/dev/null
q "INSERT INTO pages (project_id, parent_id, name, position) SELECT $big, r.id, 'Child ' || g, g FROM pages r, generate_series(1, 99) g
   WHERE r.project_id = $big AND r.name LIKE 'Root %'" >/dev/null
q "ANALYZE" >/dev/null
user_id=$(q "SELECT DISTINCT user_id FROM rbac_grants")
echo "projects: $(curl -sf "${auth[@]}" "$base/api/projects" | grep -o '"id":' | wc -l) listed;" \
     "pages of project $big: $(curl -sf "${auth[@]}" "$base/api/project?projectId=$big" | grep -o '"parent_id"' | wc -l)"

list_path="/api/projects"
project_path="/api/project?projectId=$big"

# The plugin SQL of each route, as the code sends it, with this run's values in place.
ids=$(q "SELECT '{' || string_agg(project_id::text, ',') || '}' FROM rbac_grants WHERE user_id = $user_id")
columns="id, type, name, description, language, git_url, git_repository_id, github_node_id, installation_id, status, visibility, commit_hash, default_page_id, upload_path, created_at AT TIME ZONE 'UTC' AS created_at, updated_at AT TIME ZONE 'UTC' AS updated_at"
page_columns="id, project_id, parent_id, name, type, position, created_at AT TIME ZONE 'UTC' AS created_at, updated_at AT TIME ZONE 'UTC' AS updated_at"
cat > "$work/list.sql" <<SQL
WITH claimed AS (UPDATE rbac_grants SET user_id = $user_id, updated_at = now() WHERE $user_id::bigint IS NOT NULL AND user_id IS NULL AND user_email = '$email') SELECT project_id, role FROM rbac_grants WHERE user_id = $user_id OR (user_id IS NULL AND user_email = '$email');
SELECT $columns FROM projects WHERE id = ANY('$ids'::bigint[]);
SQL
cat > "$work/project.sql" <<SQL
SELECT $columns FROM projects WHERE id = $big;
SELECT max(CASE role WHEN 'admin' THEN 3 WHEN 'write' THEN 2 ELSE 1 END) AS rank FROM rbac_grants WHERE project_id = $big AND (user_id = $user_id OR (user_id IS NULL AND user_email = '$email'));
SELECT $page_columns FROM pages WHERE project_id = $big ORDER BY parent_id NULLS FIRST, position, id;
SQL

statements_per_request() {  # path
  q "SELECT pg_stat_statements_reset()" >/dev/null
  for _ in $(seq 1 100); do curl -sf "${auth[@]}" -o /dev/null "$base$1"; done
  q "SELECT round(sum(calls) / 100.0, 2) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = 'bench' AND s.query NOT ILIKE '%pg_stat_statements%'"
  q "SELECT '    ' || round(calls / 100.0, 2) || ' x ' || left(regexp_replace(query, '\s+', ' ', 'g'), 110)
     FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = 'bench' AND s.query NOT ILIKE '%pg_stat_statements%' ORDER BY calls DESC"
}

wrk_row() {  # label path connections
  local threads=2 out
  (( $3 < 2 )) && threads=1
  out=$(wrk -t "$threads" -c "$3" -d "${seconds}s" --latency -H "Authorization: Bearer $token" "$base$2")
  printf '%-8s %-7s c=%-3s %10s req/s  p50 %-9s p99 %s\n' "$1" docsd "$3" "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1 == "50%" {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")"
}

pgbench_row() {  # label script connections
  rm -f "$work"/pgb*
  local out
  out=$(cd "$work" && pgbench -n -M simple -c "$3" -j "$(( $3 < 2 ? 1 : 2 ))" -T "$seconds" -l --log-prefix=pgb -f "$2" "$url" 2>&1) ||
    { echo "pgbench failed: $out"; return 1; }
  local tps p50 p99
  tps=$(awk '/^tps/ {print $3; exit}' <<<"$out")
  read -r p50 p99 < <(cat "$work"/pgb* | awk '{print $3}' | sort -n | awk '{a[NR] = $1} END {printf "%.2fms %.2fms\n", a[int(NR * 0.5)] / 1000, a[int(NR * 0.99)] / 1000}')
  printf '%-8s %-7s c=%-3s %10s tx/s   p50 %-9s p99 %s\n' "$1" pgbench "$3" "$(printf '%.2f' "$tps")" "$p50" "$p99"
}

echo "== statements per request (pg_stat_statements, 100 requests each) =="
echo "GET $list_path: $(statements_per_request "$list_path")"
echo "GET /api/project?projectId= (10,000 pages): $(statements_per_request "$project_path")"
echo "== latency and throughput (wrk ${seconds}s per row; pgbench runs the route's plugin SQL, one transaction per request) =="
for c in $connections; do
  wrk_row list "$list_path" "$c"
  pgbench_row list "$work/list.sql" "$c"
  wrk_row project "$project_path" "$c"
  pgbench_row project "$work/project.sql" "$c"
done
echo "response sizes: list $(curl -sf "${auth[@]}" "$base$list_path" | wc -c) bytes, project $(curl -sf "${auth[@]}" "$base$project_path" | wc -c) bytes"
