// The typed event topics (docs/topics.hpp): every payload survives the bus's JSON, the
// forms released publishers write are read, and a payload that does not parse is logged
// and dropped without reaching the handler.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "docs/db.hpp"
#include "docs/services/analysis.hpp"
#include "docs/services/github_access.hpp"
#include "docs/topics.hpp"

namespace {

using nlohmann::json;

struct LogLine {
  docs::LogLevel level;
  std::string message;
  json fields;
};

class RecordingLogger final : public docs::Logger {
 public:
  void log(docs::LogLevel level, std::string_view message, const json& fields) override {
    lines.push_back({level, std::string(message), fields});
  }
  std::vector<LogLine> lines;
};

struct Published {
  std::string topic;
  json payload;
  bool afterCommit = false;
};

class RecordingBus final : public docs::EventBus {
 public:
  void publish(std::string_view topic, const json& payload) override { sent.push_back({std::string(topic), payload}); }
  void publishAfterCommit(docs::Tx& tx, std::string_view topic, const json& payload) override {
    tx.afterCommit([this, name = std::string(topic), payload] { sent.push_back({name, payload, true}); });
  }
  std::vector<Published> sent;
};

// Keeps the after-commit actions; commit() runs them.
class FakeTx final : public docs::Tx {
 public:
  docs::Result exec(std::string_view, const docs::Params&) override { throw std::logic_error("no database here"); }
  void execScript(std::string_view) override { throw std::logic_error("no database here"); }
  void afterCommit(std::function<void()> action) override { actions_.push_back(std::move(action)); }
  void commit() {
    for (auto& action : actions_) action();
    actions_.clear();
  }

 private:
  std::vector<std::function<void()>> actions_;
};

class TestContext final : public docs::Context {
 public:
  const docs::Config& config() const override { throw std::logic_error("no configuration here"); }
  docs::Db& db() override { throw std::logic_error("no database here"); }
  docs::JobQueue& jobs() override { throw std::logic_error("no job queue here"); }
  docs::EventBus& events() override { return bus; }
  docs::Logger& logger() override { return logger_; }
  const std::string& dataDir() const override { return dataDir_; }

  RecordingBus bus;
  RecordingLogger logger_;

 private:
  std::string dataDir_;
};

// Keeps the subscriptions; deliver() is what the bus does with a payload.
class TestRegistry final : public docs::Registry {
 public:
  docs::Context& context() override { return context_; }
  void route(docs::Method, std::string, docs::Handler, docs::RouteOptions, docs::RouteDoc) override {}
  void websocket(std::string, docs::WebSocketAcceptor, docs::WebSocketOptions) override {}
  void migration(int, std::string, std::string) override {}
  void jobHandler(std::string, docs::JobHandler) override {}
  void periodic(std::string, docs::PeriodicOptions, std::function<void()>) override {}
  void subscribe(std::string topic, docs::EventHandler handler) override {
    handlers_[topic].push_back(std::move(handler));
  }
  void configKey(std::string, std::string, std::string) override {}
  void command(docs::Command) override {}
  void clientEndpoint(docs::ClientEndpoint) override {}
  void clientSetting(std::string, std::function<docs::Json()>) override {}
  void apiPrefix(std::string) override {}
  void provideServiceById(std::string, void*) override {}
  void needServiceById(std::string, docs::ServiceNeed, docs::ServiceSlot&) override {}

  void deliver(const std::string& topic, const json& payload) {
    for (auto& handler : handlers_[topic]) handler(payload);
  }
  std::size_t subscriptions(const std::string& topic) { return handlers_[topic].size(); }

  TestContext context_;

 private:
  std::map<std::string, std::vector<docs::EventHandler>> handlers_;
};

// Publishes `sent` (now and after a commit), carries the JSON through a text round trip
// as NOTIFY does, and delivers it to a subscriber: what arrives equals what was sent.
template <class Payload>
void expectRoundTrip(docs::Topic<Payload> topic, const Payload& sent) {
  SCOPED_TRACE(std::string(topic.name));
  TestRegistry registry;
  std::vector<Payload> received;
  docs::on(registry, topic, [&](const Payload& payload) { received.push_back(payload); });
  ASSERT_EQ(registry.subscriptions(std::string(topic.name)), 1u);

  auto& bus = registry.context_.bus;
  docs::publish(bus, topic, sent);
  FakeTx tx;
  docs::publishAfterCommit(bus, tx, topic, sent);
  ASSERT_EQ(bus.sent.size(), 1u);  // after commit: not yet
  tx.commit();
  ASSERT_EQ(bus.sent.size(), 2u);
  EXPECT_TRUE(bus.sent[1].afterCommit);
  for (const auto& message : bus.sent) {
    EXPECT_EQ(message.topic, topic.name);
    registry.deliver(message.topic, json::parse(message.payload.dump()));
  }
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0], sent);
  EXPECT_EQ(received[1], sent);
  EXPECT_TRUE(registry.context_.logger_.lines.empty());
}

