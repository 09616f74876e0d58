#pragma once
// What a running plugin can reach: configuration, database, jobs, events, metrics, services.

#include <stdexcept>
#include <string>
#include <string_view>

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
  // Another plugin's service by id ("docs.authenticator/1"), or nullptr. Prefer a
  // ServiceRef declared in configure() with Registry::require or Registry::use: the host
  // then orders the start by it and names a missing service before anything starts.
  // These lookups stay for the plugins not converted yet.
  virtual void* findServiceById(std::string_view id) const = 0;

  // Typed lookup: Service declares `static constexpr const char* kServiceId`.
  template <class Service>
  Service* findService() const {
    return static_cast<Service*>(findServiceById(Service::kServiceId));
  }
  template <class Service>
  Service& requireService() const {
    if (auto* service = findService<Service>()) return *service;
    throw std::runtime_error(std::string("required service is not available: ") + Service::kServiceId);
  }
};

}  // namespace docs
