#!/usr/bin/env bash
# A one-file push to a 1,000-file repository against a full run, through the real docsd:
# a bare repository of real code nobody here wrote (Python 3.11's standard library plus
# Pygments, as Debian ships them) served by tests/support/git_http_server.py; the project
# is created with POST /api/project/github and generated in full (REQUEST_TO_CLONE ->
# DOC_SUCCESS); then one docstring is edited, the commit pushed and a signed `push` webhook
# delivered, and the sync is timed (DOC_UPDATING -> DOC_SUCCESS) with the pages it rewrote
# against the project's pages. All times come from GET /api/project/{id}/generation.
# Each round uses a fresh copy of the repository (a repository has one project per
# deployment). Then, to show where the sync's time goes: git fetch, ctags alone over the
# tree, and `docsd generate` (analysis and writer, no database) over the same tree.
#   BUILD_DIR (default build), BENCH_ROUNDS (default 3)
# Usage: bench/github/run.sh, or bench/run.sh github. By hand (full tier), not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
build="${BUILD_DIR:-build}"
rounds="${BENCH_ROUNDS:-3}"
docsd="$build/bin/docsd"
[[ -x "$docsd" && -f "$build/plugins/generation.so" && -f "$build/plugins/github.so" ]] ||
  { echo "build docsd and its plugins (generation, github) in $build first"; exit 1; }
for tool in git python3 curl jq openssl ctags; do command -v "$tool" >/dev/null || { echo "missing $tool"; exit 1; }; done

