#pragma once
// The collaboration server: rooms of open documents, the Hocuspocus protocol per
// socket (collab_session.hpp), durable updates (logged through the pages plugin's
// Documents service before they are acknowledged or broadcast: room_writer.cpp), the
// compactor that folds the log into page content (compactor.cpp), and the relay between
// nodes (peer_relay.cpp).

#include <docs/http.hpp>
#include <docs/metrics.hpp>
#include <docs/websocket.hpp>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "collab_services.hpp"
#include "history_store.hpp"
#include "room.hpp"

namespace docs {
class Context;
class Tx;
}  // namespace docs

namespace docs_collab {

struct CollabLimits {
  std::size_t maxMessageBytes = 8 << 20;
  double messagesPerSecond = 200;
  double messageBurst = 1000;
  std::size_t maxDocumentsPerConnection = 100;
  int maxConnectionsPerUser = 100;
  std::size_t maxQueuedMessages = 1000;  // per socket, before authentication
  std::size_t maxQueuedBytes = 5 << 20;
  // Until a socket presents a valid token: the largest message, and what it may queue.
  std::size_t maxUnauthenticatedFrameBytes = 256 << 10;
  std::chrono::milliseconds authDeadline{10000};  // 0: none
  std::chrono::milliseconds pingInterval{30000};  // 0: no pings
  std::size_t maxSendQueueBytes = 16 << 20;       // per socket, then closed with 1013
  std::size_t maxReceiveQueueBytes = 4 << 20;     // per socket, then it is not read for a while
  std::chrono::milliseconds closeTimeout{5000};   // after our close frame, then the socket is reset
  std::size_t maxAwarenessStates = 4;             // client ids one connection may set in one document
  std::size_t maxAwarenessStateBytes = 8192;
  std::chrono::milliseconds compactDebounce{2000};
  std::chrono::milliseconds compactMaxDelay{10000};
  std::chrono::milliseconds accessRecheck{2000};
};

// What a caller may do in a room, decided at authentication and rechecked while open.
struct RoomAccess {
  bool allowed = false;
  bool readOnly = true;
  std::string reason;  // for PermissionDenied
};

// A room name "{projectId}__{pageId}" with positive ids; nullopt otherwise.
std::optional<std::pair<std::int64_t, std::int64_t>> parseRoomName(std::string_view name);
// A decimal id above zero without a leading zero; nullopt otherwise.
std::optional<std::int64_t> positiveId(std::string_view text);

// Thrown by CollabServer::applyUpdateAs after stop() began: the edit was not applied.
class EditorStopping : public std::runtime_error {
 public:
  explicit EditorStopping(std::int64_t pageId)
      : std::runtime_error("collab is stopping: the edit of page " + std::to_string(pageId) + " was not applied") {}
};

class CollabServer {
 public:
  // Built in configure(): no I/O and no thread until start().
  CollabServer(docs::Context& context, const CollabServices& services, CollabLimits limits);
  ~CollabServer();

  // Registers the metrics and starts the writer, fan-out and compactor threads.
  void start();
  // Folds every open room into stored content and stops the compactor.
  void stop();

  std::unique_ptr<docs::WebSocketSession> accept(const docs::Request& request,
                                                 std::shared_ptr<docs::WebSocketConnection> connection);
  void onSessionRevoked(const std::string& sessionId);
  void onPageDeleted(std::int64_t pageId);
  void onProjectDeleted(std::int64_t projectId);
  // Sends a Stateless message to the page's editors on this node (every node hears the
  // event that calls it, so every editor gets it once).
  void broadcastStateless(std::int64_t pageId, std::string_view payload);
  // Relay messages from other nodes holding the same page open (relay.hpp).
  void onPeerRoom(const nlohmann::json& payload);
  void onPeerUpdates(const nlohmann::json& payload);
  void onPeerAwareness(const nlohmann::json& payload);
  // Sends an awareness update of this node's editors to the other nodes holding the page.
  void relayAwareness(const Room& room, std::span<const std::uint8_t> update);
  // Folds the logs of pages that are not open here (after a restart or crash).
  void foldStoredLogs();
  // Folds the page's room (or, when it is not open here, its log) into stored content now.
  bool flush(std::int64_t pageId);
  HistoryStore& history() { return history_; }

  // Applies an update through the page's room on behalf of a user, who is logged as its
  // author (a history restore): open editors see it live. False when the page does not
  // exist; EditorStopping once stop() began.
  bool applyUpdateAs(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId);
  // The page's document as its room holds it (loaded for it), or nullopt when the page
  // does not exist.
  std::optional<std::string> currentState(std::int64_t pageId);
  // A server-side edit merged into the stored document (page.content_replaced): a room
  // open here takes what it lacks from storage and sends it to its editors.
  void onContentReplaced(std::int64_t projectId, std::int64_t pageId);
  // Names this process in the log rows it writes and the relay messages it sends.
  const std::string& node() const { return node_; }

  // Used by the per-socket sessions.
  const CollabLimits& limits() const { return limits_; }
  RoomAccess decideAccess(std::int64_t projectId, std::int64_t pageId, const std::optional<docs::Principal>& principal);
  std::optional<docs::Principal> authenticate(std::string_view token);
  // The loaded room, locked; retries when it was unloaded meanwhile.
  std::pair<std::shared_ptr<Room>, std::unique_lock<std::mutex>> lockedRoom(std::int64_t projectId,
                                                                            std::int64_t pageId);
  std::uint64_t nextMemberId() { return ++memberIds_; }

