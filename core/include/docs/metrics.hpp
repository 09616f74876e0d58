#pragma once
// Prometheus metrics a plugin registers (served by core at GET /metrics). Register in
// configure() or start(); the objects live as long as the process, and every call on them
// is thread-safe. Names follow Prometheus conventions: "docsd_<area>_<what>", counters end
// in "_total", durations are "_seconds". Label values must come from a small fixed set
// (a stage, an outcome, a kind): never a user, page or project id. A metric keeps at most
// kMaxSeriesPerMetric label combinations; later ones are counted under the value "other".

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

inline constexpr std::size_t kMaxSeriesPerMetric = 100;

// Label values, in the order of the metric's label names.
using LabelValues = std::initializer_list<std::string_view>;

class Counter {
 public:
  virtual ~Counter();
  virtual void add(double amount, LabelValues labels = {}) = 0;  // amount >= 0
  void inc(LabelValues labels = {}) { add(1, labels); }
};

class Gauge {
 public:
  virtual ~Gauge();
  virtual void set(double value, LabelValues labels = {}) = 0;
  virtual void add(double delta, LabelValues labels = {}) = 0;
};

class Histogram {
 public:
  virtual ~Histogram();
  virtual void observe(double value, LabelValues labels = {}) = 0;
};

class Metrics {
 public:
  virtual ~Metrics();
  // Registering a name again with the same kind and labels answers the same metric; a
  // malformed name, a counter without "_total" or a clash throws std::invalid_argument.
  virtual Counter& counter(std::string name, std::string help, std::vector<std::string> labelNames = {}) = 0;
  virtual Gauge& gauge(std::string name, std::string help, std::vector<std::string> labelNames = {}) = 0;
  // Bucket upper bounds in ascending order; empty: kDefaultSecondsBuckets.
  virtual Histogram& histogram(std::string name, std::string help, std::vector<std::string> labelNames = {},
                               std::vector<double> buckets = {}) = 0;
  // A gauge read when /metrics is scraped (rooms open, queue lengths). `read` runs on the
  // scraping thread and must be quick and thread-safe; registering the name again replaces
  // it (a component started anew). Whatever `read` uses must outlive the HTTP server: a
  // plugin's objects do (plugins stop after it).
  virtual void gaugeFunction(std::string name, std::string help, std::function<double()> read) = 0;
};

// 5 ms to 30 s: request and job durations.
inline const std::vector<double> kDefaultSecondsBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

}  // namespace docs
