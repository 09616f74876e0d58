#!/usr/bin/env bash
# The core knows no feature: nothing under core/src names a plugin, its configuration, its
# addresses or its paths (plugins declare them: Registry::clientEndpoint, clientSetting,
# apiPrefix, configKey). And plugins reach each other's services only through ServiceRef
# (Registry::require/use), never by a lookup per call. Run by ctest as core_knows_no_feature.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
status=0

# A plugin's name as a string, its /config.json keys, its config keys and its paths.
features=$(grep -rnI -E \
             -e '"(auth|rag|collab|generation|github|pages|projects|rbac|comments|mcp)"' \
             -e '(auth|rag|collab)Url|githubAppSlug|kProductPlugins' \
             -e '"(auth|rag|collab|generation|github|pages|projects|rbac|comments|mcp)\.[a-z_]+"' \
             -e '/lab/|/collaboration' \
             core/src || true)
if [[ -n "$features" ]]; then
  echo "core/src names a plugin's feature (let the plugin declare it; docs/plugin-authors.md):"
  echo "$features"
  status=1
fi

lookups=$(grep -rnI -E 'find(Service|ServiceById)\b|requireService\b' plugins --exclude-dir=tests || true)
if [[ -n "$lookups" ]]; then
  echo "plugins look services up per call (declare a ServiceRef with Registry::require or use):"
  echo "$lookups"
  status=1
fi
exit $status
