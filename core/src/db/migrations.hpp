#pragma once
// Per-plugin ordered, checksummed migrations, applied under an advisory lock so several
// nodes starting at once apply each migration exactly once.

#include <string>
#include <vector>

#include "docs/db.hpp"

namespace docs::core {

struct Migration {
  std::string owner;  // "core" or the plugin name
  int version = 0;
  std::string name;
  std::string sql;
};

struct MigrationReport {
  std::vector<std::string> applied;  // "owner/version name"
};

class MigrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Validates then applies what is missing. Refuses (MigrationError) when an applied
// migration's text changed, when one was removed, when versions repeat, or when a new
// migration is older than one already applied.
MigrationReport applyMigrations(Db& db, const std::vector<Migration>& migrations);

}  // namespace docs::core
