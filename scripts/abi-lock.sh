#!/usr/bin/env bash
# The plugin ABI guard. `check` fails when core/include/docs/** changed but kPluginAbi was
# not bumped (the hash no longer matches core/abi.lock); `update` records the current
# headers after you have bumped DOCS_PLUGIN_ABI in core/include/docs/abi.hpp.
set -euo pipefail
cd "$(dirname "$0")/.."
abi=$(sed -n 's/^#define DOCS_PLUGIN_ABI \([0-9]*\)$/\1/p' core/include/docs/abi.hpp)
hash=$(find core/include/docs -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
case "${1:-check}" in
  update)
    if [[ -f core/abi.lock ]]; then
      old_abi=$(sed -n 's/^abi=//p' core/abi.lock)
      old_hash=$(sed -n 's/^headers=//p' core/abi.lock)
      if [[ "$old_hash" != "$hash" && "$old_abi" == "$abi" ]]; then
        echo "headers changed: bump DOCS_PLUGIN_ABI in core/include/docs/abi.hpp first (now $abi)"; exit 1
      fi
    fi
    printf 'abi=%s\nheaders=%s\n' "$abi" "$hash" > core/abi.lock
    echo "core/abi.lock: abi $abi" ;;
  check)
    locked_abi=$(sed -n 's/^abi=//p' core/abi.lock)
    locked_hash=$(sed -n 's/^headers=//p' core/abi.lock)
    if [[ "$locked_hash" != "$hash" ]]; then
      if [[ "$locked_abi" == "$abi" ]]; then
        echo "FAIL: the plugin headers changed but DOCS_PLUGIN_ABI is still $abi."
        echo "Bump it in core/include/docs/abi.hpp, then run scripts/abi-lock.sh update."
      else
        echo "FAIL: DOCS_PLUGIN_ABI is $abi but core/abi.lock records $locked_abi: run scripts/abi-lock.sh update."
      fi
      exit 1
    fi
    [[ "$locked_abi" == "$abi" ]] || { echo "FAIL: abi.lock says $locked_abi, header says $abi"; exit 1; }
    echo "plugin ABI $abi, headers unchanged" ;;
  *) echo "usage: scripts/abi-lock.sh check|update"; exit 2 ;;
esac
