#pragma once
// One /collaboration socket: any number of documents, each authenticated on its own.
// It parses frames, queues what arrives before a document's token, checks and rechecks
// access, and hands updates to the server's group commit (collab_server.hpp).

#include <docs/http.hpp>
#include <docs/websocket.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol.hpp"
#include "room.hpp"

namespace docs_collab {

class CollabServer;

class CollabSession final : public docs::WebSocketSession {
 public:
  CollabSession(CollabServer& server, std::shared_ptr<docs::WebSocketConnection> connection);
  ~CollabSession() override;

  void onMessage(std::string_view data, bool binary) override;
  void onClose(std::uint16_t code) override;

 private:
  using Clock = std::chrono::steady_clock;
  enum class Phase { Pending, Open, Denied };
  struct DocumentState {
    Phase phase = Phase::Pending;
    std::vector<std::string> queue;  // frames received before authentication
    std::shared_ptr<Room> room;
    std::uint64_t memberId = 0;
    std::optional<docs::Principal> principal;
    Clock::time_point checkedAt{};
  };
  // The locked room and this document's member entry in it.
  struct Locked {
    std::unique_lock<std::mutex> lock;
    Member* member = nullptr;
  };

  // Closes the socket (once) after leaving every room.
  void fail(std::uint16_t code, const std::string& reason);
  // The per-socket message rate (a token bucket).
  bool takeToken();
  void dispatch(const Incoming& in, std::string_view frame);
  void deny(const std::string& address, DocumentState& doc, const std::string& reason);
  void authenticate(const std::string& address, DocumentState& doc, const std::string& token);
  void dropQueue(DocumentState& doc);
  Locked lockRoom(DocumentState& doc);
  void recheckAccess(const std::string& address, DocumentState& doc);
  void handleWrite(const std::string& address, DocumentState& doc, const SyncMessage& sync);
  // A message of an open document.
  void handle(const Incoming& in, DocumentState& doc);
  void leave(DocumentState& doc);
  void leaveAll();

  CollabServer& server_;
  std::shared_ptr<docs::WebSocketConnection> connection_;
  std::map<std::string, DocumentState> documents_;
  std::size_t queuedMessages_ = 0;
  std::size_t queuedBytes_ = 0;
  double tokens_;
  Clock::time_point refilledAt_;
  bool closed_ = false;
  bool userCounted_ = false;
  bool vouched_ = false;  // a valid token was presented on this socket
  std::string countedUser_;
};

}  // namespace docs_collab
