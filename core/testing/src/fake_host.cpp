#include <docs/testing/fake_host.hpp>

#include <algorithm>
#include <utility>

namespace docs::testing {

FakeHost::~FakeHost() {
  try {
    stop();
  } catch (...) {
    // A destructor must not throw; a test that cares calls stop() itself.
  }
}

void FakeHost::run(Plugin& plugin) {
  context_.setConfiguring(true);
  try {
    plugin.configure(registry_);
  } catch (...) {
    context_.setConfiguring(false);
    throw;
  }
  context_.setConfiguring(false);
  registry_.resolve();
  if (!context_.hasDatabase()) return;
  auto migrations = registry_.migrations();
  std::sort(migrations.begin(), migrations.end(), [](const auto& a, const auto& b) { return a.version < b.version; });
  for (const auto& migration : migrations) context_.db().transaction([&](Tx& tx) { tx.execScript(migration.sql); });
  plugin.start();
  started_ = &plugin;
}

void FakeHost::stop() {
  if (auto* plugin = std::exchange(started_, nullptr)) plugin->stop();
}

}  // namespace docs::testing
