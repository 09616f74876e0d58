#include <docs/testing/fake_context.hpp>

#include <stdexcept>

namespace docs::testing {

void ConfigurePhase::refuse(const char* what) const {
  if (active) throw std::logic_error("plugin " + plugin + " used " + what + " during configure()");
}

Db& ForwardingDb::target() const {
  phase_.refuse("the database");
  if (!target_)
    throw std::logic_error("plugin " + phase_.plugin +
                           " used the database, and its FakeContext has none: give one with useDatabase()");
  return *target_;
}

Result ForwardingDb::exec(std::string_view sql, const Params& params) { return target().exec(sql, params); }

void ForwardingDb::transaction(const std::function<void(Tx&)>& body) { target().transaction(body); }

FakeContext::FakeContext(std::string pluginName) : phase_{std::move(pluginName), false} {}

}  // namespace docs::testing
