// The example plugin: one of everything the plugin API offers, small enough to read.

#include <docs/plugin.hpp>
#include <docs/topics.hpp>

#include <atomic>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "example_migrations.hpp"

namespace {

using docs::AnswerDoc;
using docs::BodyDoc;
using docs::HttpError;
using docs::Json;
using docs::Method;
using docs::Request;
using docs::Response;
using docs::RouteAccess;
using docs::RouteDoc;

// The plugin's own event: a topic name with its payload type (docs/topics.hpp).
struct NoteProcessed {
  std::int64_t id = 0;

  Json toJson() const { return {{"id", id}}; }
  static NoteProcessed fromJson(const Json& payload) {
    if (!payload.is_object() || !payload.contains("id") || !payload["id"].is_number_integer())
      throw docs::PayloadError("'id' is not an integer");
    return {payload["id"].get<std::int64_t>()};
  }
};
constexpr docs::Topic<NoteProcessed> kNoteProcessed{"example.note_processed"};

void bumpCounter(docs::Tx& tx, const std::string& name) {
  tx.exec(
      "INSERT INTO example_counters (name, value) VALUES ($1, 1)"
      " ON CONFLICT (name) DO UPDATE SET value = example_counters.value + 1",
      {name});
}

// Echoes every message back to its sender.
class EchoSession final : public docs::WebSocketSession {
 public:
  explicit EchoSession(std::shared_ptr<docs::WebSocketConnection> connection) : connection_(std::move(connection)) {}
  void onMessage(std::string_view data, bool binary) override {
    if (binary) connection_->sendBinary(data);
    else connection_->sendText(data);
  }
  void onClose(std::uint16_t) override {}

 private:
  std::shared_ptr<docs::WebSocketConnection> connection_;
};

class ExamplePlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("example.greeting", "hello", "What GET /api/example/hello says.");
    registry.configKey("example.tick_ms", "60000", "Interval of the example periodic task.");
    docs_plugin_example::registerMigrations(registry);
    // A value for the web app, in GET /config.json while this plugin is loaded.
    registry.clientSetting("exampleGreeting",
                           [this] { return docs::Json(context_->config().getString("example.greeting")); });
    // A metric of its own on GET /metrics (docs/metrics.md): a fixed label set, never an id.
    notesCreated_ = &context_->metrics().counter(
        "docsd_example_notes_created_total", "Notes created through POST /api/example/notes, by outcome.", {"outcome"});

    // Each route describes itself for GET /api/openapi.json (docs/route_doc.hpp): who may
    // call, parameters, body and answers. The JSON answers' schemas are checked against
    // what the route really answers (tests/integration/openapi_test.cpp).
    RouteDoc hello;
    hello.summary = "The configured greeting";
    hello.access = RouteAccess::Anyone;
    hello.answers = {
        docs::jsonAnswer(200, "example.greeting",
                         {{"type", "object"},
                          {"required", {"message", "plugin"}},
                          {"additionalProperties", false},
                          {"properties", {{"message", {{"type", "string"}}}, {"plugin", {{"const", "example"}}}}}})};
    registry.route(
        Method::Get, "/api/example/hello",
        [this](Request&, Response& response) {
          response.json({{"message", context_->config().getString("example.greeting")}, {"plugin", "example"}});
        },
        {}, hello);

    docs::RouteOptions small;
    small.maxBodyBytes = 64 * 1024;
    RouteDoc echo;
    echo.summary = "Answers the JSON object it was sent";
    echo.access = RouteAccess::Anyone;
    echo.body = BodyDoc{"application/json", {{"type", "object"}}, "any JSON object, at most 64 KiB"};
    echo.answers = {docs::jsonAnswer(200, "the same object", {{"type", "object"}}),
                    docs::errorAnswer(400, "not a JSON object"), docs::errorAnswer(413, "over 64 KiB")};
    registry.route(
        Method::Post, "/api/example/echo",
        [](Request& request, Response& response) { response.json(request.jsonObject()); }, small, echo);

