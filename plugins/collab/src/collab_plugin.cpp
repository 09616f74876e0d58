// The collab plugin module: the /collaboration WebSocket endpoint, live rooms over the
// pages plugin's Documents (each update logged before it is acknowledged), the
// compactor, and page history.
#include <docs/plugin.hpp>
#include <docs/topics.hpp>

#include <memory>

#include "collab_server.hpp"
#include "collab_services.hpp"
#include "history_routes.hpp"
#include "history_service.hpp"
#include "relay.hpp"

#include "collab_migrations.hpp"

namespace {

class CollabPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("collab.max_message_bytes", "8388608",
                       "Largest WebSocket message accepted (bigger ones close the socket with 1009).");
    registry.configKey("collab.messages_per_second", "200",
                       "Sustained messages per second per connection (a burst of collab.message_burst is allowed).");
    registry.configKey("collab.message_burst", "1000",
                       "Messages a connection may send at once before the rate limit applies.");
    registry.configKey("collab.max_documents_per_connection", "100", "Documents one socket may open.");
    registry.configKey("collab.max_connections_per_user", "100", "Open collaboration sockets per user.");
    registry.configKey("collab.compact_debounce_ms", "2000",
                       "Quiet time after the last edit before the log is folded into the page.");
    registry.configKey("collab.compact_max_delay_ms", "10000",
                       "Longest time an edit stays only in the log while editing continues.");
    registry.configKey("collab.access_recheck_ms", "2000",
                       "How often a writer's permission is checked again on an open connection.");
    registry.configKey("collab.auth_deadline_ms", "10000",
                       "Time a socket has to present a valid token before it is closed with 1008 (0: none).");
    registry.configKey("collab.max_unauthenticated_frame_bytes", "262144",
                       "Largest message (and pre-authentication queue) of a socket that has not presented a valid "
                       "token; bigger ones close it with 1009.");
    registry.configKey("collab.ping_interval_ms", "30000",
                       "A WebSocket ping every this often; a socket that sent nothing since the last one, not even the "
                       "pong, is closed with 1008 (0: no pings).");
    registry.configKey("collab.max_send_queue_bytes", "16777216",
                       "Bytes waiting for a socket that does not read; past this it is closed with 1013 (one larger "
                       "message still goes alone).");
    registry.configKey(
        "collab.max_receive_queue_bytes", "4194304",
        "Received bytes waiting to be handled per socket; past this the socket is not read until they are.");
    registry.configKey("collab.close_timeout_ms", "5000",
                       "Time a socket has, after the server's close frame, to take it and close; then it is reset.");
    registry.configKey("collab.max_awareness_states", "4",
                       "Awareness client ids one connection may set in one document (its own, announced first).");
    registry.configKey("collab.max_awareness_state_bytes", "8192",
                       "Largest awareness state kept and fanned out; larger ones are dropped.");
    registry.configKey("history.idle_seconds", "60",
                       "A version of a page is taken once its editing has paused this long.");
    registry.configKey("history.max_interval_seconds", "600",
                       "While editing goes on, a version of a page at least this often.");
    registry.configKey("history.snapshot_check_ms", "5000",
                       "How often pages with changes are checked for a version due.");
    registry.configKey("history.thin_interval_seconds", "3600",
                       "How often old versions are thinned (all of the last day, hourly for a week, daily after; "
                       "labelled ones kept).");
    docs_plugin_collab::registerMigrations(registry);

    const auto& config = context_->config();
    limits_.maxMessageBytes = static_cast<std::size_t>(config.getInt("collab.max_message_bytes"));
    limits_.messagesPerSecond = static_cast<double>(config.getInt("collab.messages_per_second"));
    limits_.messageBurst = static_cast<double>(config.getInt("collab.message_burst"));
    limits_.maxDocumentsPerConnection = static_cast<std::size_t>(config.getInt("collab.max_documents_per_connection"));
    limits_.maxConnectionsPerUser = static_cast<int>(config.getInt("collab.max_connections_per_user"));
    limits_.compactDebounce = std::chrono::milliseconds(config.getInt("collab.compact_debounce_ms"));
    limits_.compactMaxDelay = std::chrono::milliseconds(config.getInt("collab.compact_max_delay_ms"));
    limits_.accessRecheck = std::chrono::milliseconds(config.getInt("collab.access_recheck_ms"));
    historySettings_.idleSeconds = std::max<std::int64_t>(0, config.getInt("history.idle_seconds"));
    historySettings_.maxIntervalSeconds = std::max<std::int64_t>(1, config.getInt("history.max_interval_seconds"));
    auto count = [&](const char* key) {
      return static_cast<std::size_t>(std::max<std::int64_t>(0, config.getInt(key)));
    };
    limits_.authDeadline = std::chrono::milliseconds(count("collab.auth_deadline_ms"));
    limits_.maxUnauthenticatedFrameBytes = count("collab.max_unauthenticated_frame_bytes");
    limits_.pingInterval = std::chrono::milliseconds(count("collab.ping_interval_ms"));
    limits_.maxSendQueueBytes = count("collab.max_send_queue_bytes");
    limits_.maxReceiveQueueBytes = count("collab.max_receive_queue_bytes");
    limits_.closeTimeout = std::chrono::milliseconds(count("collab.close_timeout_ms"));
    limits_.maxAwarenessStates = count("collab.max_awareness_states");
    limits_.maxAwarenessStateBytes = count("collab.max_awareness_state_bytes");

