#include "history_routes.hpp"

#include <docs/http.hpp>
#include <docs/registry.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <charconv>

#include "collab_server.hpp"
#include "collab_services.hpp"
#include "history_diff.hpp"
#include "history_docs.hpp"
#include "history_service.hpp"
#include "history_store.hpp"

namespace docs_collab {

using docs::HttpError;
using docs::Json;
using docs::Method;
using docs::PageSummary;
using docs::Registry;
using docs::Request;
using docs::Response;
using docs::Role;

namespace {

constexpr int kDefaultPage = 50;
constexpr int kMaxPage = 200;

Json documentOf(std::string_view bytes) {
  docs::ydoc::Doc doc;
  doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
  return docs::ydoc::toProseMirrorJson(doc);
}

// A positive integer query parameter, or `fallback` when absent; 400 otherwise.
std::int64_t queryNumber(const Request& request, const char* name, std::int64_t fallback) {
  auto text = request.query(name);
  if (!text || text->empty()) return fallback;
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value <= 0)
    throw HttpError::badRequest("'" + std::string(name) + "' must be a positive integer", "invalid_field");
  return value;
}

class HistoryRoutes {
 public:
  HistoryRoutes(HistoryService& history, CollabServer& server, const CollabServices& services)
      : history_(history), server_(server), services_(services) {}

