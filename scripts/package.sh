#!/usr/bin/env bash
# Builds the Debian packages of a release into build-package/: docsd_<version>_<arch>.deb
# (docsd, its plugins, the web app, the systemd service; dependencies computed by
# dpkg-shlibdeps) and docsd-dev_<version>_<arch>.deb (the plugin SDK). Install with
# `sudo apt install ./build-package/docsd_*.deb` (docs/deployment.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh package
# The web app ships in the package: built from this checkout first (DOCS_PACKAGE_SKIP_WEB=1
# packs the web/dist that is there).
if [[ "${DOCS_PACKAGE_SKIP_WEB:-}" != 1 ]]; then scripts/build-web.sh; fi
if [[ ! -f web/dist/index.html ]]; then
  echo "web/dist is not built (scripts/build-web.sh): the package would have no web app" >&2
  exit 1
fi
# ccache hits across clones: paths are taken relative to the checkout.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
scripts/npm-deps.sh plugins/generation/grammars
cmake --preset package >/dev/null
ninja -C build-package -j "${DOCS_BUILD_JOBS:-$(nproc)}" product
rm -f build-package/*.deb
(cd build-package && cpack -G DEB >/dev/null)
for deb in build-package/*.deb; do
  echo "$deb"
  dpkg-deb --field "$deb" Package Version Architecture Depends | sed 's/^/  /'
done