    docs::WebSocketOptions options;
    options.maxMessageBytes = limits_.maxMessageBytes;
    options.maxUnauthenticatedMessageBytes = limits_.maxUnauthenticatedFrameBytes;
    options.authDeadlineMs = static_cast<std::uint32_t>(limits_.authDeadline.count());
    options.pingIntervalMs = static_cast<std::uint32_t>(limits_.pingInterval.count());
    options.maxQueuedBytes = limits_.maxSendQueueBytes;
    options.maxPendingBytes = limits_.maxReceiveQueueBytes;
    options.closeTimeoutMs = static_cast<std::uint32_t>(limits_.closeTimeout.count());
    // Built here, started in start(): nothing reaches them before every plugin started.
    services_ = std::make_unique<docs_collab::CollabServices>(registry);
    server_ = std::make_unique<docs_collab::CollabServer>(*context_, *services_, limits_);
    historyService_ = std::make_unique<docs_collab::HistoryService>(*context_, *server_, *services_, historySettings_);
    registry.websocket(
        "/collaboration",
        [this](const docs::Request& request, std::shared_ptr<docs::WebSocketConnection> connection)
            -> std::unique_ptr<docs::WebSocketSession> { return server_->accept(request, std::move(connection)); },
        options);
    // The web app's editor connects to collabUrl (y.<host> with server.subhosts).
    registry.clientEndpoint({"collabUrl", "y", "/collaboration", true});

    registry.provideService<docs::PageHistory>(*historyService_);
    docs_collab::addHistoryRoutes(registry, *historyService_, *server_, *services_);
    docs::on(registry, docs::kSessionRevoked,
             [this](const docs::SessionRevoked& event) { server_->onSessionRevoked(event.sessionId); });
    // A server-side edit (Documents::apply): open rooms take it from storage.
    docs::on(registry, docs::kPageContentReplaced,
             [this](const docs::PageChanged& event) { server_->onContentReplaced(event.projectId, event.pageId); });
    docs::on(registry, docs::kPageDeleted, [this](const docs::PagesDeleted& event) {
      for (auto pageId : event.pageIds) server_->onPageDeleted(pageId);
    });
    // Permission and visibility changes reach open connections at once.
    for (auto topic : {docs::kRbacGranted, docs::kRbacChanged, docs::kRbacRevoked})
      docs::on(registry, topic, [this](const docs::RbacChange& event) { server_->revalidateProject(event.projectId); });
    docs::on(registry, docs::kProjectVisibilityChanged,
             [this](const docs::VisibilityChanged& event) { server_->revalidateProject(event.projectId); });
    // Comments changed (plugins/comments): the page's editors here fetch its threads again.
    docs::on(registry, docs::kCommentChanged, [this](const docs::CommentChanged& event) {
      docs::Json news = {
          {"type", "comments"}, {"page_id", event.pageId}, {"thread_id", event.threadId}, {"change", event.change}};
      server_->broadcastStateless(event.pageId, news.dump());
    });
    docs::on(registry, docs::kProjectDeleted,
             [this](const docs::ProjectDeleted& event) { server_->onProjectDeleted(event.projectId); });
    // Other nodes holding the same pages open (live relay of updates and presence).
    registry.subscribe(std::string(docs_collab::relay::kRoomTopic),
                       [this](const docs::Json& payload) { server_->onPeerRoom(payload); });
    registry.subscribe(std::string(docs_collab::relay::kUpdatesTopic),
                       [this](const docs::Json& payload) { server_->onPeerUpdates(payload); });
    registry.subscribe(std::string(docs_collab::relay::kAwarenessTopic),
                       [this](const docs::Json& payload) { server_->onPeerAwareness(payload); });
    docs::PeriodicOptions fold;
    fold.interval = std::chrono::seconds(30);
    registry.periodic("fold_logs", fold, [this] { server_->foldStoredLogs(); });
    // Page history off the hot path: versions are cut from what compactions folded.
    docs::PeriodicOptions snapshots;
    snapshots.interval =
        std::chrono::milliseconds(std::max<std::int64_t>(100, config.getInt("history.snapshot_check_ms")));
    registry.periodic("history_snapshots", snapshots, [this] { historyService_->takeDueSnapshots(); });
    docs::PeriodicOptions thinning;
    thinning.interval = std::chrono::seconds(std::max<std::int64_t>(1, config.getInt("history.thin_interval_seconds")));
    registry.periodic("history_thinning", thinning, [this] { historyService_->thin(); });
  }

  void start() override { server_->start(); }

  void stop() override { server_->stop(); }

 private:
  docs::Context* context_ = nullptr;
  docs_collab::CollabLimits limits_;
  docs_collab::HistorySettings historySettings_;
  // Declared first: the server and the history hold references to the services.
  std::unique_ptr<docs_collab::CollabServices> services_;
  std::unique_ptr<docs_collab::CollabServer> server_;
  std::unique_ptr<docs_collab::HistoryService> historyService_;
};

}  // namespace

DOCS_PLUGIN(CollabPlugin, "collab", "1.0.0", "auth,rbac,pages",
            "Real-time collaboration over the Hocuspocus protocol, with every update logged before it is acknowledged")
