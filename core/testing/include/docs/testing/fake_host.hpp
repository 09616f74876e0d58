#pragma once
// Plugin unit tests without docsd: load a plugin library as docsd does, configure it against
// a FakeRegistry and a FakeContext, and (given a database) migrate and start it. Then call
// its routes, deliver events, run its jobs (docs/testing/fake_registry.hpp). Link
// docs::plugin_testing; docs/plugin-authors.md shows a whole test. Not part of the plugin ABI.

#include <memory>
#include <string>

#include <docs/abi.hpp>
#include <docs/plugin.hpp>
#include <docs/testing/fake_context.hpp>
#include <docs/testing/fake_registry.hpp>

namespace docs::testing {

// A plugin created from its library's manifest. The library stays loaded for the life of
// the process, as in docsd: the plugin's code may be referenced until exit.
struct LoadedPlugin {
  const PluginManifest* manifest = nullptr;
  std::unique_ptr<Plugin> plugin;
};

// Opens a plugin library (a docs_add_plugin module) and creates its plugin, after docsd's
// checks of the manifest (ABI, manifest size, C++ standard, library ABI, pointer size).
// Throws std::runtime_error naming the file and what is wrong.
LoadedPlugin loadPlugin(const std::string& path);

// One plugin in a fake host. run() does what docsd does at start, as far as a unit test
// needs: configure() (during which the database, job queue and event bus throw, as in
// docsd), resolve() the services; then, when the context has a database, the
// plugin's migrations in version order (each once, in a transaction, with no bookkeeping
// table: give it a fresh database) and start(). stop() (or the destructor) stops a started
// plugin.
class FakeHost {
 public:
  explicit FakeHost(std::string pluginName = "plugin") : context_(std::move(pluginName)), registry_(context_) {}
  ~FakeHost();
  FakeHost(const FakeHost&) = delete;
  FakeHost& operator=(const FakeHost&) = delete;

  FakeContext& context() { return context_; }
  FakeRegistry& registry() { return registry_; }
  // The plugin must outlive this host (or its stop()).
  void run(Plugin& plugin);
  bool started() const { return started_ != nullptr; }
  void stop();

 private:
  FakeContext context_;
  FakeRegistry registry_;
  Plugin* started_ = nullptr;
};

}  // namespace docs::testing
