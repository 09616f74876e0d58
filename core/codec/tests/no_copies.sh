#!/usr/bin/env bash
# Hex digits and the base64 alphabet are spelled once, in core/codec: a table of them
# anywhere else is a copy of docs::codec. core/ydoc and tests/ydoc are exempt (ydoc builds
# on its own, without OpenSSL or this library).
set -euo pipefail
cd "${1:-$(dirname "$0")/../../..}"
found=$(grep -rIl -i --include='*.cpp' --include='*.hpp' --include='*.h' --include='*.cc' \
          -e '"0123456789abcdef"' -e 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' \
          core plugins tests bench | grep -v -e '^core/codec/' -e '^core/ydoc/' -e '^tests/ydoc/' || true)
if [[ -n "$found" ]]; then
  echo "hex or base64 tables outside core/codec (use docs/codec/codec.hpp):"
  echo "$found"
  exit 1
fi
