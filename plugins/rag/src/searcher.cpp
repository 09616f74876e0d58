#include "searcher.hpp"

#include <docs/db.hpp>

#include <algorithm>
#include <map>
#include <sstream>

#include "identifiers.hpp"
#include "role_prior.hpp"

namespace docs_rag {

using docs::Db;
using docs::Result;
using docs::Tx;

namespace {

constexpr double kFusionK = 60;  // reciprocal rank fusion's constant
constexpr int kMaxCandidates = 2000;
constexpr std::size_t kMaxNameQueryWords = 3;   // trigram names only for short, name-like queries
constexpr int kMaxRanked = 2000;                // matches ranked per statement, at most
constexpr const char* kNameSimilarity = "0.6";  // pg_trgm threshold for the names list

std::string idArray(const std::vector<std::int64_t>& ids) {
  std::string array = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) array += (i ? "," : "") + std::to_string(ids[i]);
  return array + "}";
}

struct Traits {
  std::string role;
  bool api = false;
  bool changeLog = false;  // a changelog's or release notes' chunk
};
using TraitsById = std::map<std::int64_t, Traits>;

// The ids in order; each one's role and api flag into `traits` when given.
std::vector<std::int64_t> idsOf(const Result& rows, TraitsById* traits = nullptr) {
  std::vector<std::int64_t> ids;
  for (auto row : rows) {
    ids.push_back(row.int64("id"));
    if (traits)
      (*traits)[ids.back()] = {row.text("role"), row.boolean("api"), isChangeLog(row.text("title"), row.text("path"))};
  }
  return ids;
}

// Only these reach SQL text (they come from a fixed list, never from a request).
bool knownTextLanguage(const std::string& language) {
  return language == "english" || language == "russian" || language == "german";
}

std::vector<std::int64_t> textRanked(Db& db, const std::string& expression, const std::string& kind,
                                     const std::string& projects, int candidates, TraitsById& traits,
                                     const std::vector<std::string>& languages) {
  if (expression.empty()) return {};
  // Ranking reads every match's vector: a common word in a million chunks costs seconds.
  // A bounded set of matches is ranked instead (docs/benchmarks.md, rag at 1M chunks;
  // rag-quality.md measured no loss from the cap). The question is stemmed once per
  // configuration in use, each branch matching only chunks built with it (an index scan
  // with a constant query each).
  std::string branches;
  for (const auto& language : languages) {
    if (!knownTextLanguage(language)) continue;
    if (!branches.empty()) branches += " UNION ALL ";
    branches += "SELECT id, search, q, role, api, title, path FROM rag_chunks, to_tsquery('" + language +
                "', $3) AS q"
                " WHERE project_id = ANY($1::bigint[]) AND kind = $2 AND lang = '" +
                language + "' AND search @@ q";
  }
  if (branches.empty()) return {};
  return idsOf(db.exec("SELECT id, role, api, title, path FROM (SELECT * FROM (" + branches +
                           ") AS every_language LIMIT $5) AS matches"
                           " ORDER BY ts_rank(search, q, 1) DESC, id LIMIT $4",
                       {projects, kind, expression, static_cast<std::int64_t>(candidates),
                        static_cast<std::int64_t>(kMaxRanked)}),
               &traits);
}

std::vector<std::int64_t> nameRanked(Db& db, const std::string& words, const std::string& kind,
                                     const std::string& projects, int candidates, TraitsById& traits) {
  std::vector<std::int64_t> ids;
  db.transaction([&](Tx& tx) {
    // At pg_trgm's default of 0.3 a two-word name is "similar" to a tenth of a million
    // chunks, each read back from the table (0.5 to 1.1 s); at 0.6, 10 to 41 ms
    // (docs/benchmarks.md, rag at 1M chunks). Words themselves are the full-text lists' job.
    tx.exec("SET LOCAL pg_trgm.similarity_threshold = " + std::string(kNameSimilarity));
    ids = idsOf(
        tx.exec(
            "SELECT id, role, api, title, path FROM rag_chunks WHERE project_id = ANY($1::bigint[]) AND kind = $2 AND "
            "names % $3"
            " ORDER BY similarity(names, $3) DESC, id LIMIT $4",
            {projects, kind, words, static_cast<std::int64_t>(candidates)}),
        &traits);
  });
  return ids;
}

std::size_t wordCount(const std::string& words) {
  std::istringstream in(words);
  std::size_t count = 0;
  for (std::string word; in >> word;) ++count;
  return count;
}

}  // namespace

std::string textSearchLanguage(const std::string& projectLanguage) {
  if (projectLanguage == "ru") return "russian";
  if (projectLanguage == "de") return "german";
  return "english";
}

