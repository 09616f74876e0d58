#pragma once
// The series core itself exposes on /metrics (docs/metrics.md lists them all): HTTP,
// WebSockets, the database pool, the job queue, the event bus and the process.

#include "docs/metrics.hpp"
#include "metrics/metrics_registry.hpp"

namespace docs {
class Db;
}

namespace docs::core {

class PgPool;
class LocalEventBus;

// Route templates times methods times statuses: bounded, but past kMaxSeriesPerMetric.
inline constexpr std::size_t kMaxHttpSeries = 2000;

// Updated by the HTTP server on every request.
struct HttpMetrics {
  explicit HttpMetrics(MetricsRegistry& metrics);
  Counter& requests;    // route, method, status
  Histogram& duration;  // route, method
  Gauge& inFlight;
  Gauge& webSockets;
};

// CPU seconds, resident memory, open descriptors and start time, read from /proc/self.
void registerProcessMetrics(MetricsRegistry& registry);
void registerPoolMetrics(MetricsRegistry& registry, const PgPool& pool);
// Queued and running jobs by kind, counted in the jobs table when scraped (every node
// sees the whole cluster's queue).
void registerJobQueueDepth(MetricsRegistry& registry, Db& db);
// The time events wait for delivery on this node, and how many wait now.
void registerEventBusMetrics(MetricsRegistry& registry, LocalEventBus& bus);

}  // namespace docs::core
