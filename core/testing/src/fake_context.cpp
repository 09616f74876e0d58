#include <docs/testing/fake_context.hpp>

#include <stdexcept>

namespace docs::testing {

Db& ForwardingDb::target() const {
  if (!target_)
    throw std::logic_error("plugin " + plugin_ +
                           " used the database, and its FakeContext has none: give one with useDatabase()");
  return *target_;
}

Result ForwardingDb::exec(std::string_view sql, const Params& params) { return target().exec(sql, params); }

void ForwardingDb::transaction(const std::function<void(Tx&)>& body) { target().transaction(body); }

FakeContext::FakeContext(std::string pluginName) : name_(std::move(pluginName)) {}

}  // namespace docs::testing
