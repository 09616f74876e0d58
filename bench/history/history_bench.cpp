// Page history at scale: a page with 100,000 logged updates (one typed character each,
// three writers) and a version every 100 of them. Measures, through the real docsd,
// listing the history and rebuilding versions (GET .../history/{v}?format=json), against
// rebuilding the document by replaying the whole log (read from page_log and applied
// with core/ydoc, as a history without stored versions would have to).
//
// usage: history_bench [updates] [updates_per_version]   (needs the test cluster:
// bench/history/run.sh starts one)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <libpq-fe.h>
#include <nlohmann/json.hpp>

#include <docs/codec/codec.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>
#include <docs/ydoc/xml.hpp>

#include "test_support.hpp"

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A bytea literal in PostgreSQL's hex format.
std::string hex(const std::vector<std::uint8_t>& bytes) {
  return "\\x" + docs::codec::hexEncode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

struct Stats {
  double p50, p95, max;
};
Stats stats(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) {
    return samples[std::min(samples.size() - 1, static_cast<std::size_t>(q * static_cast<double>(samples.size())))];
  };
  return {at(0.5), at(0.95), samples.back()};
}

void exec(PGconn* db, const std::string& sql) {
  PGresult* result = PQexec(db, sql.c_str());
  auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string message = PQresultErrorMessage(result);
    PQclear(result);
    throw std::runtime_error(message);
  }
  PQclear(result);
}

}  // namespace

