#pragma once
// MCP sessions, kept in PostgreSQL so every node knows them, each bound to its caller.

#include <chrono>
#include <optional>
#include <string>

namespace docs {
class Db;
}

namespace docs_mcp {

struct McpSession {
  std::string id;
  std::string userId;           // "" for an anonymous caller
  std::string protocolVersion;  // as negotiated at initialize
};

class Sessions {
 public:
  Sessions(docs::Db& db, std::chrono::minutes idle);

  McpSession open(const std::string& userId, const std::string& protocolVersion, const std::string& clientName);
  // The live session with this id opened by this caller; another caller's is not found.
  // Marks it seen, at most once a minute.
  std::optional<McpSession> find(const std::string& id, const std::string& userId);
  bool close(const std::string& id, const std::string& userId);
  // Drops sessions idle longer than the limit.
  void cleanUp();

 private:
  docs::Db& db_;
  std::chrono::minutes idle_;
};

}  // namespace docs_mcp
