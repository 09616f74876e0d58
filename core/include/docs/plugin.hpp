#pragma once
// The plugin interface. A plugin library exports one manifest (see DOCS_PLUGIN in abi.hpp);
// the host calls configure on every plugin, resolves the services they require and use,
// runs the migrations, then calls start in dependency order (the manifest's dependencies,
// and a required service's provider first), and stop in reverse order at shutdown.
// Plugins are never unloaded.
//
// What the host guarantees: nothing reaches a plugin before every plugin's start() has
// returned: no route, WebSocket, job, periodic task or event (events published during a
// start() are held and delivered after the last one). At shutdown the server, the
// WebSockets, the periodic tasks and the jobs stop before the first stop(). Events are
// delivered through the stops: before each plugin's stop() the host delivers every event
// queued so far, and from then on none reaches that plugin. An event published during a
// stop() still reaches the plugins not stopped yet (those that started before it, such as
// its dependencies), not those stopped already: a subscriber that must not miss such a
// change (or one lost to a crash) catches up in its start().

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
  // Declare everything and build the plugin's objects (no I/O, no threads: `docsd help`
  // and the commands call it too); throw to refuse the start (the message names the plugin).
  virtual void configure(Registry& registry) = 0;
  // Migrations have run; dependencies and required services' providers have started, and
  // every ServiceRef is filled. Do the I/O and start the threads here.
  virtual void start() {}
  // The server has stopped serving and no event reaches this plugin any more; join
  // threads, flush. Events published here reach the plugins still running.
  virtual void stop() {}
};

}  // namespace docs