work="$(mktemp -d /tmp/docs-bench-github-XXXXXX)"
chmod 755 "$work"  # as root the cluster runs as the postgres user, which must reach it
cleanup() {
  [[ -n "${docsd_pid:-}" ]] && kill "$docsd_pid" 2>/dev/null && wait "$docsd_pid" 2>/dev/null || true
  [[ -n "${git_pid:-}" ]] && kill "$git_pid" 2>/dev/null && wait "$git_pid" 2>/dev/null || true
  "$docsd" postgres stop --dir "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=Bench \
  GIT_COMMITTER_EMAIL=bench@example.com GIT_CONFIG_NOSYSTEM=1 HOME="$work"
secret="bench-webhook-secret"

# The tree: every .py file of /usr/lib/python3.11 (no site-packages, no byte code) and of
# Pygments, about 1,000 files.
tree="$work/tree"
mkdir -p "$tree/cpython-lib" "$tree/pygments"
(cd /usr/lib/python3.11 && find . -name '*.py' -not -path './site-packages/*' -not -path './dist-packages/*' \
   -not -path '*/__pycache__/*' -not -path './config-*' -print0 | tar --null -T - -cf -) | tar -xf - -C "$tree/cpython-lib"
(cd /usr/lib/python3/dist-packages/pygments && find . -name '*.py' -not -path '*/__pycache__/*' -print0 |
   tar --null -T - -cf -) | tar -xf - -C "$tree/pygments"
printf '# stdlib-slice\n\nPython 3.11 standard library and Pygments, as Debian ships them.\n' > "$tree/README.md"
files=$(find "$tree" -type f | wc -l)
lines=$(find "$tree" -type f -name '*.py' -print0 | xargs -0 cat | wc -l)
changed_file="cpython-lib/textwrap.py"   # its module docstring gets one more sentence

mkdir -p "$work/git/acme"
git init -q --initial-branch=main "$tree"
git -C "$tree" add -A && git -C "$tree" commit -qm "initial" && first=$(git -C "$tree" rev-parse HEAD)

python3 tests/support/git_http_server.py --root "$work/git" --port-file "$work/gitport" 2>"$work/git.log" &
git_pid=$!
for _ in $(seq 1 100); do [[ -s "$work/gitport" ]] && break; sleep 0.05; done
git_url="http://127.0.0.1:$(cat "$work/gitport")"

admin_url=$("$docsd" postgres start --dir "$work/pg" 2>/dev/null | tail -1)
DATABASE_URL="$admin_url" DOCS_DATA_DIR="$work/data" DOCS_PLUGINS_ENABLED=auth,rbac,projects,pages,generation,github \
  DOCS_JOBS_POLL_MS=200 DOCS_GITHUB_URL="$git_url" DOCS_GITHUB_WEBHOOK_SECRET="$secret" \
  DOCS_GENERATION_RECONCILE_SECONDS=0 DOCS_PORT=0 DOCS_SERVER_HOST=127.0.0.1 DOCS_SERVER_PORT_FILE="$work/port" \
  DOCS_LOG_ACCESS=false DOCS_LOG_LEVEL=info "$docsd" serve >"$work/docsd.log" 2>&1 &
docsd_pid=$!
for _ in $(seq 1 600); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || { echo "docsd did not start:"; cat "$work/docsd.log"; exit 1; }
base="http://127.0.0.1:$(cat "$work/port")"

email=bench@example.com
curl -sf -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"type\":\"sign-in\"}" \
  "$base/api/auth/email-otp/send-verification-otp" >/dev/null
code=$(cat "$work"/data/outbox/*.eml | grep -o 'sign-in code is [0-9]\{6\}' | tail -1 | grep -o '[0-9]\{6\}$')
token=$(curl -sf -D - -o /dev/null -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"otp\":\"$code\"}" \
  "$base/api/auth/sign-in/email-otp" | awk 'tolower($1) == "set-auth-jwt:" {print $2}' | tr -d '\r')
[[ -n "$token" ]] || { echo "sign-in failed"; exit 1; }
auth=(-H "Authorization: Bearer $token" -H 'Content-Type: application/json')

project() { curl -sf "${auth[@]}" "$base/api/project?projectId=$1"; }
history() { curl -sf "${auth[@]}" "$base/api/project/$1/generation"; }
wait_for() {  # id jq-condition
  for _ in $(seq 1 3000); do
    project "$1" | jq -e "$2" >/dev/null && return 0
    project "$1" | jq -e '.status | test("FAIL")' >/dev/null && { echo "failed: $(history "$1" | jq -c '.history[-1]')"; exit 1; }
    sleep 0.1
  done
  echo "waited in vain for project $1"; exit 1
}
# Seconds between two ISO timestamps of the history (millisecond resolution).
seconds_between() { python3 -c 'import sys, datetime as d; f = lambda s: d.datetime.fromisoformat(s.replace("Z", "+00:00")); print("%.2f" % (f(sys.argv[2]) - f(sys.argv[1])).total_seconds())' "$1" "$2"; }
now_iso() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
# CPU seconds docsd used so far, its own and its reaped children's (ctags, git): a figure
# the machine's other load does not inflate the way it inflates wall time.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f %.2f\n", ($14 + $15) / hz, ($16 + $17) / hz}' "/proc/$docsd_pid/stat"; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
echo "== GitHub sync: one-file push vs full run ($files files, $lines lines of Python; $rounds rounds) =="
printf '%-6s %7s %7s %9s %9s %11s %11s %9s %6s %s\n' round full_s sync_s hook_to_s sync/full full_cpu_s sync_cpu_s rewritten pages history_message
sum_full=0; sum_sync=0
for round in $(seq 1 "$rounds"); do
  repo="stdlib-$round"
  git clone -q --bare "$tree" "$work/git/acme/$repo"
  read -r own0 kids0 < <(cpu_seconds)
  created=$(curl -sf "${auth[@]}" -d "{\"repo_owner\":\"acme\",\"repo_name\":\"$repo\",\"name\":\"$repo\",\"language\":\"en\",\"is_private\":false}" \
    "$base/api/project/github")
  id=$(jq -r .id <<<"$created")
  [[ $round == 1 ]] && first_id=$id
  wait_for "$id" '.status == "DOC_SUCCESS"'
  read -r own1 kids1 < <(cpu_seconds)
  h=$(history "$id")
  full=$(seconds_between "$(jq -r '[.history[] | select(.status == "REQUEST_TO_CLONE")][0].at' <<<"$h")" \
                         "$(jq -r '[.history[] | select(.status == "DOC_SUCCESS")][0].at' <<<"$h")")
  [[ $round == 1 ]] && { echo "full run stages (round 1):"; jq -r '.history[] | "  \(.at) \(.status) \(.message)"' <<<"$h"; }

  # One docstring edited, pushed, and the push announced.
  clone="$work/clone-$repo"
  git clone -q "$work/git/acme/$repo" "$clone"
  sed -i '0,/"""/s//"""Edited by the benchmark. /' "$clone/$changed_file"
  git -C "$clone" commit -qam "textwrap: docstring" && git -C "$clone" push -q origin main
  after=$(git -C "$clone" rev-parse HEAD)
  body=$(jq -cn --arg after "$after" --arg repo "acme/$repo" \
    '{ref: "refs/heads/main", before: "'"$first"'", after: $after, repository: {full_name: $repo, default_branch: "main"}}')
  signature="sha256=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$secret" | awk '{print $NF}')"
  read -r own2 kids2 < <(cpu_seconds)
  hook_at=$(now_iso)
  answer=$(curl -sf -H 'Content-Type: application/json' -H 'X-GitHub-Event: push' -H "X-GitHub-Delivery: bench-$round-$$" \
    -H "X-Hub-Signature-256: $signature" --data-binary "$body" "$base/api/github/webhook")
  [[ $(jq -r .status <<<"$answer") == queued ]] || { echo "webhook not queued: $answer"; exit 1; }
  wait_for "$id" ".status == \"DOC_SUCCESS\" and .commit_hash == \"$after\""
  read -r own3 kids3 < <(cpu_seconds)
  full_cpu=$(python3 -c "print('%.1f+%.1f' % ($own1 - $own0, $kids1 - $kids0))")
  sync_cpu=$(python3 -c "print('%.1f+%.1f' % ($own3 - $own2, $kids3 - $kids2))")
  h=$(history "$id")
  updating=$(jq -r '[.history[] | select(.status == "DOC_UPDATING")][-1].at' <<<"$h")
  done_at=$(jq -r '.history[-1].at' <<<"$h")
  message=$(jq -r '.history[-1].message' <<<"$h")
  sync=$(seconds_between "$updating" "$done_at")
  hook_to=$(seconds_between "$hook_at" "$done_at")
  pages=$(project "$id" | jq '.pages | length')
  rewritten=$(grep -o '[0-9]* pages rewritten' <<<"$message" | grep -o '^[0-9]*')
  ratio=$(python3 -c "print('%.1f%%' % (100 * $sync / $full))")
  printf '%-6s %7s %7s %9s %9s %11s %11s %9s %6s %s\n' "$round" "$full" "$sync" "$hook_to" "$ratio" "$full_cpu" "$sync_cpu" "$rewritten" "$pages" "${message/$after/${after:0:12}}"
  sum_full=$(python3 -c "print($sum_full + $full)"); sum_sync=$(python3 -c "print($sum_sync + $sync)")
done
python3 -c "f, s = $sum_full / $rounds, $sum_sync / $rounds; print('mean: full %.2f s, sync %.2f s, sync/full %.1f %% (goal: under 5 %%)' % (f, s, 100 * s / f))"

# One more push to round 1's project, profiled (not in the figures above): perf samples
# every process on the machine while the sync runs, so the CPU of docsd, ctags and
# PostgreSQL can be told apart, and within docsd the parts of syncOnce.
if [[ "${BENCH_PERF:-1}" == 1 ]] && command -v perf >/dev/null; then
  clone="$work/clone-stdlib-1"
  sed -i '0,/"""/s//"""Profiled. /' "$clone/$changed_file"
  git -C "$clone" commit -qam "textwrap: docstring again" && git -C "$clone" push -q origin main
  after=$(git -C "$clone" rev-parse HEAD)
  id=$first_id
  body=$(jq -cn --arg after "$after" '{ref: "refs/heads/main", after: $after, repository: {full_name: "acme/stdlib-1", default_branch: "main"}}')
  signature="sha256=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$secret" | awk '{print $NF}')"
  read -r own2 kids2 < <(cpu_seconds)
  perf record -g -F 999 -p "$docsd_pid" -o "$work/perf.data" >/dev/null 2>&1 &
  perf_pid=$!
  sleep 1
  curl -sf -H 'Content-Type: application/json' -H 'X-GitHub-Event: push' -H "X-GitHub-Delivery: bench-perf-$$" \
    -H "X-Hub-Signature-256: $signature" --data-binary "$body" "$base/api/github/webhook" >/dev/null
  wait_for "$id" ".status == \"DOC_SUCCESS\" and .commit_hash == \"$after\""
  kill -INT "$perf_pid"; wait "$perf_pid" || true
  read -r own3 kids3 < <(cpu_seconds)
  h=$(history "$id")
  echo "== profiled sync of round 1's project: $(seconds_between "$(jq -r '[.history[] | select(.status == "DOC_UPDATING")][-1].at' <<<"$h")" \
    "$(jq -r '.history[-1].at' <<<"$h")") s wall, docsd CPU $(python3 -c "print('%.1f s own + %.1f s children' % ($own3 - $own2, $kids3 - $kids2))") =="
  echo "-- docsd's CPU by function, self time, top 12 (perf -g -p docsd, 999 Hz; std::regex: mostly the analysis' parsers) --"
  perf report -i "$work/perf.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null |
    grep -E '^ +[0-9.]+%' | sed -E 's/\(.*$//' | cut -c1-140 | head -12 || true  # head closes the pipe early
fi

# Where a sync's time goes, step by step outside the server (same tree, same machine).
echo "== the sync's steps alone =="
step() {  # label command...
  local start end
  start=$(date +%s.%N); "${@:2}" >/dev/null 2>&1; end=$(date +%s.%N)
  python3 -c "print('%-44s %6.2f s' % ('$1', $end - $start))"
}
git clone -q "$git_url/acme/stdlib-1" "$work/fetch"
git -C "$work/fetch" reset -q --hard "$first"
step "git fetch of the one-file commit" git -C "$work/fetch" fetch -q origin
mapfile -t code < <(cd "$tree" && find . -name '*.py' | sort)
ctags_all() {  # as the analysis runs it: batches of 200 files
  local i
  for ((i = 0; i < ${#code[@]}; i += 200)); do
    (cd "$tree" && ctags --output-format=json --fields=+nKSse --sort=no --extras=-F --kinds-C=+p --kinds-C++=+p -f - \
      "${code[@]:i:200}" >/dev/null)
  done
}
step "ctags over the whole tree (${#code[@]} files)" ctags_all
step "ctags over the one changed file" bash -c "cd '$tree' && ctags --output-format=json --fields=+nKSse --sort=no -f - ./$changed_file"
step "docsd generate (inventory..writer, no DB)" "$docsd" generate "$tree" --out "$work/offline"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sync steps (ms), from docsd's log:"
grep '"synced"' "$work/docsd.log" | sed 's/^/  /' || true
echo "docsd warnings and errors: $(grep -ciE '"level":"(warn|error)"' "$work/docsd.log" || true)"