  // Stopping: stop() began, so the update was refused (and not applied).
  enum class WriteResult { Queued, NothingNew, Invalid, Stopping };
  // Who wrote an update and who waits for it to be durable.
  struct Writer {
    std::shared_ptr<docs::WebSocketConnection> connection;  // acknowledged after the commit (may be null)
    std::string address;
    std::optional<std::int64_t> userId;
    std::shared_ptr<std::promise<bool>> committed;  // set after the commit (may be null)
  };
  // Applies a writer's update in a locked room and queues it for the group commit; only
  // after the commit is it acknowledged and fanned out to every member. On Invalid the
  // room is reloaded from storage. If the commit fails every member is disconnected to
  // resynchronise from what is stored. Never blocks on a stopped writer: once stop()
  // began it answers Stopping.
  WriteResult write(const std::shared_ptr<Room>& room, std::span<const std::uint8_t> update, Writer writer);
  // Sends a frame built per member address to every member of a locked room.
  void broadcast(Room& room, const std::function<std::vector<std::uint8_t>(const std::string& address)>& frame);

  // Whether member `claimant` of a locked room may set awareness states for `client`: it
  // is its own, or it makes it its own (an id nobody holds, or one the same person holds
  // on another socket: a reconnect before the old socket is seen gone). Ids of other
  // people, or of editors on other nodes, are refused, as is more than `maxStates` ids.
  static bool claimAwarenessClient(Room& room, std::uint64_t claimant, std::uint64_t client, std::size_t maxStates);
  // Removes a member from a locked room and tells the others its cursors are gone.
  void removeMember(Room& room, std::uint64_t memberId);
  // Applies a permission change to every open connection of a project at once.
  void revalidateProject(std::int64_t projectId);

  bool registerUserConnection(const std::string& userId);
  void unregisterUserConnection(const std::string& userId);
  void trackSession(const std::string& sessionId, const std::shared_ptr<docs::WebSocketConnection>& connection);

 private:
  void load(Room& room);
  // Folds a room's new log rows into stored content; returns false if storage failed.
  bool compact(const std::shared_ptr<Room>& room);
  // The content a fold stores: the room's state, merged with what other nodes stored or
  // logged when there is any (which the room's editors then receive too).
  std::string mergeForFold(const std::shared_ptr<Room>& room, const std::vector<std::uint8_t>& state,
                           const docs::FoldInput& input);
  void compactorLoop();
  void writerLoop();
  void fanoutLoop();
  void resetRoom(Room& room, const char* reason);
  // Takes into a loaded room what storage holds that it lacks (content and log rows
  // written beside it), sends that to its editors and marks the rows for its next fold.
  void absorbStored(const std::shared_ptr<Room>& room);
  // The room of a page if it is loaded here (never loads one).
  std::shared_ptr<Room> loadedRoom(std::int64_t projectId, std::int64_t pageId);
  // Sends an awareness update to the other nodes (unless empty or too big to carry).
  void publishAwareness(std::int64_t projectId, std::int64_t pageId, std::span<const std::uint8_t> update);
  // Tells the other nodes this node opened or closed a page.
  void announce(std::int64_t projectId, std::int64_t pageId, bool open, bool reply);
  // Applies updates another node committed and passes what is new to the editors here.
  void applyFromPeer(const std::shared_ptr<Room>& room, const std::string& node,
                     const std::vector<std::string>& updates);

  struct PendingWrite {
    std::shared_ptr<Room> room;
    std::string update;
    Writer writer;
  };
  std::mutex writesMutex_;
  std::condition_variable writesWake_;
  std::deque<PendingWrite> writes_;
  bool writerStopping_ = false;
  std::thread writerThread_;

  // Committed batches on their way to the rooms' members (acknowledgements and updates).
  struct CommittedBatch {
    std::vector<PendingWrite> writes;
    std::vector<std::int64_t> ids;  // log ids, in the order of writes
  };
  static constexpr std::size_t kMaxCommittedBatches = 4;
  void fanOut(std::vector<PendingWrite>& batch, const std::vector<std::int64_t>& ids);
  std::mutex fanoutMutex_;
  std::condition_variable fanoutWake_;  // a batch was committed, or stop
  std::condition_variable fanoutRoom_;  // a batch left the queue
  std::deque<CommittedBatch> committed_;
  bool fanoutStopping_ = false;
  std::thread fanoutThread_;

  docs::Context& context_;
  const CollabServices& services_;
  CollabLimits limits_;
  const std::string node_;
  HistoryStore history_;
  std::mutex roomsMutex_;
  std::map<std::string, std::shared_ptr<Room>> rooms_;
  std::atomic<std::uint64_t> memberIds_{0};
  // docs/metrics.md: registered in start().
  docs::Counter* updatesApplied_ = nullptr;
  docs::Histogram* commitBatch_ = nullptr;
  docs::Histogram* commitSeconds_ = nullptr;
  docs::Histogram* relayLag_ = nullptr;

  std::mutex usersMutex_;
  std::map<std::string, int> connectionsPerUser_;
  std::multimap<std::string, std::weak_ptr<docs::WebSocketConnection>> connectionsBySession_;

  std::mutex compactorMutex_;
  std::condition_variable compactorWake_;
  bool stopping_ = false;
  std::thread compactor_;
};

}  // namespace docs_collab