namespace {

int run(int argc, char** argv) {
  const int updates = argc > 1 ? std::stoi(argv[1]) : 100000;
  const int perVersion = argc > 2 ? std::stoi(argv[2]) : 100;
  docs::test::TestDatabase database;
  docs::test::TempDir dataDir;
  docs::test::Docsd::Options options;
  options.env = {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab"},
                 {"DOCS_HISTORY_SNAPSHOT_CHECK_MS", "3600000"},
                 {"DOCS_HISTORY_THIN_INTERVAL_SECONDS", "86400"},
                 {"DOCS_LOG_ACCESS", "false"},
                 {"DOCS_LOG_LEVEL", "warn"}};
  options.dataDir = dataDir.path();
  options.databaseUrl = database.url();
  auto docsd = std::make_unique<docs::test::Docsd>(options);
  if (!docsd->start()) {
    std::cerr << docsd->log();
    return 1;
  }
  std::vector<docs::test::SignedIn> writers;
  for (auto email : {"ada@example.com", "bo@example.com", "cy@example.com"})
    writers.push_back(docs::test::signInByEmail(*docsd, email));
  auto headers = writers[0].bearer();
  headers["Content-Type"] = "application/json";
  auto created = docs::test::httpRequest(docsd->port(), "POST", "/api/project",
                                         json{{"name", "Bench"}, {"is_private", true}}.dump(), headers);
  auto projectId = json::parse(created.body)["id"].get<std::int64_t>();
  auto project =
      docs::test::httpRequest(docsd->port(), "GET", "/api/project?projectId=" + std::to_string(projectId), "", headers);
  auto pageId = json::parse(project.body)["default_page_id"].get<std::int64_t>();
  docsd->terminate();  // nothing folds the log while it is written and replayed

  // The edits: three writers take turns typing paragraphs of 60 characters.
  auto started = Clock::now();
  docs::ydoc::Doc doc(7);
  auto& fragment = doc.root("default");
  docs::ydoc::YType* text = nullptr;
  std::uint64_t paragraphs = 0, column = 0;
  PGconn* db = PQconnectdb(database.url().c_str());
  if (PQstatus(db) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(db));
  std::string page = std::to_string(pageId);
  std::string logBatch, versionBatch;
  int versions = 0;
  for (int i = 0; i < updates; ++i) {
    auto before = doc.encodeStateVector();
    doc.transact([&](docs::ydoc::Transaction& tr) {
      if (!text || column == 60) {
        auto* paragraph = docs::ydoc::insertElement(doc, tr, fragment, paragraphs++, "paragraph");
        text = docs::ydoc::insertXmlText(doc, tr, *paragraph, 0);
        column = 0;
      }
      docs::ydoc::insertText(doc, tr, *text, column++,
                             {{std::u16string(1, u'a' + static_cast<char16_t>(i % 26)), {}, false}});
    });
    auto update = doc.encodeStateAsUpdate(before);
    const auto& writer = writers[(i / 500) % writers.size()];
    logBatch += (logBatch.empty() ? "" : ",") + ("(" + page + ",'" + hex(update) + "'," + writer.userId + ")");
    if ((i + 1) % 1000 == 0 || i + 1 == updates) {
      exec(db, "INSERT INTO page_log (page_id, update, user_id) VALUES " + logBatch);
      logBatch.clear();
    }
    if ((i + 1) % perVersion == 0) {
      auto state = doc.encodeStateAsUpdate();
      versionBatch +=
          (versionBatch.empty() ? "" : ",") + ("(" + page + ",'" + hex(state) + "','{" + writer.userId + "}')");
      ++versions;
      if (versions % 20 == 0) {
        exec(db, "INSERT INTO page_versions (page_id, state, authors) VALUES " + versionBatch);
        versionBatch.clear();
      }
    }
  }
  if (!versionBatch.empty()) exec(db, "INSERT INTO page_versions (page_id, state, authors) VALUES " + versionBatch);
  auto finalState = doc.encodeStateAsUpdate();
  std::cout << "setup: " << updates << " updates, " << versions << " versions, final state " << finalState.size()
            << " bytes, " << static_cast<int>(msSince(started)) << " ms\n";

  // The peer: rebuild by replaying the whole log (read it, apply every update, read the
  // document as ProseMirror JSON), as a history without versions would.
  std::vector<double> replay;
  for (int run = 0; run < 3; ++run) {
    auto t0 = Clock::now();
    PGresult* rows = PQexecParams(db, ("SELECT update FROM page_log WHERE page_id = " + page + " ORDER BY id").c_str(),
                                  0, nullptr, nullptr, nullptr, nullptr, 1);
    docs::ydoc::Doc replayed;
    for (int r = 0; r < PQntuples(rows); ++r) {
      auto* bytes = reinterpret_cast<const std::uint8_t*>(PQgetvalue(rows, r, 0));
      replayed.applyUpdate({bytes, static_cast<std::size_t>(PQgetlength(rows, r, 0))});
    }
    PQclear(rows);
    auto pm = docs::ydoc::toProseMirrorJson(replayed);
    replay.push_back(msSince(t0));
    if (pm["content"].size() != paragraphs) throw std::runtime_error("the replay lost paragraphs");
  }
  exec(db, "DELETE FROM page_log WHERE page_id = " + page);  // so the restarted docsd folds nothing
  PQfinish(db);

  docsd = std::make_unique<docs::test::Docsd>(options);
  if (!docsd->start()) {
    std::cerr << docsd->log();
    return 1;
  }
  std::string base = "/api/page/" + page + "/history";
  auto listing = json::parse(docs::test::httpRequest(docsd->port(), "GET", base + "?limit=200", "", headers).body);
  std::vector<std::int64_t> ids;
  std::string cursor;
  while (true) {
    for (const auto& v : listing["versions"]) ids.push_back(v["id"].get<std::int64_t>());
    if (listing["next_cursor"].is_null()) break;
    listing = json::parse(docs::test::httpRequest(
                              docsd->port(), "GET",
                              base + "?limit=200&cursor=" + std::to_string(listing["next_cursor"].get<std::int64_t>()),
                              "", headers)
                              .body);
  }
  if (static_cast<int>(ids.size()) != versions) throw std::runtime_error("the history does not list every version");
  std::vector<double> list, deep, rebuild, newest;
  std::mt19937 pick(42);
  for (int run = 0; run < 50; ++run) {
    auto t0 = Clock::now();
    auto r = docs::test::httpRequest(docsd->port(), "GET", base, "", headers);
    list.push_back(msSince(t0));
    if (r.status != 200) throw std::runtime_error("list: " + r.body);
    auto middle = ids[pick() % ids.size()];
    t0 = Clock::now();
    r = docs::test::httpRequest(docsd->port(), "GET", base + "?cursor=" + std::to_string(middle), "", headers);
    deep.push_back(msSince(t0));
    auto any = ids[pick() % ids.size()];
    t0 = Clock::now();
    r = docs::test::httpRequest(docsd->port(), "GET", base + "/" + std::to_string(any), "", headers);
    rebuild.push_back(msSince(t0));
    if (r.status != 200) throw std::runtime_error("get: " + r.body);
    t0 = Clock::now();
    r = docs::test::httpRequest(docsd->port(), "GET", base + "/" + std::to_string(ids.front()), "", headers);
    newest.push_back(msSince(t0));
  }
  auto print = [](const char* name, const Stats& s) {
    std::printf("%-44s p50 %8.1f ms  p95 %8.1f ms  max %8.1f ms\n", name, s.p50, s.p95, s.max);
  };
  print("list history (newest 50)", stats(list));
  print("list history (50 from a random cursor)", stats(deep));
  print("rebuild a random version (GET json)", stats(rebuild));
  print("rebuild the newest version (GET json)", stats(newest));
  print("peer: replay the whole log (read+apply+json)", stats(replay));
  std::printf("rebuild newest vs replay (p50): %.0fx faster\n", stats(replay).p50 / stats(newest).p50);
  return 0;
}

}  // namespace

// A failure (no database, a file that cannot be read) is a message and exit 1, not an abort.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "history_bench: %s\n", error.what());
    return 1;
  }
}