    // A named schema goes to components.schemas once, whichever routes name it.
    const Json note = {
        {"type", "object"},
        {"required", {"id", "text", "processed"}},
        {"additionalProperties", false},
        {"properties",
         {{"id", {{"type", "integer"}}}, {"text", {{"type", "string"}}}, {"processed", {{"type", "boolean"}}}}}};
    RouteDoc createNote;
    createNote.summary = "Adds a note; a job marks it processed";
    createNote.access = RouteAccess::Anyone;
    createNote.body = BodyDoc{"application/json",
                              {{"type", "object"},
                               {"required", {"text"}},
                               {"properties", {{"text", {{"type", "string"}, {"minLength", 1}}}}}}};
    createNote.answers = {
        docs::jsonAnswer(201, "created",
                         {{"type", "object"}, {"required", {"id"}}, {"properties", {{"id", {{"type", "integer"}}}}}}),
        docs::errorAnswer(400, "'text' missing or empty (invalid_field)")};
    registry.route(
        Method::Post, "/api/example/notes",
        [this](Request& request, Response& response) {
          Json body = request.jsonObject();
          if (!body.contains("text") || !body["text"].is_string() || body["text"].get<std::string>().empty()) {
            notesCreated_->inc({"refused"});
            throw HttpError::badRequest("'text' must be a non-empty string", "invalid_field");
          }
          std::int64_t id = 0;
          context_->db().transaction([&](docs::Tx& tx) {
            id = tx.exec("INSERT INTO example_notes (text) VALUES ($1) RETURNING id",
                         {body["text"].get<std::string>()})[0]
                     .int64("id");
            context_->jobs().enqueue(tx, {"example.process_note", {{"id", id}}});
          });
          notesCreated_->inc({"created"});
          response.json({{"id", id}}, 201);
        },
        {}, createNote);

    RouteDoc readNote;
    readNote.summary = "A note";
    readNote.access = RouteAccess::Anyone;
    readNote.params = {{"id", docs::ParamIn::Path, "the note's id", true, {{"type", "integer"}, {"minimum", 1}}}};
    readNote.answers = {docs::jsonAnswer(200, "the note", docs::schemaRef("ExampleNote")),
                        docs::errorAnswer(400, "the id is not a positive integer"),
                        docs::errorAnswer(404, "no such note")};
    readNote.schemas = {{"ExampleNote", note}};
    registry.route(
        Method::Get, "/api/example/notes/{id}",
        [this](Request& request, Response& response) {
          auto rows = context_->db().exec("SELECT id, text, processed FROM example_notes WHERE id = $1",
                                          {request.idParam("id")});
          if (rows.empty()) throw HttpError::notFound("No note " + request.param("id"));
          response.json({{"id", rows[0].int64("id")},
                         {"text", rows[0].text("text")},
                         {"processed", rows[0].boolean("processed")}});
        },
        {}, readNote);

    RouteDoc statsDoc;
    statsDoc.summary = "Counters: notes_processed, ticks, events_seen, slow_started, slow_finished";
    statsDoc.access = RouteAccess::Anyone;
    statsDoc.answers = {docs::jsonAnswer(200, "each counter by name",
                                         {{"type", "object"},
                                          {"required", {"events_seen"}},
                                          {"properties", {{"events_seen", {{"type", "integer"}}}}},
                                          {"additionalProperties", {{"type", "integer"}}}})};
    registry.route(
        Method::Get, "/api/example/stats",
        [this](Request&, Response& response) {
          Json stats = {{"events_seen", eventsSeen_.load()}};
          for (auto row : context_->db().exec("SELECT name, value FROM example_counters"))
            stats[row.text("name")] = row.int64("value");
          response.json(stats);
        },
        {}, statsDoc);

    docs::RouteOptions upload;
    upload.maxBodyBytes = 8 << 20;
    upload.streamBody = true;
    registry.route(
        Method::Post, "/api/example/upload",
        [](Request& request, Response& response) {
          char buffer[65536];
          std::uint64_t total = 0;
          while (std::size_t n = request.bodyReader().read(buffer, sizeof buffer)) total += n;
          response.json({{"bytes", total}});
        },
        upload,
        RouteDoc{
            "Counts the bytes of a streamed body",
            "",
            {},
            RouteAccess::Anyone,
            {},
            BodyDoc{"application/octet-stream", nullptr, "any bytes, at most 8 MiB"},
            {docs::jsonAnswer(
                 200, "the body's size",
                 {{"type", "object"}, {"required", {"bytes"}}, {"properties", {{"bytes", {{"type", "integer"}}}}}}),
             docs::errorAnswer(413, "over 8 MiB")},
            {}});

