#pragma once
// The host's docs::Metrics: every metric of core and the plugins, rendered in the
// Prometheus text exposition format (version 0.0.4) for GET /metrics.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "docs/metrics.hpp"

namespace docs::core {

class MetricFamily;

// Labelled values computed when scraped: one (label values, value) pair per series.
using SeriesList = std::vector<std::pair<std::vector<std::string>, double>>;

class MetricsRegistry final : public Metrics {
 public:
  MetricsRegistry();
  ~MetricsRegistry() override;

  Counter& counter(std::string name, std::string help, std::vector<std::string> labelNames = {}) override;
  Gauge& gauge(std::string name, std::string help, std::vector<std::string> labelNames = {}) override;
  Histogram& histogram(std::string name, std::string help, std::vector<std::string> labelNames = {},
                       std::vector<double> buckets = {}) override;
  void gaugeFunction(std::string name, std::string help, std::function<double()> read) override;
  // Core's own series whose label sets are bounded but larger than kMaxSeriesPerMetric
  // (every route template times methods and statuses).
  Counter& counter(std::string name, std::string help, std::vector<std::string> labelNames, std::size_t maxSeries);
  Histogram& histogram(std::string name, std::string help, std::vector<std::string> labelNames,
                       std::vector<double> buckets, std::size_t maxSeries);
  // A labelled gauge (or counter, type "counter") read when scraped.
  void seriesFunction(std::string name, std::string help, std::string type, std::vector<std::string> labelNames,
                      std::function<SeriesList()> read);

  // The exposition text; a function that throws is left out of this scrape.
  std::string render() const;

 private:
  MetricFamily& add(std::unique_ptr<MetricFamily> family);
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<MetricFamily>> families_;
};

// Name rules shared with the tests: [a-zA-Z_:][a-zA-Z0-9_:]* for metrics, no "__" prefix for labels.
bool validMetricName(std::string_view name);
bool validLabelName(std::string_view name);
// A sample value as Prometheus writes it (+Inf, -Inf, NaN, shortest round-trip decimal).
std::string formatSampleValue(double value);

}  // namespace docs::core
