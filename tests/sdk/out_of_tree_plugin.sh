#!/usr/bin/env bash
# Installs the SDK to a scratch prefix, builds plugins/example against it the way a
# third-party author would, runs its unit tests in the SDK's fake host
# (docs::plugin_testing), and checks that docsd loads the result.
set -euo pipefail
source_dir="$1"
build_dir="$2"
work="$(mktemp -d /tmp/docs-sdk-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$source_dir/plugins/example" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  "${launcher[@]}" >/dev/null
ninja -C "$work/build" >/dev/null
plugin="$(find "$work/build" -name example.so | head -1)"
[[ -n "$plugin" ]] || { echo "example.so was not built"; exit 1; }
# Its unit tests, linked to the installed docs::plugin_testing: example.so with no docsd.
unit="$(ctest --test-dir "$work/build" --output-on-failure -j1)" || { echo "$unit"; exit 1; }
grep "100% tests passed, 0 tests failed out of [1-9]" <<<"$unit" || { echo "$unit"; exit 1; }
mkdir -p "$work/plugins"
cp "$plugin" "$work/plugins/"
# The example plugin is opt-in: plugins.enabled=all (the default) leaves it out.
output="$(DOCS_PLUGINS_DIR="$work/plugins" "$work/prefix/bin/docsd" plugins)"
echo "$output"
grep -q "example 1.0.0: opt-in" <<<"$output"
output="$(DOCS_PLUGINS_DIR="$work/plugins" DOCS_PLUGINS_ENABLED=all,example "$work/prefix/bin/docsd" plugins)"
echo "$output"
grep -q "example 1.0.0: enabled" <<<"$output"
grep -q "start order: example" <<<"$output"
# Its command runs through the installed docsd.
greeting="$(DOCS_PLUGINS_DIR="$work/plugins" DOCS_PLUGINS_ENABLED=all,example "$work/prefix/bin/docsd" example-greet SDK)"
echo "$greeting"
[[ "$greeting" == "hello, SDK" ]]
