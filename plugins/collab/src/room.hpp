#pragma once
// One open document: the Yjs document every editor of a page shares, its awareness,
// and who is in it. Everything here is guarded by `mutex`.

#include <docs/websocket.hpp>
#include <docs/ydoc/doc.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <docs/http.hpp>

#include "awareness.hpp"

namespace docs_collab {

// One client of one document. The room holds its scope, so a permission change can be
// applied to open connections from outside their socket.
struct Member {
  std::string address;  // echoed in every frame to this member
  std::shared_ptr<docs::WebSocketConnection> connection;
  std::optional<docs::Principal> principal;
  bool readOnly = true;
  std::set<std::uint64_t> awarenessClients;  // awareness client ids it controls
};

struct Room {
  Room(std::int64_t project, std::int64_t page, std::string roomName)
      : projectId(project), pageId(page), name(std::move(roomName)) {}

  const std::int64_t projectId;
  const std::int64_t pageId;
  const std::string name;

  std::mutex mutex;
  std::unique_ptr<docs::ydoc::Doc> doc;  // null until loaded
  Awareness awareness;
  std::map<std::uint64_t, Member> members;  // by member id
  // Other nodes holding this page open (relayed to), with the awareness clients of their
  // editors (removed here when that node closes the page).
  std::map<std::string, std::set<std::uint64_t>> peers;
  bool retired = false;  // unloaded: joiners must look it up again

  int pendingWrites = 0;              // applied in memory, waiting for their group commit
  std::int64_t appliedLogId = 0;      // newest committed log row in doc
  std::int64_t compactedLogId = 0;    // newest log row folded into the stored content
  std::size_t storedFingerprint = 0;  // of the content as this process last read or wrote it
  std::chrono::steady_clock::time_point firstUnfolded{};
  std::chrono::steady_clock::time_point lastChange{};

  bool dirty() const { return appliedLogId > compactedLogId; }
};

}  // namespace docs_collab
