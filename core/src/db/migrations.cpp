#include "db/migrations.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <docs/codec/codec.hpp>

namespace docs::core {

namespace {

// Arbitrary constant identifying docsd's migration lock among advisory locks.
constexpr std::int64_t kMigrationLockKey = 0x646f637364001;

}  // namespace

MigrationReport applyMigrations(Db& db, const std::vector<Migration>& migrations) {
  std::map<std::string, std::vector<const Migration*>> byOwner;
  for (const auto& m : migrations) {
    if (m.version <= 0) throw MigrationError("migration " + m.owner + "/" + m.name + " has a non-positive version");
    byOwner[m.owner].push_back(&m);
  }
  for (auto& [owner, list] : byOwner) {
    std::sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->version < b->version; });
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i]->version == list[i - 1]->version)
        throw MigrationError("plugin " + owner + " declares migration version " + std::to_string(list[i]->version) +
                             " twice (" + list[i - 1]->name + ", " + list[i]->name + ")");
  }

  MigrationReport report;
  db.transaction([&](Tx& tx) {
    // Transaction-scoped advisory lock: released at commit or rollback, even on crash.
    tx.exec("SELECT pg_advisory_xact_lock($1)", {std::to_string(kMigrationLockKey)});
    tx.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " owner text NOT NULL, version integer NOT NULL, name text NOT NULL, checksum text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, version))");
    std::map<std::string, std::map<int, std::pair<std::string, std::string>>> applied;
    for (auto row : tx.exec("SELECT owner, version, name, checksum FROM schema_migrations"))
      applied[row.text("owner")][static_cast<int>(row.int64("version"))] = {row.text("name"), row.text("checksum")};

    for (const auto& [owner, list] : byOwner) {
      auto& done = applied[owner];
      std::set<int> declared;
      for (const auto* m : list) declared.insert(m->version);
      int highestApplied = done.empty() ? 0 : done.rbegin()->first;
      for (const auto& [version, entry] : done)
        if (!declared.count(version))
          throw MigrationError("plugin " + owner + ": applied migration " + std::to_string(version) + " (" +
                               entry.first + ") is no longer declared; migrations cannot be removed");
      for (const auto* m : list) {
        std::string checksum = codec::sha256Hex(m->sql);
        auto it = done.find(m->version);
        if (it != done.end()) {
          if (it->second.second != checksum)
            throw MigrationError("plugin " + owner + ": migration " + std::to_string(m->version) + " (" + m->name +
                                 ") was changed after it was applied (checksum " + it->second.second.substr(0, 12) +
                                 " in the database, " + checksum.substr(0, 12) +
                                 " now); add a new migration instead of editing an applied one");
          continue;
        }
        if (m->version < highestApplied)
          throw MigrationError("plugin " + owner + ": migration " + std::to_string(m->version) + " (" + m->name +
                               ") is older than the applied migration " + std::to_string(highestApplied) +
                               "; new migrations must have higher versions");
        try {
          tx.execScript(m->sql);
        } catch (const DbError& error) {
          throw MigrationError("plugin " + owner + ": migration " + std::to_string(m->version) + " (" + m->name +
                               ") failed: " + error.what());
        }
        tx.exec("INSERT INTO schema_migrations (owner, version, name, checksum) VALUES ($1, $2, $3, $4)",
                {owner, m->version, m->name, checksum});
        report.applied.push_back(owner + "/" + std::to_string(m->version) + " " + m->name);
      }
    }
  });
  return report;
}

}  // namespace docs::core
