// Opens a plugin library the way docsd does: the manifest symbol of this ABI, its fields
// checked against the host's before any plugin code runs.
#include <dlfcn.h>

#include <stdexcept>

#include <docs/testing/fake_host.hpp>

namespace docs::testing {

namespace {

void expectField(const std::string& path, const char* field, std::uint32_t found, std::uint32_t wanted) {
  if (found != wanted)
    throw std::runtime_error(path + ": manifest " + field + " is " + std::to_string(found) + ", this host has " +
                             std::to_string(wanted));
}

}  // namespace

LoadedPlugin loadPlugin(const std::string& path) {
  // Never closed: the plugin's code may be referenced until exit (vtables, handlers).
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error("cannot load plugin " + path + ": " + dlerror());
  auto* manifest = static_cast<const PluginManifest*>(dlsym(library, DOCS_PLUGIN_STR(DOCS_PLUGIN_MANIFEST_SYMBOL)));
  if (!manifest)
    throw std::runtime_error(path +
                             " exports no " DOCS_PLUGIN_STR(
                                 DOCS_PLUGIN_MANIFEST_SYMBOL) ": not a plugin, or one built for another plugin ABI");
  const PluginManifest& host = kHostManifestTemplate;
  expectField(path, "abi", manifest->abi, host.abi);
  expectField(path, "size", manifest->manifestSize, host.manifestSize);
  expectField(path, "C++ standard", manifest->cxxStandard, host.cxxStandard);
  expectField(path, "libstdc++ dual ABI", manifest->libstdcxxDualAbi, host.libstdcxxDualAbi);
  expectField(path, "pointer size", manifest->pointerSize, host.pointerSize);
  if (!manifest->create) throw std::runtime_error(path + ": the manifest has no factory");
  LoadedPlugin loaded;
  loaded.manifest = manifest;
  loaded.plugin.reset(manifest->create());
  return loaded;
}

}  // namespace docs::testing
