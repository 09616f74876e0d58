// Out-of-line destructors: the vtables of every interface that crosses the plugin
// boundary live in docs_core, once.
#include "docs/metrics.hpp"
#include "docs/plugin.hpp"
#include "docs/services/access_control.hpp"
#include "docs/services/analysis.hpp"
#include "docs/services/authenticator.hpp"
#include "docs/services/documents.hpp"
#include "docs/services/github_access.hpp"
#include "docs/services/linked_accounts.hpp"
#include "docs/services/page_history.hpp"
#include "docs/services/pages.hpp"
#include "docs/services/projects.hpp"
#include "docs/services/search.hpp"

namespace docs {

Config::~Config() = default;
Logger::~Logger() = default;
JobContext::~JobContext() = default;
JobQueue::~JobQueue() = default;
EventBus::~EventBus() = default;
WebSocketConnection::~WebSocketConnection() = default;
WebSocketSession::~WebSocketSession() = default;
Context::~Context() = default;
Counter::~Counter() = default;
Gauge::~Gauge() = default;
Histogram::~Histogram() = default;
Metrics::~Metrics() = default;

namespace {
// Keeps nothing: the metrics of a context that has no registry (plugin tests' fakes).
class DiscardedMetric final : public Counter, public Gauge, public Histogram {
 public:
  void add(double, LabelValues) override {}
  void set(double, LabelValues) override {}
  void observe(double, LabelValues) override {}
};
class DiscardingMetrics final : public Metrics {
 public:
  Counter& counter(std::string, std::string, std::vector<std::string>) override { return metric_; }
  Gauge& gauge(std::string, std::string, std::vector<std::string>) override { return metric_; }
  Histogram& histogram(std::string, std::string, std::vector<std::string>, std::vector<double>) override {
    return metric_;
  }
  void gaugeFunction(std::string, std::string, std::function<double()>) override {}

 private:
  DiscardedMetric metric_;
};
}  // namespace

Metrics& Context::metrics() {
  static DiscardingMetrics discarding;
  return discarding;
}
Registry::~Registry() = default;
Plugin::~Plugin() = default;
Authenticator::~Authenticator() = default;
Search::~Search() = default;
Documents::~Documents() = default;
AccessControl::~AccessControl() = default;
Projects::~Projects() = default;
Pages::~Pages() = default;
Analysis::~Analysis() = default;
GithubAccess::~GithubAccess() = default;
LinkedAccounts::~LinkedAccounts() = default;
PageHistory::~PageHistory() = default;

std::string envNameForKey(std::string_view key) {
  std::string name = "DOCS_";
  for (char c : key) {
    if (c == '.' || c == '-') name.push_back('_');
    else if (c >= 'a' && c <= 'z') name.push_back(static_cast<char>(c - 'a' + 'A'));
    else name.push_back(c);
  }
  return name;
}

}  // namespace docs
