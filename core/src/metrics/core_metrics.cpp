#include "metrics/core_metrics.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/pg_pool.hpp"
#include "docs/db.hpp"
#include "events/event_bus.hpp"

namespace docs::core {

namespace {

// Fields of /proc/self/stat after the command name, 0-based from the state field.
std::vector<std::string> procStatFields() {
  std::ifstream in("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');
  std::istringstream rest(close == std::string::npos ? "" : text.substr(close + 2));
  std::vector<std::string> fields;
  for (std::string field; rest >> field;) fields.push_back(field);
  return fields;
}

double bootTimeSeconds() {
  std::ifstream in("/proc/stat");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("btime ", 0) == 0) return std::stod(line.substr(6));
  return 0;
}

}  // namespace

HttpMetrics::HttpMetrics(MetricsRegistry& metrics)
    : requests(metrics.counter(
          "docsd_http_requests_total",
          "HTTP requests answered, by route template (or static, unmatched, a built-in path), method and status.",
          {"route", "method", "status"}, kMaxHttpSeries)),
      duration(metrics.histogram("docsd_http_request_duration_seconds",
                                 "Time from a request's headers to its answer sent, by route template and method.",
                                 {"route", "method"}, kDefaultSecondsBuckets, kMaxHttpSeries)),
      inFlight(metrics.gauge("docsd_http_requests_in_flight", "HTTP requests being answered now.")),
      webSockets(metrics.gauge("docsd_websockets_open", "WebSockets open now.")) {}

void registerProcessMetrics(MetricsRegistry& registry) {
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double pageSize = static_cast<double>(::sysconf(_SC_PAGESIZE));
  registry.seriesFunction("docsd_process_cpu_seconds_total", "CPU time docsd used, user and system.", "counter", {},
                          [ticks] {
                            auto fields = procStatFields();
                            if (fields.size() < 13) throw std::runtime_error("/proc/self/stat unreadable");
                            return SeriesList{{{}, (std::stod(fields[11]) + std::stod(fields[12])) / ticks}};
                          });
  registry.gaugeFunction("docsd_process_resident_memory_bytes", "Resident memory of docsd.", [pageSize] {
    std::ifstream in("/proc/self/statm");
    double total = 0, resident = 0;
    in >> total >> resident;
    return resident * pageSize;
  });
  registry.gaugeFunction("docsd_process_open_fds", "Open file descriptors (sockets included).", [] {
    std::error_code ec;
    double count = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      ++count;
    return count;
  });
  registry.gaugeFunction("docsd_process_max_fds", "The open file descriptor limit.", [] {
    long limit = ::sysconf(_SC_OPEN_MAX);
    return static_cast<double>(limit);
  });
  const double started = [&] {
    auto fields = procStatFields();
    return fields.size() > 19 ? bootTimeSeconds() + std::stod(fields[19]) / ticks : 0.0;
  }();
  registry.gaugeFunction("docsd_process_start_time_seconds", "When docsd started, in seconds since the Unix epoch.",
                         [started] { return started; });
}

void registerPoolMetrics(MetricsRegistry& registry, const PgPool& pool) {
  registry.gaugeFunction("docsd_db_pool_size", "The most database connections the pool opens (database.pool_size).",
                         [&pool] { return static_cast<double>(pool.stats().size); });
  registry.gaugeFunction("docsd_db_pool_open", "Database connections open now.",
                         [&pool] { return static_cast<double>(pool.stats().open); });
  registry.gaugeFunction("docsd_db_pool_in_use", "Database connections lent out now.",
                         [&pool] { return static_cast<double>(pool.stats().inUse); });
  registry.seriesFunction("docsd_db_pool_waits_total",
                          "Times a request for a connection found every one busy and waited.", "counter", {}, [&pool] {
                            return SeriesList{{{}, static_cast<double>(pool.stats().waits)}};
                          });
  registry.seriesFunction("docsd_db_pool_wait_seconds_total", "Time spent waiting for a free connection.", "counter",
                          {}, [&pool] {
                            return SeriesList{{{}, pool.stats().waitSeconds}};
                          });
}

void registerJobQueueDepth(MetricsRegistry& registry, Db& db) {
  registry.seriesFunction("docsd_jobs", "Jobs in the queue now, by kind and status (queued, running).", "gauge",
                          {"kind", "status"}, [&db] {
                            SeriesList list;
                            auto rows = db.exec(
                                "SELECT kind, status, count(*) FROM jobs WHERE status IN ('queued', 'running') GROUP "
                                "BY kind, status ORDER BY kind, status");
                            for (const auto& row : rows)
                              list.push_back({{row.text(0), row.text(1)}, static_cast<double>(row.int64(2))});
                            return list;
                          });
}

void registerEventBusMetrics(MetricsRegistry& registry, LocalEventBus& bus) {
  auto& lag = registry.histogram(
      "docsd_event_delivery_lag_seconds",
      "Time an event waited on this node between its publication (or arrival from another node) and its delivery.", {},
      {0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5});
  bus.setLagObserver([&lag](double seconds) { lag.observe(seconds); });
  registry.gaugeFunction("docsd_events_queued", "Events waiting for delivery on this node now.",
                         [&bus] { return static_cast<double>(bus.queued()); });
}

}  // namespace docs::core