// What a subscriber makes of one payload: the parsed value, or nullopt when it was dropped.
template <class Payload>
std::optional<Payload> received(docs::Topic<Payload> topic, const json& payload, RecordingLogger* log = nullptr) {
  TestRegistry registry;
  std::optional<Payload> got;
  int calls = 0;
  docs::on(registry, topic, [&](const Payload& value) {
    got = value;
    ++calls;
  });
  registry.deliver(std::string(topic.name), payload);
  EXPECT_LE(calls, 1);
  if (log) log->lines = registry.context_.logger_.lines;
  return got;
}

TEST(Topics, EveryPayloadSurvivesTheBus) {
  expectRoundTrip(docs::kUserCreated, {12, "ada@example.com"});
  expectRoundTrip(docs::kUserDeleted, {12, "ada@example.com"});
  expectRoundTrip(docs::kSessionRevoked, {"pat:7", 12});
  expectRoundTrip(docs::kProjectCreated, {3, "github", "https://github.com/o/r", "de", 12});
  expectRoundTrip(docs::kProjectCreated, {3, "user", std::nullopt, "en", 0});
  expectRoundTrip(docs::kProjectDeleted, {3});
  expectRoundTrip(docs::kProjectVisibilityChanged, {3, "public"});
  expectRoundTrip(docs::kProjectZipUploaded, {3, "/data/uploads/projects/3/src.zip", "src.zip", 5'000'000'000ULL});
  expectRoundTrip(docs::kRbacGranted, {3, "bo@example.com", docs::Role::Write});
  expectRoundTrip(docs::kRbacChanged, {3, "bo@example.com", docs::Role::Admin});
  expectRoundTrip(docs::kRbacRevoked, {3, "bo@example.com", std::nullopt});
  expectRoundTrip(docs::kPageCreated, {3, 40});
  expectRoundTrip(docs::kPageUpdated, {3, 41});
  expectRoundTrip(docs::kPageContentReplaced, {3, 42});
  expectRoundTrip(docs::kPageDeleted, {3, {40, 41, 9'007'199'254'740'993}});
  expectRoundTrip(docs::kCommentChanged, {3, 40, 8, "thread_deleted"});
  expectRoundTrip(docs::kGithubPush, {3, "0123abcd", "refs/heads/main"});
  expectRoundTrip(docs::kGithubPush, {3, "", "refs/heads/main"});
  expectRoundTrip(docs::kAnalysisChanged, {3});
}

TEST(Topics, NamesAreTheWireNames) {
  std::vector<std::string_view> names = {
      docs::kUserCreated.name,         docs::kUserDeleted.name,    docs::kSessionRevoked.name,
      docs::kProjectCreated.name,      docs::kProjectDeleted.name, docs::kProjectVisibilityChanged.name,
      docs::kProjectZipUploaded.name,  docs::kRbacGranted.name,    docs::kRbacChanged.name,
      docs::kRbacRevoked.name,         docs::kPageCreated.name,    docs::kPageUpdated.name,
      docs::kPageContentReplaced.name, docs::kPageDeleted.name,    docs::kCommentChanged.name,
      docs::kGithubPush.name,          docs::kAnalysisChanged.name};
  std::vector<std::string_view> expected = {"user.created",          "user.deleted",    "session.revoked",
                                            "project.created",       "project.deleted", "project.visibility_changed",
                                            "project.zip_uploaded",  "rbac.granted",    "rbac.changed",
                                            "rbac.revoked",          "page.created",    "page.updated",
                                            "page.content_replaced", "page.deleted",    "comment.changed",
                                            "github.push",           "analysis.changed"};
  EXPECT_EQ(names, expected);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(docs::kGithubPushEvent, docs::kGithubPush.name);
  EXPECT_EQ(docs::kAnalysisChangedEvent, docs::kAnalysisChanged.name);
#pragma GCC diagnostic pop
}

// What nodes of the previous release read: the exact JSON they get from this one.
TEST(Topics, WritesTheFormsReleasedSubscribersRead) {
  EXPECT_EQ(docs::UserCreated({12, "ada@example.com"}).toJson(),
            json::parse(R"({"user_id":12,"email":"ada@example.com"})"));
  EXPECT_EQ(docs::SessionRevoked({"s1", 12}).toJson(), json::parse(R"({"session_id":"s1","user_id":12})"));
  EXPECT_EQ(docs::ProjectCreated({3, "user", std::nullopt, "en", 12}).toJson(),
            json::parse(R"({"project_id":3,"type":"user","git_url":null,"language":"en","user_id":12})"));
  EXPECT_EQ(docs::ZipUploaded({3, "/u/a.zip", "a.zip", 10}).toJson(),
            json::parse(R"({"project_id":3,"path":"/u/a.zip","file_name":"a.zip","size":10})"));
  EXPECT_EQ(docs::RbacChange({3, "bo@example.com", docs::Role::Read}).toJson(),
            json::parse(R"({"project_id":3,"email":"bo@example.com","role":"read"})"));
  EXPECT_EQ(docs::RbacChange({3, "bo@example.com", std::nullopt}).toJson(),
            json::parse(R"({"project_id":3,"email":"bo@example.com"})"));
  EXPECT_EQ(docs::PagesDeleted({3, {4, 5}}).toJson(), json::parse(R"({"project_id":3,"page_ids":[4,5]})"));
  EXPECT_EQ(docs::CommentChanged({3, 4, 5, "created"}).toJson(),
            json::parse(R"({"project_id":3,"page_id":4,"thread_id":5,"change":"created"})"));
  EXPECT_EQ(docs::GithubPush({3, "abc", "refs/heads/main"}).toJson(),
            json::parse(R"({"project_id":3,"after":"abc","ref":"refs/heads/main"})"));
}

// The forms published before the typed topics (auth's ids as strings, page.deleted with
// page_id), and fields a newer publisher may add.
TEST(Topics, ReadsTheFormsReleasedPublishersWrite) {
  EXPECT_EQ(received(docs::kUserCreated, json::parse(R"({"user_id":"12","email":"ada@example.com"})")),
            docs::UserCreated({12, "ada@example.com"}));
  EXPECT_EQ(received(docs::kUserDeleted, json::parse(R"({"user_id":"12"})")), docs::UserDeleted({12}));
  EXPECT_EQ(received(docs::kSessionRevoked, json::parse(R"({"session_id":"pat:3","user_id":"12"})")),
            docs::SessionRevoked({"pat:3", 12}));
  EXPECT_EQ(
      received(
          docs::kProjectCreated,
          json::parse(
              R"({"project_id":3,"type":"github","git_url":"https://github.com/o/r","language":"ru","user_id":"12"})")),
      docs::ProjectCreated({3, "github", "https://github.com/o/r", "ru", 12}));
  // user_id is informational: a principal that is not a number gave 0 before, and still does.
  EXPECT_EQ(received(docs::kProjectCreated,
                     json::parse(R"({"project_id":3,"type":"user","git_url":null,"language":"en","user_id":"x"})")),
            docs::ProjectCreated({3, "user", std::nullopt, "en", 0}));
  EXPECT_EQ(received(docs::kPageDeleted, json::parse(R"({"project_id":3,"page_id":40})")),
            docs::PagesDeleted({3, {40}}));
  EXPECT_EQ(received(docs::kPageDeleted, json::parse(R"({"page_id":"40"})")), docs::PagesDeleted({0, {40}}));
  EXPECT_EQ(received(docs::kPageDeleted, json::parse(R"({"page_ids":[40,"41"]})")), docs::PagesDeleted({0, {40, 41}}));
  EXPECT_EQ(received(docs::kPageDeleted, json::parse(R"({"project_id":3,"page_id":39,"page_ids":[40]})")),
            docs::PagesDeleted({3, {39, 40}}));
  EXPECT_EQ(received(docs::kRbacRevoked, json::parse(R"({"project_id":"3","email":"bo@example.com","role":null})")),
            docs::RbacChange({3, "bo@example.com", std::nullopt}));
  EXPECT_EQ(received(docs::kPageUpdated, json::parse(R"({"page_id":41,"project_id":3,"by":"collab","v":2})")),
            docs::PageChanged({3, 41}));
}

TEST(Topics, APayloadThatDoesNotParseIsLoggedAndDropped) {
  struct Case {
    json payload;
    std::string why;
  };
  auto expectDropped = [](auto topic, const Case& c) {
    SCOPED_TRACE(std::string(topic.name) + " " + c.payload.dump());
    RecordingLogger log;
    EXPECT_FALSE(received(topic, c.payload, &log).has_value());
    ASSERT_EQ(log.lines.size(), 1u);
    EXPECT_EQ(log.lines[0].level, docs::LogLevel::Warn);
    EXPECT_EQ(log.lines[0].message, "event payload dropped");
    EXPECT_EQ(log.lines[0].fields.value("topic", ""), topic.name);
    EXPECT_NE(log.lines[0].fields.value("error", "").find(c.why), std::string::npos) << log.lines[0].fields.dump();
  };
  for (const auto& c :
       std::vector<Case>{{json::parse(R"({})"), "'project_id' is missing"},
                         {json::parse(R"({"project_id":null})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":0})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":-3})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":3.5})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":"3a"})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":""})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":"99999999999999999999"})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":"-3"})"), "'project_id' is not an id"},
                         {json::parse(R"({"project_id":9223372036854775808})"), "'project_id' is not an id"},
                         {json::parse(R"([3])"), "not a JSON object"},
                         {json(), "not a JSON object"}})
    expectDropped(docs::kProjectDeleted, c);
  expectDropped(docs::kUserCreated, {json::parse(R"({"email":"ada@example.com"})"), "'user_id' is missing"});
  expectDropped(docs::kUserDeleted, {json::parse(R"({"user_id":"ada"})"), "'user_id' is not an id"});
  expectDropped(docs::kUserCreated, {json::parse(R"({"user_id":12})"), "'email' is missing"});
  expectDropped(docs::kUserCreated, {json::parse(R"({"user_id":12,"email":""})"), "'email' is empty"});
  expectDropped(docs::kSessionRevoked,
                {json::parse(R"({"session_id":7,"user_id":12})"), "'session_id' is not a string"});
  expectDropped(docs::kPageDeleted, {json::parse(R"({"project_id":3})"), "neither 'page_ids' nor 'page_id'"});
  expectDropped(docs::kPageDeleted,
                {json::parse(R"({"project_id":3,"page_ids":[]})"), "neither 'page_ids' nor 'page_id'"});
  expectDropped(docs::kPageDeleted, {json::parse(R"({"page_ids":[4,"x"]})"), "'page_ids' holds something"});
  expectDropped(docs::kPageDeleted, {json::parse(R"({"page_ids":4})"), "'page_ids' is not an array"});
  expectDropped(docs::kPageCreated, {json::parse(R"({"project_id":3})"), "'page_id' is missing"});
  expectDropped(docs::kRbacGranted,
                {json::parse(R"({"project_id":3,"email":"bo@example.com","role":"owner"})"), "'role' is not a role"});
  expectDropped(
      docs::kProjectZipUploaded,
      {json::parse(R"({"project_id":3,"path":"/a","file_name":"a.zip","size":-1})"), "'size' is not a count"});
  expectDropped(docs::kCommentChanged,
                {json::parse(R"({"project_id":3,"page_id":4,"change":"created"})"), "'thread_id' is missing"});
  expectDropped(docs::kGithubPush,
                {json::parse(R"({"project_id":3,"after":null,"ref":"refs/heads/main"})"), "'after' is not a string"});
}

// on() catches only what parsing throws; a failing handler is the bus's to log, as before.
TEST(Topics, WhatTheHandlerThrowsReachesTheBus) {
  TestRegistry registry;
  docs::on(registry, docs::kProjectDeleted,
           [](const docs::ProjectDeleted&) { throw std::runtime_error("handler failed"); });
  EXPECT_THROW(registry.deliver("project.deleted", json::parse(R"({"project_id":3})")), std::runtime_error);
  EXPECT_TRUE(registry.context_.logger_.lines.empty());
}

}  // namespace