  void list(Request& request, Response& response) {
    auto page = pageFor(request, Role::Read);
    auto limit = std::min<std::int64_t>(queryNumber(request, "limit", kDefaultPage), kMaxPage);
    auto before = queryNumber(request, "cursor", 0);
    auto versions = store().list(page.id, before, static_cast<int>(limit) + 1);
    bool more = versions.size() > static_cast<std::size_t>(limit);
    if (more) versions.pop_back();
    std::vector<std::int64_t> ids;
    for (const auto& version : versions) ids.insert(ids.end(), version.authors.begin(), version.authors.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::map<std::int64_t, std::string> names;
    for (const auto& author : store().authors(ids)) names[author.id] = author.name;
    Json out = Json::array();
    for (const auto& version : versions) out.push_back(versionJson(version, names));
    response.json({{"versions", out}, {"next_cursor", more ? Json(versions.back().id) : Json()}});
  }

  void get(Request& request, Response& response) {
    auto page = pageFor(request, Role::Read);
    auto format = request.query("format").value_or("json");
    if (format != "json" && format != "md" && format != "html")
      throw HttpError::badRequest("'format' must be json, md or html", "invalid_field");
    auto [version, doc] = versionFor(request, page.id);
    if (format == "md") {
      response.text(docs::ydoc::toMarkdown(doc), "text/markdown; charset=utf-8");
    } else if (format == "html") {
      response.text(docs::ydoc::toHtml(doc), "text/html; charset=utf-8");
      // As the page's HTML export (docs/security.md#browser-headers): sandboxed, a download.
      response.setHeader(
          "Content-Security-Policy",
          "sandbox; default-src 'none'; img-src 'self' data: https:; style-src 'unsafe-inline'; "
          "frame-src https://www.youtube.com; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      response.setHeader("Content-Disposition", "attachment; filename=\"page-" + std::to_string(page.id) + "-version-" +
                                                    std::to_string(version.id) + ".html\"");
    } else {
      std::map<std::int64_t, std::string> names;
      for (const auto& author : store().authors(version.authors)) names[author.id] = author.name;
      Json out = versionJson(version, names);
      out["doc"] = doc;
      response.json(out);
    }
    response.setHeader("X-Content-Type-Options", "nosniff");
  }

  void diff(Request& request, Response& response) {
    auto page = pageFor(request, Role::Read);
    auto [version, doc] = versionFor(request, page.id);
    auto against = request.query("against").value_or("current");
    Json from;
    if (against == "current") {
      auto current = server_.currentState(page.id);
      if (!current) throw HttpError::notFound("Page not found");
      from = readable(*current);
    } else {
      std::int64_t other = 0;
      auto [end, error] = std::from_chars(against.data(), against.data() + against.size(), other);
      if (error != std::errc() || end != against.data() + against.size() || other <= 0)
        throw HttpError::badRequest("'against' must be a version id or current", "invalid_field");
      auto bytes = store().state(page.id, other);
      if (!bytes) throw HttpError::notFound("Version not found");
      from = readable(*bytes);
    }
    Json out = diffDocuments(from, doc);
    out["version"] = version.id;
    out["against"] = against;
    response.json(out);
  }

  void restore(Request& request, Response& response) {
    auto page = pageFor(request, Role::Write);
    auto versionId = request.idParam("version");
    if (!store().find(page.id, versionId)) throw HttpError::notFound("Version not found");
    std::optional<std::int64_t> userId;
    const auto& principal = request.principal();
    if (principal && !principal->anonymous()) {
      std::int64_t id = 0;
      auto [end, error] =
          std::from_chars(principal->userId.data(), principal->userId.data() + principal->userId.size(), id);
      if (error == std::errc() && end == principal->userId.data() + principal->userId.size()) userId = id;
    }
    std::optional<std::int64_t> before;
    try {
      before = history_.restore(page.id, versionId, userId);
    } catch (const docs::ydoc::YdocError&) {
      throw HttpError(422, "invalid_document", "The version or the page content cannot be read");
    }
    if (!before) throw HttpError::notFound("Version not found");
    response.json({{"restored", versionId}, {"before_version", *before}});
  }

 private:
  HistoryStore& store() { return server_.history(); }

  // The page, once the caller is known to have `needed` in its project (as content reads).
  PageSummary pageFor(Request& request, Role needed) {
    auto page = services_.pages->find(request.idParam("id"));
    if (!page) throw HttpError::notFound("Page not found");
    services_.access->require(page->projectId, request.principal(), needed);
    return *page;
  }

  std::pair<VersionInfo, Json> versionFor(Request& request, std::int64_t pageId) {
    auto versionId = request.idParam("version");
    auto version = store().find(pageId, versionId);
    auto bytes = version ? store().state(pageId, versionId) : std::nullopt;
    if (!version || !bytes) throw HttpError::notFound("Version not found");
    return {*version, readable(*bytes)};
  }

  static Json readable(std::string_view bytes) {
    try {
      return documentOf(bytes);
    } catch (const docs::ydoc::YdocError&) {
      throw HttpError(422, "invalid_document", "The stored document cannot be read");
    }
  }

  static Json versionJson(const VersionInfo& version, const std::map<std::int64_t, std::string>& names) {
    Json authors = Json::array();
    for (auto id : version.authors) {
      auto found = names.find(id);
      authors.push_back({{"id", std::to_string(id)}, {"name", found == names.end() ? "" : found->second}});
    }
    return {{"id", version.id},
            {"created_at", version.createdAt},
            {"authors", authors},
            {"label", version.label.empty() ? Json() : Json(version.label)},
            {"kind", version.kind}};
  }

  HistoryService& history_;
  CollabServer& server_;
  const CollabServices& services_;
};

}  // namespace

void addHistoryRoutes(Registry& registry, HistoryService& history, CollabServer& server,
                      const CollabServices& services) {
  auto routes = std::make_shared<HistoryRoutes>(history, server, services);
  registry.route(
      Method::Get, "/api/page/{id}/history", [routes](Request& q, Response& r) { routes->list(q, r); }, {},
      listVersionsDoc());
  registry.route(
      Method::Get, "/api/page/{id}/history/{version}", [routes](Request& q, Response& r) { routes->get(q, r); }, {},
      getVersionDoc());
  registry.route(
      Method::Get, "/api/page/{id}/history/{version}/diff", [routes](Request& q, Response& r) { routes->diff(q, r); },
      {}, diffVersionDoc());
  registry.route(
      Method::Post, "/api/page/{id}/history/{version}/restore",
      [routes](Request& q, Response& r) { routes->restore(q, r); }, {}, restoreVersionDoc());
}

}  // namespace docs_collab