    registry.jobHandler("example.process_note", [this](docs::JobContext& job) {
      std::int64_t id = job.payload().at("id").get<std::int64_t>();
      context_->db().transaction([&](docs::Tx& tx) {
        tx.exec("UPDATE example_notes SET processed = true WHERE id = $1", {id});
        bumpCounter(tx, "notes_processed");
        docs::publishAfterCommit(context_->events(), tx, kNoteProcessed, {id});
      });
    });

    // A job that takes a while, to show that shutdown waits for running jobs. With
    // after_stop it first waits for docsd's stop to begin (job.stopping()), then sleeps.
    RouteDoc slow;
    slow.summary = "Queues a job that sleeps";
    slow.access = RouteAccess::Anyone;
    slow.body = BodyDoc{
        "application/json",
        {{"type", "object"},
         {"properties",
          {{"ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 60000}}}, {"after_stop", {{"type", "boolean"}}}}}}};
    slow.answers = {
        docs::jsonAnswer(202, "the job's id",
                         {{"type", "object"}, {"required", {"job"}}, {"properties", {{"job", {{"type", "integer"}}}}}}),
        docs::errorAnswer(400, "'ms' out of range")};
    registry.route(
        Method::Post, "/api/example/slow",
        [this](Request& request, Response& response) {
          Json body = request.jsonObject();
          int ms = body.value("ms", 1000);
          if (ms < 0 || ms > 60000) throw HttpError::badRequest("'ms' must be 0 to 60000", "invalid_field");
          bool afterStop = body.value("after_stop", false);
          response.json({{"job", context_->jobs().enqueue({"example.slow", {{"ms", ms}, {"after_stop", afterStop}}})}},
                        202);
        },
        {}, slow);
    registry.jobHandler("example.slow", [this](docs::JobContext& job) {
      context_->db().transaction([](docs::Tx& tx) { bumpCounter(tx, "slow_started"); });
      if (job.payload().value("after_stop", false)) {
        // At most a minute, so a docsd that never stops does not keep it forever.
        auto giveUp = std::chrono::steady_clock::now() + std::chrono::minutes(1);
        while (!job.stopping() && std::chrono::steady_clock::now() < giveUp)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(job.payload().at("ms").get<int>()));
      context_->db().transaction([](docs::Tx& tx) { bumpCounter(tx, "slow_finished"); });
    });

    docs::on(registry, kNoteProcessed, [this](const NoteProcessed&) { ++eventsSeen_; });

    docs::PeriodicOptions tick;
    tick.interval = std::chrono::milliseconds(context_->config().getInt("example.tick_ms"));
    registry.periodic("tick", tick,
                      [this] { context_->db().transaction([](docs::Tx& tx) { bumpCounter(tx, "ticks"); }); });

    registry.websocket("/api/example/ws", [](const Request&, std::shared_ptr<docs::WebSocketConnection> connection) {
      return std::make_unique<EchoSession>(std::move(connection));
    });

    // `docsd example-greet [NAME]`: a command of the plugin's own, run with no server.
    docs::Command greet;
    greet.name = "example-greet";
    greet.usage = "[NAME]";
    greet.summary = "print example.greeting and NAME (default: world), without a server";
    greet.keys = {"example.greeting"};
    greet.run = [this](const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
      if (args.size() > 1) {
        err << "usage: docsd example-greet [NAME]\n";
        return 64;
      }
      out << context_->config().getString("example.greeting") << ", " << (args.empty() ? "world" : args[0]) << "\n";
      return 0;
    };
    registry.command(std::move(greet));
  }

  void start() override { context_->logger().info("example plugin started"); }
  void stop() override { context_->logger().info("example plugin stopped"); }

 private:
  docs::Context* context_ = nullptr;
  docs::Counter* notesCreated_ = nullptr;
  std::atomic<std::int64_t> eventsSeen_{0};
};

}  // namespace

// Opt-in: plugins.enabled=all (the default) leaves it out of a production install; name it
// to load it (plugins.enabled=all,example), as the tests do.
DOCS_PLUGIN_WITH_FLAGS(ExamplePlugin, "example", "1.0.0", "",
                       "Shows every part of the plugin API (routes, jobs, events, WebSockets, a command)",
                       docs::kPluginOptIn)
