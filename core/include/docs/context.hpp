#pragma once
// What a running plugin can reach: configuration, database, jobs, events, metrics.

#include <string>

namespace docs {

class Config;
class Db;
class JobQueue;
class EventBus;
class Logger;
class Metrics;

class Context {
 public:
  virtual ~Context();
  virtual const Config& config() const = 0;
  // Stable handles: the same objects from configure() on, so a plugin may take and keep
  // them there (or hand them to the objects it builds). Using one before start() (during
  // configure(), or in a command, which opens none) throws std::logic_error naming the
  // plugin: "plugin X used the database during configure()".
  virtual Db& db() = 0;
  virtual JobQueue& jobs() = 0;
  virtual EventBus& events() = 0;
  virtual Logger& logger() = 0;
  virtual const std::string& dataDir() const = 0;
  // Prometheus metrics (docs/metrics.hpp), usable from configure() on. The default is a
  // registry that keeps nothing, for test contexts.
  virtual Metrics& metrics();
  // Another plugin's service: a ServiceRef declared in configure() with Registry::require
  // or Registry::use (docs/registry.hpp).
};

}  // namespace docs
