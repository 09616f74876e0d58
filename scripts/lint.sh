#!/usr/bin/env bash
# The lint: clang-tidy with the committed .clang-tidy over every C++ source of the build
# (build/compile_commands.json; run scripts/build.sh first). Prints each warning and exits 1
# if there is one. Part of `scripts/test.sh full`.
#   scripts/lint.sh              every source in the compile database (ours: not _deps/)
#   scripts/lint.sh FILE...      those files
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "clang-tidy is missing: scripts/install-deps.sh test" >&2; exit 2; }
[[ -f build/compile_commands.json ]] || { echo "no build/compile_commands.json: run scripts/build.sh first" >&2; exit 2; }

files=("$@")
if ((${#files[@]} == 0)); then
  mapfile -t files < <(python3 - <<'PY'
import json, os
root = os.getcwd()
seen = set()
for entry in json.load(open("build/compile_commands.json")):
    path = os.path.relpath(os.path.join(entry["directory"], entry["file"]), root)
    if path.startswith("..") or path.startswith("build") or "/_deps/" in path or path in seen:
        continue
    seen.add(path)
    print(path)
PY
  )
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -Wno-missing-field-initializers: libgit2's *_INIT macros initialise only a struct's first
# fields (clang warns under -Wextra, GCC does not).
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p build --quiet --extra-arg=-Wno-missing-field-initializers >"$log" 2>/dev/null ||
  true
if grep -q "warning:\|error:" "$log"; then
  grep -A3 "warning:\|error:" "$log"
  echo "clang-tidy: $(grep -c 'warning:\|error:' "$log") finding(s) in ${#files[@]} files" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files, no findings"
