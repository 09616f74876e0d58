#pragma once
// What a plugin declares in configure(): routes, WebSocket endpoints, migrations, job
// handlers, periodic tasks, services, event subscriptions and configuration keys.
// configure() only declares: no I/O and no threads.

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "docs/events.hpp"
#include "docs/http.hpp"
#include "docs/jobs.hpp"
#include "docs/websocket.hpp"

namespace docs {

class Context;

struct PeriodicOptions {
  std::chrono::milliseconds interval{60000};
  // Runs on one node at a time across a cluster (PostgreSQL advisory lock).
  bool singleton = true;
};

class Registry {
 public:
  virtual ~Registry();

  // The plugin's context; keep the reference, use it from start() on.
  virtual Context& context() = 0;

  // Path templates use {name} segments: "/api/project/{id}".
  virtual void route(Method method, std::string pathTemplate, Handler handler, RouteOptions options = {}) = 0;
  virtual void websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options = {}) = 0;
  // Ordered by version, applied once each under an advisory lock; an applied migration
  // whose text changed stops the start.
  virtual void migration(int version, std::string name, std::string sql) = 0;
  virtual void jobHandler(std::string kind, JobHandler handler) = 0;
  virtual void periodic(std::string name, PeriodicOptions options, std::function<void()> task) = 0;
  virtual void subscribe(std::string topic, EventHandler handler) = 0;
  // Declares a configuration key (documented by `docsd --help`).
  virtual void configKey(std::string key, std::string defaultValue, std::string description) = 0;
  // Publishes a service for other plugins. The plugin owns it and keeps it alive.
  virtual void provideServiceById(std::string id, void* service) = 0;

  template <class Service>
  void provideService(Service& service) {
    provideServiceById(Service::kServiceId, &service);
  }
};

}  // namespace docs
