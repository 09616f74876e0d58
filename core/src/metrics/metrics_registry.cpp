#include "metrics/metrics_registry.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

namespace docs::core {

namespace {

using LabelKey = std::vector<std::string>;

std::string escapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string escapeHelp(std::string_view help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// {a="x",b="y"} (with `extra` appended, for le=), or "" without labels.
std::string labelText(const std::vector<std::string>& names, const LabelKey& values, std::string_view extra = {}) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
    out += (out.empty() ? "" : ",") + names[i] + "=\"" + escapeLabelValue(values[i]) + "\"";
  if (!extra.empty()) out += (out.empty() ? "" : ",") + std::string(extra);
  return out.empty() ? "" : "{" + out + "}";
}

}  // namespace

bool validMetricName(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool validLabelName(std::string_view name) {
  return validMetricName(name) && name.find(':') == std::string_view::npos && name.substr(0, 2) != "__" && name != "le";
}

std::string formatSampleValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  // Plain decimals for the usual range (0.0005, not 5e-04); exponents beyond it.
  double magnitude = std::fabs(value);
  auto format =
      magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e15) ? std::chars_format::fixed : std::chars_format::general;
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, format);
  return error == std::errc() ? std::string(buffer, end) : "0";
}

class MetricFamily {
 public:
  MetricFamily(std::string name, std::string help, std::string type, std::vector<std::string> labelNames)
      : name_(std::move(name)), help_(std::move(help)), type_(std::move(type)), labelNames_(std::move(labelNames)) {}
  virtual ~MetricFamily() = default;
  const std::string& name() const { return name_; }
  const std::string& type() const { return type_; }
  const std::vector<std::string>& labelNames() const { return labelNames_; }
  void setMaxSeries(std::size_t maxSeries) { maxSeries_.store(maxSeries); }
  void render(std::string& out) const {
    std::string samples;
    renderSamples(samples);  // first: a throwing function leaves no header behind
    out += "# HELP " + name_ + " " + escapeHelp(help_) + "\n# TYPE " + name_ + " " + type_ + "\n" + samples;
  }

 protected:
  virtual void renderSamples(std::string& out) const = 0;
  // The series' key: values in label order, "" for missing ones, every value "other" once
  // the metric holds its most series (a label fed an unbounded value).
  template <class Map>
  LabelKey keyFor(const Map& series, LabelValues labels) const {
    LabelKey key(labelNames_.size());
    std::size_t i = 0;
    for (auto value : labels) {
      if (i == key.size()) break;
      key[i++] = std::string(value);
    }
    if (series.size() >= maxSeries_.load() && !series.count(key)) std::fill(key.begin(), key.end(), "other");
    return key;
  }

  std::string name_, help_, type_;
  std::vector<std::string> labelNames_;
  std::atomic<std::size_t> maxSeries_{kMaxSeriesPerMetric};
};

namespace {

class ValueFamily final : public MetricFamily, public Counter, public Gauge {
 public:
  using MetricFamily::MetricFamily;
  void add(double amount, LabelValues labels) override {
    if (type_ == "counter" && !(amount >= 0)) return;  // counters only go up
    std::lock_guard lock(mutex_);
    values_[keyFor(values_, labels)] += amount;
  }
  void set(double value, LabelValues labels) override {
    std::lock_guard lock(mutex_);
    values_[keyFor(values_, labels)] = value;
  }

 private:
  void renderSamples(std::string& out) const override {
    std::lock_guard lock(mutex_);
    if (values_.empty() && labelNames_.empty()) out += name_ + " 0\n";
    for (const auto& [key, value] : values_)
      out += name_ + labelText(labelNames_, key) + " " + formatSampleValue(value) + "\n";
  }
  mutable std::mutex mutex_;
  std::map<LabelKey, double> values_;
};

class HistogramFamily final : public MetricFamily, public Histogram {
 public:
  HistogramFamily(std::string name, std::string help, std::vector<std::string> labelNames, std::vector<double> buckets)
      : MetricFamily(std::move(name), std::move(help), "histogram", std::move(labelNames)),
        buckets_(std::move(buckets)) {}
  void observe(double value, LabelValues labels) override {
    if (std::isnan(value)) return;
    std::lock_guard lock(mutex_);
    auto& series = series_[keyFor(series_, labels)];
    if (series.counts.empty()) series.counts.assign(buckets_.size(), 0);
    for (std::size_t i = 0; i < buckets_.size(); ++i)
      if (value <= buckets_[i]) ++series.counts[i];
    series.sum += value;
    ++series.count;
  }
  const std::vector<double>& buckets() const { return buckets_; }

 private:
  struct Series {
    std::vector<std::uint64_t> counts;  // cumulative: each bucket counts values <= its bound
    double sum = 0;
    std::uint64_t count = 0;
  };
  void renderSamples(std::string& out) const override {
    std::lock_guard lock(mutex_);
    auto write = [&](const LabelKey& key, const Series& series) {
      for (std::size_t i = 0; i < buckets_.size(); ++i)
        out += name_ + "_bucket" + labelText(labelNames_, key, "le=\"" + formatSampleValue(buckets_[i]) + "\"") + " " +
               std::to_string(series.counts.empty() ? 0 : series.counts[i]) + "\n";
      out += name_ + "_bucket" + labelText(labelNames_, key, "le=\"+Inf\"") + " " + std::to_string(series.count) + "\n";
      out += name_ + "_sum" + labelText(labelNames_, key) + " " + formatSampleValue(series.sum) + "\n";
      out += name_ + "_count" + labelText(labelNames_, key) + " " + std::to_string(series.count) + "\n";
    };
    if (series_.empty() && labelNames_.empty()) write({}, Series{});
    for (const auto& [key, series] : series_) write(key, series);
  }
  std::vector<double> buckets_;
  mutable std::mutex mutex_;
  std::map<LabelKey, Series> series_;
};

class FunctionFamily final : public MetricFamily {
 public:
  FunctionFamily(std::string name, std::string help, std::string type, std::vector<std::string> labelNames,
                 std::function<SeriesList()> read)
      : MetricFamily(std::move(name), std::move(help), std::move(type), std::move(labelNames)),
        read_(std::move(read)) {}
  // A component started again (a plugin restarted in the same process) reads its new self.
  void replaceRead(std::function<SeriesList()> read) {
    std::lock_guard lock(mutex_);
    read_ = std::move(read);
  }
  std::function<SeriesList()> takeRead() { return std::move(read_); }

