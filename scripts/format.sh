#!/usr/bin/env bash
# Formats C++ sources with clang-format and the committed .clang-format.
#   scripts/format.sh                 formats the C++ files changed since the merge base with main
#                                     (committed, staged, unstaged and untracked)
#   scripts/format.sh FILE...         formats those files
#   scripts/format.sh --all           formats every tracked C++ file
#   scripts/format.sh --check [...]   changes nothing: lists the files (same choice as above) whose
#                                     format differs and exits 1 if there is one
# DOCS_FORMAT_BASE names another base than main (e.g. origin/main).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is missing: scripts/install-deps.sh test" >&2; exit 2; }

check=false
all=false
files=()
for arg in "$@"; do
  case "$arg" in
    --check) check=true ;;
    --all) all=true ;;
    -*) echo "usage: scripts/format.sh [--check] [--all | FILE...]" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done

is_cpp() { [[ "$1" =~ \.(cpp|hpp|h|cc)$ ]]; }

if $all; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc')
elif ((${#files[@]} == 0)); then
  base_ref="${DOCS_FORMAT_BASE:-main}"
  base=$(git merge-base HEAD "$base_ref")
  mapfile -t files < <({ git diff --name-only --diff-filter=d "$base"; git ls-files --others --exclude-standard; } | sort -u)
fi

differ=0
for file in "${files[@]}"; do
  is_cpp "$file" && [[ -f "$file" ]] || continue
  if $check; then
    if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
      echo "$file"
      differ=1
    fi
  else
    clang-format -i "$file"
  fi
done
exit "$differ"
