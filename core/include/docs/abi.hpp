#pragma once
// The plugin ABI: one integer, matched exactly, and the manifest every plugin exports.
// The ABI number is part of the manifest symbol's name, so the host can refuse a plugin
// built for another ABI by reading its symbol table, before any of its code runs.

#include <cstdint>

#include <nlohmann/json_fwd.hpp>  // NLOHMANN_JSON_VERSION_*: nlohmann::json crosses the plugin boundary

#define DOCS_PLUGIN_ABI 18
#define DOCS_PLUGIN_STR2(x) #x
#define DOCS_PLUGIN_STR(x) DOCS_PLUGIN_STR2(x)
#define DOCS_PLUGIN_CAT2(a, b) a##b
#define DOCS_PLUGIN_CAT(a, b) DOCS_PLUGIN_CAT2(a, b)
#define DOCS_PLUGIN_MANIFEST_SYMBOL DOCS_PLUGIN_CAT(docs_plugin_manifest_v, DOCS_PLUGIN_ABI)
#define DOCS_PLUGIN_MANIFEST_PREFIX "docs_plugin_manifest_v"
// The nlohmann/json release the plugin was compiled with (3.11.2 is 31102): its types are in
// the SDK's signatures, so the plugin and docsd must agree on it.
#define DOCS_PLUGIN_JSON_VERSION \
  (NLOHMANN_JSON_VERSION_MAJOR * 10000 + NLOHMANN_JSON_VERSION_MINOR * 100 + NLOHMANN_JSON_VERSION_PATCH)

namespace docs {

class Plugin;

inline constexpr std::uint32_t kPluginAbi = DOCS_PLUGIN_ABI;

// Manifest flags (DOCS_PLUGIN_WITH_FLAGS).
// Opt-in: `plugins.enabled=all` (the default) skips the plugin; it loads only when
// plugins.enabled names it ("all,example" or "example,auth").
inline constexpr std::uint32_t kPluginOptIn = 1u << 0;

// Filled in by the plugin's own compiler (like PostgreSQL's magic block) and compared
// field by field with the host's values before the factory is called.
struct PluginManifest {
  std::uint32_t abi;               // kPluginAbi the plugin was built against
  std::uint32_t manifestSize;      // sizeof(PluginManifest)
  std::uint32_t cxxStandard;       // __cplusplus / 100
  std::uint32_t libstdcxxDualAbi;  // _GLIBCXX_USE_CXX11_ABI
  std::uint32_t pointerSize;       // sizeof(void*)
  const char* name;                // "example"
  const char* version;             // "1.0.0"
  const char* dependencies;        // comma-separated plugin names, "" for none
  const char* description;         // one line for `docsd plugins`
  Plugin* (*create)();             // called once, after the checks pass
  std::uint32_t flags;             // kPluginOptIn, ...; 0 for none
  std::uint32_t jsonVersion;       // DOCS_PLUGIN_JSON_VERSION
};

#ifdef _GLIBCXX_USE_CXX11_ABI
#define DOCS_PLUGIN_DUAL_ABI _GLIBCXX_USE_CXX11_ABI
#else
#define DOCS_PLUGIN_DUAL_ABI 0
#endif

// The values this compiler puts in a manifest; the host compares a plugin's against its own.
inline constexpr PluginManifest kHostManifestTemplate{kPluginAbi,
                                                      static_cast<std::uint32_t>(sizeof(PluginManifest)),
                                                      static_cast<std::uint32_t>(__cplusplus / 100),
                                                      DOCS_PLUGIN_DUAL_ABI,
                                                      static_cast<std::uint32_t>(sizeof(void*)),
                                                      nullptr,
                                                      nullptr,
                                                      nullptr,
                                                      nullptr,
                                                      nullptr,
                                                      0,
                                                      static_cast<std::uint32_t>(DOCS_PLUGIN_JSON_VERSION)};

}  // namespace docs

// Declares a plugin. Use once per plugin library, at namespace scope:
//   DOCS_PLUGIN(ExamplePlugin, "example", "1.0.0", "", "Shows the plugin cycle")
// or, with manifest flags (an opt-in plugin, left out by plugins.enabled=all):
//   DOCS_PLUGIN_WITH_FLAGS(ExamplePlugin, "example", "1.0.0", "", "Shows the plugin cycle", ::docs::kPluginOptIn)
// The manifest is constant-initialised: loading the library runs no plugin code.
#define DOCS_PLUGIN(Class, Name, Version, Dependencies, Description) \
  DOCS_PLUGIN_WITH_FLAGS(Class, Name, Version, Dependencies, Description, 0)
#define DOCS_PLUGIN_WITH_FLAGS(Class, Name, Version, Dependencies, Description, Flags)                           \
  namespace {                                                                                                    \
  ::docs::Plugin* docsCreatePluginInstance() { return new Class(); }                                             \
  }                                                                                                              \
  extern "C"                                                                                                     \
      __attribute__((visibility("default"))) constinit const ::docs::PluginManifest DOCS_PLUGIN_MANIFEST_SYMBOL{ \
          DOCS_PLUGIN_ABI,                                                                                       \
          static_cast<std::uint32_t>(sizeof(::docs::PluginManifest)),                                            \
          static_cast<std::uint32_t>(__cplusplus / 100),                                                         \
          DOCS_PLUGIN_DUAL_ABI,                                                                                  \
          static_cast<std::uint32_t>(sizeof(void*)),                                                             \
          Name,                                                                                                  \
          Version,                                                                                               \
          Dependencies,                                                                                          \
          Description,                                                                                           \
          &docsCreatePluginInstance,                                                                             \
          static_cast<std::uint32_t>(Flags),                                                                     \
          static_cast<std::uint32_t>(DOCS_PLUGIN_JSON_VERSION)};