 private:
  void renderSamples(std::string& out) const override {
    std::function<SeriesList()> read;
    {
      std::lock_guard lock(mutex_);
      read = read_;
    }
    auto list = read();
    if (list.size() > kMaxSeriesPerMetric) list.resize(kMaxSeriesPerMetric);
    for (const auto& [key, value] : list)
      out += name_ + labelText(labelNames_, key) + " " + formatSampleValue(value) + "\n";
  }
  mutable std::mutex mutex_;
  std::function<SeriesList()> read_;
};

void checkNames(const std::string& name, const std::vector<std::string>& labelNames) {
  if (!validMetricName(name)) throw std::invalid_argument("malformed metric name: " + name);
  for (const auto& label : labelNames)
    if (!validLabelName(label)) throw std::invalid_argument("malformed label name " + label + " of metric " + name);
}

}  // namespace

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

MetricFamily& MetricsRegistry::add(std::unique_ptr<MetricFamily> family) {
  std::lock_guard lock(mutex_);
  for (auto& existing : families_) {
    if (existing->name() != family->name()) continue;
    bool sameShape = existing->type() == family->type() && existing->labelNames() == family->labelNames();
    auto* existingFunction = dynamic_cast<FunctionFamily*>(existing.get());
    auto* newFunction = dynamic_cast<FunctionFamily*>(family.get());
    if (sameShape && (existingFunction == nullptr) == (newFunction == nullptr)) {
      if (existingFunction) existingFunction->replaceRead(newFunction->takeRead());
      return *existing;
    }
    throw std::invalid_argument("metric " + family->name() + " is already registered differently");
  }
  families_.push_back(std::move(family));
  return *families_.back();
}

Counter& MetricsRegistry::counter(std::string name, std::string help, std::vector<std::string> labelNames) {
  checkNames(name, labelNames);
  if (name.size() < 6 || name.compare(name.size() - 6, 6, "_total") != 0)
    throw std::invalid_argument("a counter's name ends in _total: " + name);
  return dynamic_cast<ValueFamily&>(
      add(std::make_unique<ValueFamily>(std::move(name), std::move(help), "counter", std::move(labelNames))));
}

Gauge& MetricsRegistry::gauge(std::string name, std::string help, std::vector<std::string> labelNames) {
  checkNames(name, labelNames);
  return dynamic_cast<ValueFamily&>(
      add(std::make_unique<ValueFamily>(std::move(name), std::move(help), "gauge", std::move(labelNames))));
}

Histogram& MetricsRegistry::histogram(std::string name, std::string help, std::vector<std::string> labelNames,
                                      std::vector<double> buckets) {
  checkNames(name, labelNames);
  if (buckets.empty()) buckets = kDefaultSecondsBuckets;
  if (!std::is_sorted(buckets.begin(), buckets.end()) ||
      std::adjacent_find(buckets.begin(), buckets.end()) != buckets.end())
    throw std::invalid_argument("histogram buckets must ascend: " + name);
  return dynamic_cast<HistogramFamily&>(add(
      std::make_unique<HistogramFamily>(std::move(name), std::move(help), std::move(labelNames), std::move(buckets))));
}

Counter& MetricsRegistry::counter(std::string name, std::string help, std::vector<std::string> labelNames,
                                  std::size_t maxSeries) {
  auto& metric = counter(std::move(name), std::move(help), std::move(labelNames));
  dynamic_cast<ValueFamily&>(metric).setMaxSeries(maxSeries);
  return metric;
}

Histogram& MetricsRegistry::histogram(std::string name, std::string help, std::vector<std::string> labelNames,
                                      std::vector<double> buckets, std::size_t maxSeries) {
  auto& metric = histogram(std::move(name), std::move(help), std::move(labelNames), std::move(buckets));
  dynamic_cast<HistogramFamily&>(metric).setMaxSeries(maxSeries);
  return metric;
}

void MetricsRegistry::gaugeFunction(std::string name, std::string help, std::function<double()> read) {
  seriesFunction(std::move(name), std::move(help), "gauge", {}, [read = std::move(read)] {
    return SeriesList{{{}, read()}};
  });
}

void MetricsRegistry::seriesFunction(std::string name, std::string help, std::string type,
                                     std::vector<std::string> labelNames, std::function<SeriesList()> read) {
  checkNames(name, labelNames);
  add(std::make_unique<FunctionFamily>(std::move(name), std::move(help), std::move(type), std::move(labelNames),
                                       std::move(read)));
}

std::string MetricsRegistry::render() const {
  std::vector<const MetricFamily*> families;
  {
    std::lock_guard lock(mutex_);
    for (const auto& family : families_) families.push_back(family.get());
  }
  std::string out;
  for (const auto* family : families) {
    try {
      family->render(out);
    } catch (const std::exception&) {
      // A source that cannot answer now (the database, say) is left out of this scrape.
    }
  }
  return out;
}

}  // namespace docs::core
