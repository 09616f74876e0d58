#include "app/install_layout.hpp"

#include <filesystem>

namespace fs = std::filesystem;

// Both relative to the installed binary's directory, computed by CMake from the install
// directories (core/CMakeLists.txt), so a prefix moved as a whole still works.
#ifndef DOCS_INSTALL_PLUGINS_FROM_BIN
#define DOCS_INSTALL_PLUGINS_FROM_BIN "../lib/docsd/plugins"
#endif
#ifndef DOCS_INSTALL_WEB_FROM_BIN
#define DOCS_INSTALL_WEB_FROM_BIN "../share/docsd/web"
#endif

namespace docs::core {

namespace {

bool isDirectory(const fs::path& path) {
  std::error_code ignored;
  return fs::is_directory(path, ignored);
}

}  // namespace

std::string defaultPluginsDir(const std::string& exeDir) {
  fs::path installed = (fs::path(exeDir) / DOCS_INSTALL_PLUGINS_FROM_BIN).lexically_normal();
  if (isDirectory(installed)) return installed.string();
  return (fs::path(exeDir) / ".." / "plugins").lexically_normal().string();
}

std::string defaultWebRoot(const std::string& exeDir, const std::string& workingDir) {
  fs::path installed = (fs::path(exeDir) / DOCS_INSTALL_WEB_FROM_BIN).lexically_normal();
  if (isDirectory(installed)) return installed.string();
  fs::path checkout = (fs::path(exeDir) / ".." / ".." / "web" / "dist").lexically_normal();
  if (isDirectory(checkout)) return checkout.string();
  return (fs::path(workingDir) / "web" / "dist").string();
}

}  // namespace docs::core