std::vector<Hit> searchChunks(Db& db, const std::string& query, const std::string& kind,
                              const std::vector<std::int64_t>& projectIds, int limit, Ranking ranking, bool withPrior,
                              const std::vector<std::string>& textLanguages) {
  std::vector<Hit> hits;
  if (limit <= 0 || projectIds.empty()) return hits;
  const std::string projects = idArray(projectIds);
  withPrior = withPrior && ranking == Ranking::Fused;
  // With the prior, demoted candidates (tests that share the question's words) must not
  // crowd out the ones it would lift: a deeper list.
  const int candidates = std::min(kMaxCandidates, withPrior ? std::max(limit * 3, 60) : std::max(limit * 2, 30));
  const QueryIntent intent = intentOf(query);
  TraitsById traits;
  auto prior = [&](std::int64_t id) {
    auto found = traits.find(id);
    return found == traits.end()
               ? 1.0
               : rolePrior(intent, kind, found->second.role, found->second.api, found->second.changeLog);
  };

  std::map<std::int64_t, double> fused;
  auto addList = [&](const std::vector<std::int64_t>& ids) {
    for (std::size_t rank = 0; rank < ids.size(); ++rank)
      fused[ids[rank]] += 1.0 / (kFusionK + static_cast<double>(rank) + 1);
  };
  if (ranking == Ranking::PlainText) {
    addList(
        idsOf(db.exec("SELECT id FROM rag_chunks, websearch_to_tsquery('english', $3) AS q"
                      " WHERE project_id = ANY($1::bigint[]) AND kind = $2 AND search @@ q"
                      " ORDER BY ts_rank(search, q) DESC, id LIMIT $4",
                      {projects, kind, query, static_cast<std::int64_t>(candidates)})));
  } else {
    auto everyWord = textRanked(db, tsQueryExpression(query, true), kind, projects, candidates, traits, textLanguages);
    int unDemoted = 0;
    for (auto id : everyWord) unDemoted += !withPrior || prior(id) >= 1.0;
    if (unDemoted < limit) {
      // Too few chunks hold every word (or only demoted ones do): rank those holding any,
      // the complete ones first.
      auto anyWord = textRanked(db, tsQueryExpression(query, false), kind, projects, candidates, traits, textLanguages);
      std::erase_if(anyWord, [&](std::int64_t id) {
        return std::find(everyWord.begin(), everyWord.end(), id) != everyWord.end();
      });
      everyWord.insert(everyWord.end(), anyWord.begin(), anyWord.end());
    }
    addList(everyWord);
    std::string words = nameWords(query);
    if (!words.empty() && wordCount(words) <= kMaxNameQueryWords)
      addList(nameRanked(db, words, kind, projects, candidates, traits));
    if (withPrior)
      for (auto& [id, score] : fused) score *= prior(id);
  }

  std::vector<std::pair<std::int64_t, double>> order(fused.begin(), fused.end());
  std::sort(order.begin(), order.end(),
            [](auto& a, auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  if (static_cast<int>(order.size()) > limit) order.resize(static_cast<std::size_t>(limit));
  if (order.empty()) return hits;
  std::vector<std::int64_t> ids;
  for (auto& [id, score] : order) ids.push_back(id);
  std::map<std::int64_t, Hit> byId;
  for (auto row : db.exec("SELECT id, project_id, kind, path, start_line, end_line, symbol, symbol_kind, language,"
                          " coalesce(page_id, 0) AS page_id, title, content, role, api, doc FROM rag_chunks WHERE id = "
                          "ANY($1::bigint[])",
                          {idArray(ids)})) {
    Hit hit;
    hit.id = row.int64("id");
    hit.projectId = row.int64("project_id");
    hit.kind = row.text("kind");
    hit.path = row.text("path");
    hit.startLine = static_cast<int>(row.int64("start_line"));
    hit.endLine = static_cast<int>(row.int64("end_line"));
    hit.symbol = row.text("symbol");
    hit.symbolKind = row.text("symbol_kind");
    hit.language = row.text("language");
    hit.pageId = row.int64("page_id");
    hit.title = row.text("title");
    hit.content = row.text("content");
    hit.role = row.text("role");
    hit.api = row.boolean("api");
    hit.doc = row.text("doc");
    byId[hit.id] = std::move(hit);
  }
  for (auto& [id, score] : order) {
    auto found = byId.find(id);
    if (found == byId.end()) continue;  // deleted meanwhile
    found->second.score = score;
    hits.push_back(std::move(found->second));
  }
  return hits;
}

}  // namespace docs_rag
