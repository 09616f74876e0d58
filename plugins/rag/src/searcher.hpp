#pragma once
// Ranked retrieval over rag_chunks: full-text search on identifier-aware text (every
// word first, any word when that finds too little) fused with trigram similarity of
// symbol names, by reciprocal rank, then weighed by the file role as a prior. Callers
// pass only projects the caller may read.

#include <cstdint>
#include <string>
#include <vector>

namespace docs {
class Db;
}

namespace docs_rag {

struct Hit {
  std::int64_t id = 0;
  std::int64_t projectId = 0;
  std::string kind;  // code | docs
  std::string path;
  int startLine = 0;
  int endLine = 0;
  std::string symbol;
  std::string symbolKind;
  std::string language;
  std::int64_t pageId = 0;
  std::string title;
  std::string content;
  std::string role;  // the file's role; "" for pages not generated for a file
  bool api = false;  // documented public library code
  std::string doc;   // code: the symbol's doc comment
  double score = 0;  // fused rank, times the role prior
};

enum class Ranking {
  Fused,      // ours: identifier-aware FTS + trigram names, fused
  PlainText,  // the baseline: websearch_to_tsquery over the same vectors, ts_rank
};

// Up to `limit` chunks of `kind` in `projectIds`, best first. With rolePrior, each
// candidate's fused score is weighed by its file's role for what the query asks
// (role_prior.hpp): tests and examples yield unless asked for, guides and documented
// public API lead for questions in words.
// `textLanguages`: the text-search configurations the projects' chunks use (english
// always; a ru or de project's pages russian or german): the question is stemmed once per
// configuration, each against the chunks built with it.
std::vector<Hit> searchChunks(docs::Db& db, const std::string& query, const std::string& kind,
                              const std::vector<std::int64_t>& projectIds, int limit, Ranking ranking = Ranking::Fused,
                              bool rolePrior = true, const std::vector<std::string>& textLanguages = {"english"});

// The text-search configuration of a project's language (en, ru, de): english for any other.
std::string textSearchLanguage(const std::string& projectLanguage);

}  // namespace docs_rag
