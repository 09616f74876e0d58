#pragma once
// The plugin interface. A plugin library exports one manifest (see DOCS_PLUGIN in abi.hpp);
// the host calls configure, then (after migrations) start in dependency order, and stop in
// reverse order at shutdown. Plugins are never unloaded.

#include "docs/abi.hpp"
#include "docs/config.hpp"
#include "docs/context.hpp"
#include "docs/db.hpp"
#include "docs/events.hpp"
#include "docs/http.hpp"
#include "docs/jobs.hpp"
#include "docs/logger.hpp"
#include "docs/metrics.hpp"
#include "docs/registry.hpp"
#include "docs/websocket.hpp"

namespace docs {

class Plugin {
 public:
  virtual ~Plugin();
  // Declare everything; throw to refuse the start (the message names the plugin).
  virtual void configure(Registry& registry) = 0;
  // Migrations have run; dependencies have started. May start threads.
  virtual void start() {}
  // The server has stopped serving; join threads, flush.
  virtual void stop() {}
};

}  // namespace docs
