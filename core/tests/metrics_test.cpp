#include <gtest/gtest.h>

#include <stdexcept>

#include "metrics/metrics_access.hpp"
#include "metrics/metrics_registry.hpp"

using docs::core::MetricsAccess;
using docs::core::MetricsRegistry;

TEST(MetricsRegistry, RendersTheTextFormat) {
  MetricsRegistry registry;
  auto& requests = registry.counter("docsd_test_requests_total", "Requests.\nSecond line", {"route", "status"});
  requests.inc({"/api/x/{id}", "200"});
  requests.add(2, {"/api/x/{id}", "200"});
  requests.inc({"a\"b\\c\nd", "500"});
  requests.add(-5, {"/api/x/{id}", "200"});  // counters never go down
  auto& open = registry.gauge("docsd_test_open", "Open.");
  open.add(3);
  open.add(-1);
  auto& latency = registry.histogram("docsd_test_seconds", "Latency.", {}, {0.0005, 0.1, 1});
  latency.observe(0.05);
  latency.observe(0.5);
  latency.observe(7);
  registry.gaugeFunction("docsd_test_read", "Read at scrape.", [] { return 42.5; });
  registry.gaugeFunction("docsd_test_broken", "Throws.", []() -> double { throw std::runtime_error("db down"); });
  std::string text = registry.render();
  EXPECT_NE(
      text.find("# HELP docsd_test_requests_total Requests.\\nSecond line\n# TYPE docsd_test_requests_total counter\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("docsd_test_requests_total{route=\"/api/x/{id}\",status=\"200\"} 3\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("docsd_test_requests_total{route=\"a\\\"b\\\\c\\nd\",status=\"500\"} 1\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("docsd_test_open 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_bucket{le=\"0.0005\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_bucket{le=\"0.1\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_bucket{le=\"1\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_bucket{le=\"+Inf\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_sum 7.55\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_seconds_count 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("docsd_test_read 42.5\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("docsd_test_broken"), std::string::npos) << "a source that throws is left out whole";
}

TEST(MetricsRegistry, NamesAndClashesAreChecked) {
  MetricsRegistry registry;
  EXPECT_THROW(registry.counter("docsd_test_requests", "no _total"), std::invalid_argument);
  EXPECT_THROW(registry.gauge("docsd-test", "dash"), std::invalid_argument);
  EXPECT_THROW(registry.gauge("docsd_test_x", "bad label", {"__reserved"}), std::invalid_argument);
  EXPECT_THROW(registry.histogram("docsd_test_h", "le is the bucket's", {"le"}), std::invalid_argument);
  EXPECT_THROW(registry.histogram("docsd_test_h", "unsorted", {}, {1, 0.5}), std::invalid_argument);
  auto& first = registry.counter("docsd_test_total", "x", {"kind"});
  EXPECT_EQ(&first, &registry.counter("docsd_test_total", "x", {"kind"}));  // same metric again
  EXPECT_THROW(registry.gauge("docsd_test_total", "x", {"kind"}), std::invalid_argument);
  EXPECT_THROW(registry.counter("docsd_test_total", "x", {"other"}), std::invalid_argument);
}

TEST(MetricsRegistry, AFunctionRegisteredAgainReadsTheNewSource) {
  MetricsRegistry registry;
  registry.gaugeFunction("docsd_test_rooms", "Rooms.", [] { return 1.0; });
  registry.gaugeFunction("docsd_test_rooms", "Rooms.", [] { return 2.0; });  // a component started anew
  std::string text = registry.render();
  EXPECT_NE(text.find("docsd_test_rooms 2\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("docsd_test_rooms 1\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("# TYPE docsd_test_rooms"), text.rfind("# TYPE docsd_test_rooms")) << "one family";
  EXPECT_THROW(registry.gauge("docsd_test_rooms", "a stored gauge under a read one's name"), std::invalid_argument);
  registry.gauge("docsd_test_stored", "Stored.");
  EXPECT_THROW(registry.gaugeFunction("docsd_test_stored", "x", [] { return 0.0; }), std::invalid_argument);
}

TEST(MetricsRegistry, UnboundedLabelValuesFoldIntoOther) {
  MetricsRegistry registry;
  auto& counter = registry.counter("docsd_test_total", "x", {"id"});
  for (int i = 0; i < 1000; ++i) counter.inc({std::to_string(i)});
  std::string text = registry.render();
  std::size_t series = 0;
  for (std::size_t at = text.find("docsd_test_total{"); at != std::string::npos;
       at = text.find("docsd_test_total{", at + 1))
    ++series;
  EXPECT_EQ(series, docs::kMaxSeriesPerMetric + 1);
  EXPECT_NE(text.find("docsd_test_total{id=\"other\"} " + std::to_string(1000 - docs::kMaxSeriesPerMetric) + "\n"),
            std::string::npos);
}

TEST(MetricsRegistry, CoreSeriesMayHoldMoreCombinations) {
  MetricsRegistry registry;
  auto& requests = registry.counter("docsd_test_requests_total", "x", {"route", "status"}, 500);
  auto& duration = registry.histogram("docsd_test_request_seconds", "x", {"route"}, {1}, 500);
  for (int i = 0; i < 600; ++i) {
    requests.inc({"/r" + std::to_string(i), "200"});
    duration.observe(0.5, {"/r" + std::to_string(i)});
  }
  std::string text = registry.render();
  EXPECT_NE(text.find("docsd_test_requests_total{route=\"/r499\",status=\"200\"} 1\n"), std::string::npos);
  EXPECT_EQ(text.find("route=\"/r500\""), std::string::npos);
  EXPECT_NE(text.find("docsd_test_requests_total{route=\"other\",status=\"other\"} 100\n"), std::string::npos);
  EXPECT_NE(text.find("docsd_test_request_seconds_count{route=\"other\"} 100\n"), std::string::npos);
}

TEST(MetricsAccess, LoopbackNetworksAndTheToken) {
  MetricsAccess access({"10.1.0.0/16", "2001:db8::/32", "192.0.2.7"}, "tok-123");
  EXPECT_TRUE(access.allows("127.0.0.1", ""));
  EXPECT_TRUE(access.allows("127.8.9.1", ""));
  EXPECT_TRUE(access.allows("::1", ""));
  EXPECT_TRUE(access.allows("::ffff:127.0.0.1", ""));
  EXPECT_TRUE(access.allows("10.1.200.3", ""));
  EXPECT_FALSE(access.allows("10.2.0.1", ""));
  EXPECT_TRUE(access.allows("::ffff:10.1.0.9", ""));
  EXPECT_TRUE(access.allows("2001:db8:1::1", ""));
  EXPECT_FALSE(access.allows("2001:db9::1", ""));
  EXPECT_TRUE(access.allows("192.0.2.7", ""));
  EXPECT_FALSE(access.allows("192.0.2.8", ""));
  EXPECT_FALSE(access.allows("", ""));
  EXPECT_FALSE(access.allows("not-an-address", ""));
  EXPECT_TRUE(access.allows("198.51.100.1", "Bearer tok-123"));
  EXPECT_FALSE(access.allows("198.51.100.1", "Bearer tok-1234"));
  EXPECT_FALSE(access.allows("198.51.100.1", "Bearer tok-12"));
  EXPECT_FALSE(access.allows("198.51.100.1", "bearer tok-123"));
  EXPECT_FALSE(access.allows("198.51.100.1", "tok-123"));
  // Without a token, no Authorization opens it.
  MetricsAccess noToken({}, "");
  EXPECT_FALSE(noToken.allows("198.51.100.1", "Bearer "));
  EXPECT_FALSE(noToken.allows("10.1.0.1", ""));
}

TEST(MetricsAccess, MalformedNetworksAreRefused) {
  for (const char* bad : {"10.0.0.0/33", "10.0.0/8", "::/129", "10.0.0.0/", "10.0.0.0/x", "host.example"})
    EXPECT_THROW(MetricsAccess({bad}, ""), std::invalid_argument) << bad;
  EXPECT_NO_THROW(MetricsAccess({"0.0.0.0/0", "::/0", "[::1]"}, ""));
}
