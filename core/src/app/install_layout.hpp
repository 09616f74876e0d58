#pragma once
// Where docsd looks for its plugins and its web app when no setting says: beside an
// installed docsd (the FHS places `cmake --install` uses) or in the build tree.

#include <string>

namespace docs::core {

// Installed: <bindir>/../<libdir>/docsd/plugins (e.g. /usr/lib/x86_64-linux-gnu/docsd/plugins).
// Build tree: build/bin/../plugins. The first that is a directory; the build tree's otherwise.
std::string defaultPluginsDir(const std::string& exeDir);

// Installed: <bindir>/../<datadir>/docsd/web (e.g. /usr/share/docsd/web). Build tree:
// web/dist of the checkout build/ lives in, then web/dist under the working directory.
std::string defaultWebRoot(const std::string& exeDir, const std::string& workingDir);

}  // namespace docs::core
