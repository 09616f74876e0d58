#include "rag_query.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/logger.hpp>
#include <docs/support/body_fields.hpp>

#include <algorithm>
#include <future>
#include <map>
#include <set>

#include "answer_writer.hpp"
#include "searcher.hpp"

namespace docs_rag {

using docs::Context;
using docs::Db;
using docs::HttpError;
using docs::Json;
using docs::Principal;
using docs::Request;
using docs::Response;
using docs::Role;

namespace {

constexpr int kMaxTopK = 1000;
constexpr std::size_t kMaxProjectIds = 100;
constexpr int kMaxReadableProjects = 1000;

struct RagRequest {
  std::string query;
  bool all = false;
  bool code = true;
  bool docs = true;
  bool llm = false;
  int codeTopK = 10;
  int docsTopK = 10;
  std::vector<std::int64_t> projectIds;
};

int topK(const Json& body, std::string_view field) {
  if (!body.contains(field) || body[field].is_null()) return 10;
  const auto& value = body[field];
  // JSON numbers that are whole (10 or 10.0 from a browser) and digit strings.
  if (value.is_number_integer() || value.is_number_unsigned()) {
    auto n = value.get<std::int64_t>();
    if (n >= 0 && n <= kMaxTopK) return static_cast<int>(n);
  } else if (value.is_number_float()) {
    double n = value.get<double>();
    if (n >= 0 && n <= kMaxTopK && n == static_cast<double>(static_cast<int>(n))) return static_cast<int>(n);
  } else if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (!text.empty() && text.size() <= 4 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      int n = std::stoi(text);
      if (n <= kMaxTopK) return n;
    }
  }
  throw HttpError::badRequest(std::string(field) + " must be an integer from 0 to 1000",
                              "invalid_" + std::string(field));
}

RagRequest parseRequest(const Json& body, std::size_t maxQueryChars) {
  docs::support::rejectUnknownFields(
      body, {"query", "is_all", "is_code", "is_docs", "is_llm", "code_top_k", "docs_top_k", "projectIds"});
  RagRequest out;
  out.query = docs::support::requiredString(body, "query");
  auto first = out.query.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw HttpError::badRequest("query must not be empty", "empty_query");
  out.query = out.query.substr(first, out.query.find_last_not_of(" \t\r\n") - first + 1);
  if (docs::support::codePoints(out.query) > maxQueryChars)
    throw HttpError::badRequest("query is longer than " + std::to_string(maxQueryChars) + " characters",
                                "query_too_long");
  out.all = docs::support::optionalBool(body, "is_all").value_or(false);
  out.code = docs::support::optionalBool(body, "is_code").value_or(true);
  out.docs = docs::support::optionalBool(body, "is_docs").value_or(true);
  out.llm = docs::support::optionalBool(body, "is_llm").value_or(false);
  out.codeTopK = topK(body, "code_top_k");
  out.docsTopK = topK(body, "docs_top_k");
  if (!(out.code && out.codeTopK > 0) && !(out.docs && out.docsTopK > 0))
    throw HttpError::badRequest("Nothing to search: enable code or docs with a count above 0", "nothing_to_search");
  if (body.contains("projectIds") && !body["projectIds"].is_null()) {
    const auto& ids = body["projectIds"];
    if (!ids.is_array())
      throw HttpError::badRequest("projectIds must be an array of project ids", "invalid_projectIds");
    if (ids.size() > kMaxProjectIds)
      throw HttpError::badRequest("projectIds may name at most " + std::to_string(kMaxProjectIds) + " projects",
                                  "invalid_projectIds");
    for (const auto& id : ids) {
      std::int64_t value = docs::support::idFromJson(id);
      if (value <= 0) throw HttpError::badRequest("projectIds must be an array of project ids", "invalid_projectIds");
      if (std::find(out.projectIds.begin(), out.projectIds.end(), value) == out.projectIds.end())
        out.projectIds.push_back(value);
    }
  }
  if (!out.all && out.projectIds.empty())
    throw HttpError::badRequest("Select at least one project, or search all of them", "no_projects");
  return out;
}

// The projects of the request the caller may read; others drop out silently, so an id
// says nothing about a project the caller cannot see.
std::vector<std::int64_t> readableProjects(const RagServices& services, const RagRequest& rag,
                                           const std::optional<Principal>& caller) {
  auto& projects = *services.projects;
  auto& access = *services.access;
  std::vector<std::int64_t> candidates = rag.projectIds;
  if (rag.all) {
    candidates = projects.publicProjectIds(kMaxReadableProjects);
    if (caller && !caller->anonymous())
      for (const auto& [id, role] : access.grantsOf(*caller))
        if (role >= Role::Read) candidates.push_back(id);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<std::int64_t> readable;
  for (auto id : candidates) {
    auto project = projects.find(id);
    if (!project) continue;
    try {
      access.requireKnown(id, project->isPublic(), caller, Role::Read);
      readable.push_back(id);
    } catch (const HttpError&) {
      // not readable: left out
    }
  }
  return readable;
}

std::string callerKey(const std::optional<Principal>& caller, const std::string& address) {
  return caller && !caller->anonymous() ? "user:" + caller->userId : "ip:" + address;
}

std::int64_t tokensUsedToday(Db& db, const std::string& caller) {
  auto rows = db.exec("SELECT tokens FROM rag_token_usage WHERE caller = $1 AND day = (now() AT TIME ZONE 'UTC')::date",
                      {caller});
  return rows.empty() ? 0 : rows[0].int64("tokens");
}

void addTokens(Db& db, const std::string& caller, std::int64_t tokens) {
  db.exec(
      "INSERT INTO rag_token_usage (caller, day, tokens) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2)"
      " ON CONFLICT (caller, day) DO UPDATE SET tokens = rag_token_usage.tokens + EXCLUDED.tokens",
      {caller, tokens});
}

std::string lineRange(const Hit& hit) {
  return hit.startLine == hit.endLine ? "line " + std::to_string(hit.startLine)
                                      : "lines " + std::to_string(hit.startLine) + "-" + std::to_string(hit.endLine);
}

std::string describe(const Hit& hit) {
  if (hit.kind == "docs")
    return hit.path.empty() ? hit.title : hit.title + " (" + hit.path + ", " + lineRange(hit) + ")";
  std::string out = hit.symbol.empty() ? hit.path : hit.symbolKind + " " + hit.symbol + " in " + hit.path;
  return out + ", " + lineRange(hit);
}

}  // namespace

RagQuery::RagQuery(Context& context, const RagServices& services, QuerySettings settings)
    : context_(context),
      services_(services),
      settings_(std::move(settings)),
      perUser_(settings_.userRequestsPerMinute),
      perAddress_(settings_.addressRequestsPerMinute) {}

void RagQuery::handle(Request& request, Response& response) {
  int retryAfter = 0;
  try {
    response.json(
        answer([&] { return request.jsonObject(); }, request.principal(), request.remoteAddress(), &retryAfter));
  } catch (const HttpError& error) {
    if (error.status() == 429) response.setHeader("Retry-After", std::to_string(retryAfter));
    throw;
  }
}

Json RagQuery::query(const Json& body, const std::optional<Principal>& caller, std::string_view remoteAddress) {
  return answer(
      [&] {
        if (!body.is_object()) throw HttpError::badRequest("The request must be a JSON object", "invalid_json");
        return body;
      },
      caller, std::string(remoteAddress), nullptr);
}

Json RagQuery::answer(const std::function<Json()>& readBody, const std::optional<Principal>& principal,
                      const std::string& address, int* retryAfter) {
  std::string caller = callerKey(principal, address);
  bool addressOk = perAddress_.allow("ip:" + address);
  if (!addressOk || !perUser_.allow(caller)) {
    int wait = addressOk ? perUser_.retryAfterSeconds(caller) : perAddress_.retryAfterSeconds("ip:" + address);
    if (retryAfter) *retryAfter = wait;
    throw HttpError(429, "rate_limited", "Too many questions; try again in " + std::to_string(wait) + " s");
  }
  RagRequest rag = parseRequest(readBody(), settings_.maxQueryChars);
  auto projects = readableProjects(services_, rag, principal);

  auto& db = context_.db();
  // English for code and guides, and each project's page language.
  std::vector<std::string> languages = {"english"};
  for (auto id : projects)
    if (auto project = services_.projects->find(id)) {
      std::string language = textSearchLanguage(project->language);
      if (std::find(languages.begin(), languages.end(), language) == languages.end()) languages.push_back(language);
    }
  std::vector<Hit> hits;
  // Docs are searched on another pooled connection while code is searched here: the two
  // kinds share nothing, and each may wait on PostgreSQL for most of a request.
  std::future<std::vector<Hit>> docsSearch;
  if (rag.docs && rag.docsTopK > 0)
    docsSearch = std::async(std::launch::async, [&] {
      return searchChunks(db, rag.query, "docs", projects, rag.docsTopK, Ranking::Fused, settings_.rolePrior,
                          languages);
    });
  if (rag.code && rag.codeTopK > 0)
    hits = searchChunks(db, rag.query, "code", projects, rag.codeTopK, Ranking::Fused, settings_.rolePrior, languages);
  if (docsSearch.valid()) {
    auto found = docsSearch.get();
    hits.insert(hits.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  // One list, best first: a guide section that answers a question in words comes before
  // the code (ties: code first). Without the prior, code first, then docs, as before.
  if (settings_.rolePrior)
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.score > b.score; });

  // Links to exact lines where the project has a web address (asked once per project).
  auto* analysis = services_.analysis.get();
  std::map<std::int64_t, bool> hasWebAddress;
  auto gitUrl = [&](const Hit& hit) -> std::string {
    if (hit.path.empty() || !analysis) return "";  // a page section has no lines
    auto known = hasWebAddress.find(hit.projectId);
    if (known != hasWebAddress.end() && !known->second) return "";
    std::string url = analysis->sourceUrl(hit.projectId, hit.path, hit.startLine, hit.endLine);
    hasWebAddress[hit.projectId] = !url.empty();
    return url;
  };

  if (!rag.llm) {
    Json items = Json::array();
    for (const auto& hit : hits) {
      std::string url = gitUrl(hit);
      items.push_back({{"source", hit.kind},
                       {"content", hit.content},
                       {"git_url", url.empty() ? Json() : Json(url)},
                       {"description", describe(hit)},
                       {"page_id", hit.pageId > 0 ? Json(hit.pageId) : Json()},
                       {"project_id", hit.projectId},
                       {"path", hit.path},
                       {"start_line", hit.startLine},
                       {"end_line", hit.endLine},
                       {"symbol", hit.symbol},
                       {"title", hit.title},
                       {"score", hit.score}});
    }
    return items;
  }

  // The answer draws on the best code and docs alike: in score order with the prior (a
  // question in words opens with the best guide section or documented definition),
  // else interleaved.
  std::vector<const Hit*> code, docs, chosen;
  const auto most = static_cast<std::size_t>(settings_.answerSources);
  if (settings_.rolePrior) {
    for (const auto& hit : hits)
      if (chosen.size() < most) chosen.push_back(&hit);
  } else {
    for (const auto& hit : hits) (hit.kind == "code" ? code : docs).push_back(&hit);
    for (std::size_t i = 0; chosen.size() < most && (i < code.size() || i < docs.size()); ++i) {
      if (i < code.size()) chosen.push_back(code[i]);
      if (i < docs.size() && chosen.size() < most) chosen.push_back(docs[i]);
    }
  }
  std::vector<AnswerSource> sources;
  for (const Hit* hit : chosen) {
    AnswerSource source;
    source.label = hit->kind == "code" ? hit->path + " " + lineRange(*hit)
                   : hit->path.empty() ? hit->title
                                       : hit->title + " (" + hit->path + " " + lineRange(*hit) + ")";
    if (hit->kind == "code" && hit->api) source.doc = hit->doc;
    source.link = gitUrl(*hit);
    if (source.link.empty() && hit->pageId > 0)
      source.link = "/projects/" + std::to_string(hit->projectId) + "/" + std::to_string(hit->pageId);
    source.language = hit->kind == "code" ? (hit->language.empty() ? "text" : hit->language) : "";
    for (auto& c : source.language) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    source.text = hit->content;
    sources.push_back(std::move(source));
  }

  if (!settings_.model.configured() || sources.empty()) {
    return Json(extractiveAnswer(rag.query, sources));
  }
  auto prompt = answerPrompt(rag.query, sources);
  std::int64_t estimate = settings_.model.maxTokens;
  for (const auto& message : prompt) estimate += static_cast<std::int64_t>(message.content.size() / 4);
  if (settings_.dailyModelTokens > 0 && tokensUsedToday(db, caller) + estimate > settings_.dailyModelTokens) {
    return Json(extractiveAnswer(rag.query, sources,
                                 "Your daily allowance of model tokens is spent, so this answer quotes the "
                                 "passages that match your question best instead of writing one."));
  }
  auto reply = docs::support::complete(settings_.model, prompt);
  addTokens(db, caller, reply.ok ? reply.promptTokens + reply.completionTokens : 0);
  if (!reply.ok) {
    context_.logger().warn("rag: model failed", {{"error", reply.error}, {"attempts", reply.attempts}});
    return Json(extractiveAnswer(rag.query, sources,
                                 "The language model could not answer (" + reply.error +
                                     "), so this answer quotes the passages that match your question best."));
  }
  return Json(checkCitations(reply.text, sources).markdown);
}

}  // namespace docs_rag
