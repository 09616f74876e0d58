#include "page_routes.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>

#include <docs/codec/codec.hpp>
#include <docs/config.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/projects.hpp>
#include <docs/topics.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/update.hpp>

#include <docs/support/body_fields.hpp>
#include <docs/support/upload_file.hpp>
#include "base64.hpp"
#include "documents_service.hpp"
#include "image_rules.hpp"
#include "page_docs.hpp"
#include "page_export.hpp"
#include "page_store.hpp"
#include "pages_service.hpp"
#include "signed_url.hpp"

namespace docs_pages {

using namespace docs::support;

using docs::HttpError;
using docs::Json;
using docs::Role;

namespace {

constexpr std::size_t kSmallBody = 64 * 1024;
constexpr std::size_t kContentBody = 48u << 20;  // base64 of a 32 MiB document

// parent_page_id / parent_id: absent, null or 0 mean the root.
std::int64_t parentField(const Json& body, const char* field) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) return 0;
  if (it->is_number_integer() && it->get<std::int64_t>() == 0) return 0;
  if (it->is_string() && it->get<std::string>() == "0") return 0;
  return requiredId(body, field);
}

std::int64_t nowUnix() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Whether the bytes are a Yjs v1 update at all (whether it applies is the document's say).
bool decodesAsUpdate(std::string_view bytes) {
  try {
    docs::ydoc::decodeUpdate({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
    return true;
  } catch (const docs::ydoc::YdocError&) {
    return false;
  }
}

// The signed-in caller's user id, for the page's history; nullopt when anonymous.
std::optional<std::int64_t> authorOf(const docs::Request& request) {
  const auto& principal = request.principal();
  if (!principal || principal->anonymous()) return std::nullopt;
  std::int64_t id = 0;
  const auto& text = principal->userId;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

}  // namespace

class PageRoutes {
 public:
  // Reads the configuration (the keys are declared) and declares the service it
  // requires: rbac's AccessControl.
  PageRoutes(docs::Registry& registry, PagesService& pages, DocumentsService& documents)
      : context_(registry.context()),
        pages_(pages),
        documents_(documents),
        signer_(context_.config().getString("pages.url_signing_key")),
        signedUrlSeconds_(context_.config().getInt("pages.signed_url_seconds")) {
    registry.require(access_);
  }

  docs::AccessControl& access() { return *access_; }
  docs::Projects& projects() { return pages_.projects(); }

  // The page, once the caller is known to have `needed` in its project.
  docs::PageSummary pageFor(docs::Request& request, Role needed) {
    auto page = findPage(context_.db(), request.idParam("id"));
    if (!page) throw HttpError::notFound("Page not found");
    access().require(page->projectId, request.principal(), needed);
    return *page;
  }

  void create(docs::Request& request, docs::Response& response) {
    std::int64_t projectId = request.idParam("projectId");
    Json body = request.body().empty() ? Json::object() : request.jsonObject();
    rejectUnknownFields(body, {"parent_page_id", "name"});
    std::int64_t parentId = parentField(body, "parent_page_id");
    auto rawName = optionalString(body, "name");
    access().require(projectId, request.principal(), Role::Write);
    std::string name = validPageName(rawName.value_or(""));
    docs::PageSummary page;
    context_.db().transaction([&](docs::Tx& tx) {
      lockProjectTree(tx, projectId);
      // The project may have been deleted since the access check; hold it until commit.
      if (!projects().holdProject(tx, projectId)) throw HttpError::notFound("Project not found");
      if (parentId > 0) {
        auto parent = findPage(tx, parentId);
        if (!parent || parent->projectId != projectId)
          throw HttpError::badRequest("The parent page is not a page of this project", "invalid_field");
      }
      page = insertPage(tx, projectId, parentId, name, "generated");
      docs::publishAfterCommit(context_.events(), tx, docs::kPageCreated, {projectId, page.id});
    });
    response.json(pageJson(page), 201);
  }

  void get(docs::Request& request, docs::Response& response) {
    auto page = pageFor(request, Role::Read);
    Json out = pageJson(page);
    auto content = currentContent(page.id);
    out["content_bytea"] = content ? Json(base64Encode(*content)) : Json();
    response.json(out);
  }

  void update(docs::Request& request, docs::Response& response) {
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"name", "parent_id"});
    auto rawName = optionalString(body, "name");
    bool moving = body.contains("parent_id");
    std::int64_t newParent = moving ? parentField(body, "parent_id") : 0;
    if (!rawName && !moving) throw HttpError::badRequest("Send name or parent_id", "invalid_field");
    auto page = pageFor(request, Role::Write);
    std::optional<std::string> name;
    if (rawName) name = validPageName(*rawName);
    docs::PageSummary updated;
    context_.db().transaction([&](docs::Tx& tx) {
      lockProjectTree(tx, page.projectId);
      auto current = findPage(tx, page.id);
      if (!current) throw HttpError::notFound("Page not found");
      if (name) renamePage(tx, page.id, *name);
      if (moving) {
        if (newParent > 0) {
          auto parent = findPage(tx, newParent);
          if (!parent || parent->projectId != page.projectId)
            throw HttpError::badRequest("The new parent is not a page of this project", "invalid_move");
          if (inSubtree(tx, page.id, newParent))
            throw HttpError::badRequest("A page cannot be moved onto itself or its own descendant", "invalid_move");
        }
        movePage(tx, *current, newParent);
      }
      updated = *findPage(tx, page.id);
      docs::publishAfterCommit(context_.events(), tx, docs::kPageUpdated, {page.projectId, page.id});
    });
    response.json(pageJson(updated));
  }

  void remove(docs::Request& request, docs::Response& response) {
    auto page = pageFor(request, Role::Write);
    auto deleted = pages_.removeTree(page.projectId, page.id);
    if (deleted.empty()) throw HttpError::notFound("Page not found");
    response.json({{"deleted", deleted}});
  }

  // The page's document: the stored bytes merged with every accepted edit not yet folded
  // into them (read from storage, never from a room); nullopt for a page never written.
  std::optional<std::string> currentContent(std::int64_t pageId) {
    auto content = documents_.read(pageId);
    if (!content || content->empty()) return std::nullopt;
    return content;
  }

  void getContent(docs::Request& request, docs::Response& response) {
    auto page = pageFor(request, Role::Read);
    auto content = currentContent(page.id);
    if (!content) throw HttpError::notFound("This page has no stored content");
    response.json({{"content_bytea", base64Encode(*content)}});
  }

  void putContent(docs::Request& request, docs::Response& response) {
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"content_bytea"});
    std::string encoded = optionalString(body, "content_bytea").value_or("");
    auto page = pageFor(request, Role::Write);
    auto bytes = base64Decode(encoded);
    // Merged into the page's document (open editors receive it, nothing is lost to a
    // later fold); the document checks it applies, on top of the edits still in its log.
    if (!bytes || bytes->empty() || !decodesAsUpdate(*bytes))
      throw HttpError::badRequest("'content_bytea' must be a base64 Yjs document update", "invalid_field");
    try {
      if (!documents_.apply(page.id, *bytes, authorOf(request))) throw HttpError::notFound("Page not found");
    } catch (const std::invalid_argument&) {
      throw HttpError::badRequest("'content_bytea' does not apply to this page's document", "invalid_field");
    }
    response.json({{"id", page.id}, {"bytes", bytes->size()}, {"merged", true}});
  }

  void exportPage(docs::Request& request, docs::Response& response) {
    auto format = parseExportFormat(request.query("format").value_or(""));
    if (!format) throw HttpError::badRequest("'format' must be md or html", "invalid_field");
    auto page = pageFor(request, Role::Read);
    std::string text;
    try {
      text = docs_pages::exportPage(currentContent(page.id), *format);
    } catch (const docs::ydoc::YdocError&) {
      throw HttpError(422, "invalid_document", "The stored page content cannot be read");
    }
    if (*format == ExportFormat::Markdown) {
      response.text(text, "text/markdown; charset=utf-8");
    } else {
      response.text(text, "text/html; charset=utf-8");
      // The page's HTML opened as a page (docs/security.md#browser-headers): sandboxed, so
      // nothing in it runs and it has no origin to act for; its images and videos show.
      // A download, unless asked for inline on purpose (?disposition=inline).
      response.setHeader(
          "Content-Security-Policy",
          "sandbox; default-src 'none'; img-src 'self' data: https:; style-src 'unsafe-inline'; "
          "frame-src https://www.youtube.com; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      bool inlineView = request.query("disposition").value_or("") == "inline";
      response.setHeader("Content-Disposition", std::string(inlineView ? "inline" : "attachment") +
                                                    "; filename=\"page-" + std::to_string(page.id) + ".html\"");
    }
    response.setHeader("X-Content-Type-Options", "nosniff");
  }

  void uploadImage(docs::Request& request, docs::Response& response) {
    std::int64_t projectId = request.idParam("projectId");
    std::int64_t pageId = request.idParam("pageId");
    access().require(projectId, request.principal(), Role::Write);
    auto page = findPage(context_.db(), pageId);
    if (!page || page->projectId != projectId) throw HttpError::notFound("Page not found in this project");
    std::string declared = request.header("Content-Type").value_or("");
    if (declared.find("image/") == std::string::npos)
      throw HttpError::badRequest("File type not supported.", "unsupported_type");

    // Read until the signature can be judged, then stream the rest to disk.
    auto& body = request.bodyReader();
    std::vector<char> buffer(64 * 1024);
    std::string head;
    while (head.size() < kSniffBytes) {
      std::size_t n = body.read(buffer.data(), buffer.size());
      if (n == 0) break;
      head.append(buffer.data(), n);
    }
    if (head.empty()) throw HttpError::badRequest("The image is empty", "invalid_field");
    auto kind = sniffImage(head);
    if (!kind || !declaredTypeMatches(declared, *kind))
      throw HttpError::badRequest("File type not supported.", "unsupported_type");
    std::string directory = imageDirectory(context_, projectId, pageId);
    std::string name = docs::codec::randomHex(8) + "." + kind->extension;
    UploadFile file(directory);
    auto append = [&](const char* data, std::size_t n) {
      if (file.size() + n > kMaxImageBytes) throw HttpError::payloadTooLarge("File size too big (max 20MB).");
      file.write(data, n);
    };
    append(head.data(), head.size());
    while (std::size_t n = body.read(buffer.data(), buffer.size())) append(buffer.data(), n);
    if (auto length = request.header("Content-Length")) {
      if (*length != std::to_string(file.size()))
        throw HttpError(400, "body_incomplete", "The upload ended before Content-Length bytes arrived");
    }
    file.commit(directory + "/" + name);
    std::string path =
        "/api/project/" + std::to_string(projectId) + "/page/" + std::to_string(pageId) + "/image/" + name;
    std::string url = request.publicOrigin() + path;
    std::int64_t expires = nowUnix() + signedUrlSeconds_;
    response.json(
        {{"url", url}, {"signed_url", signedUrl(url, projectId, pageId, name, expires)}, {"expires_at", expires}});
  }

  std::string signedUrl(const std::string& url, std::int64_t projectId, std::int64_t pageId, const std::string& name,
                        std::int64_t expires) {
    std::string resource = std::to_string(projectId) + "/" + std::to_string(pageId) + "/" + name;
    return url + "?expires=" + std::to_string(expires) + "&signature=" + signer_.sign(resource, expires);
  }

  void serveImage(docs::Request& request, docs::Response& response) {
    std::int64_t projectId = request.idParam("projectId");
    std::int64_t pageId = request.idParam("pageId");
    const std::string& name = request.param("name");
    if (!validImageName(name)) throw HttpError::notFound("Image not found");
    if (!validSignature(request, projectId, pageId, name)) access().require(projectId, request.principal(), Role::Read);
    std::string path = imageDirectory(context_, projectId, pageId) + "/" + name;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw HttpError::notFound("Image not found");
    response.file(path, *contentTypeForExtension(name.substr(17)));
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
    response.setHeader("Cache-Control", "private, max-age=300");
  }

  bool validSignature(const docs::Request& request, std::int64_t projectId, std::int64_t pageId,
                      const std::string& name) {
    auto signature = request.query("signature");
    auto expires = request.query("expires");
    if (!signature || !expires) return false;
    std::int64_t when = 0;
    try {
      when = parseId(*expires, "expires");
    } catch (const HttpError&) {
      return false;
    }
    std::string resource = std::to_string(projectId) + "/" + std::to_string(pageId) + "/" + name;
    return signer_.verify(resource, when, *signature, nowUnix());
  }

  void signImage(docs::Request& request, docs::Response& response) {
    std::int64_t projectId = request.idParam("projectId");
    std::int64_t pageId = request.idParam("pageId");
    const std::string& name = request.param("name");
    access().require(projectId, request.principal(), Role::Read);
    std::error_code ec;
    if (!validImageName(name) ||
        !std::filesystem::is_regular_file(imageDirectory(context_, projectId, pageId) + "/" + name, ec))
      throw HttpError::notFound("Image not found");
    std::string url = request.publicOrigin() + "/api/project/" + std::to_string(projectId) + "/page/" +
                      std::to_string(pageId) + "/image/" + name;
    std::int64_t expires = nowUnix() + signedUrlSeconds_;
    response.json({{"url", signedUrl(url, projectId, pageId, name, expires)}, {"expires_at", expires}});
  }

 private:
  docs::Context& context_;
  PagesService& pages_;
  docs::ServiceRef<docs::AccessControl> access_;
  DocumentsService& documents_;
  const UrlSigner signer_;
  const std::int64_t signedUrlSeconds_;
};

std::shared_ptr<PageRoutes> addPageRoutes(docs::Registry& registry, PagesService& pages, DocumentsService& documents) {
  registry.configKey(
      "pages.url_signing_key", "",
      "Key for signed image URLs; empty makes a random one per process (set it when several nodes serve)");
  registry.configKey("pages.signed_url_seconds", "3600", "How long a signed image URL works");
  auto routes = std::make_shared<PageRoutes>(registry, pages, documents);
  docs::RouteOptions small;
  small.maxBodyBytes = kSmallBody;
  docs::RouteOptions content;
  content.maxBodyBytes = kContentBody;
  docs::RouteOptions image;
  // A little above the image limit, so a streamed body meets the spec's message first.
  image.maxBodyBytes = kMaxImageBytes + 64 * 1024;
  image.streamBody = true;
  using docs::Method;
  using docs::Request;
  using docs::Response;
  registry.route(
      Method::Post, "/api/project/{projectId}/page", [routes](Request& q, Response& r) { routes->create(q, r); }, small,
      createPageDoc());
  registry.route(
      Method::Get, "/api/page/{id}", [routes](Request& q, Response& r) { routes->get(q, r); }, {}, getPageDoc());
  registry.route(
      Method::Patch, "/api/page/{id}", [routes](Request& q, Response& r) { routes->update(q, r); }, small,
      updatePageDoc());
  registry.route(
      Method::Delete, "/api/page/{id}", [routes](Request& q, Response& r) { routes->remove(q, r); }, {},
      deletePageDoc());
  registry.route(
      Method::Get, "/api/page/{id}/content", [routes](Request& q, Response& r) { routes->getContent(q, r); }, {},
      getContentDoc());
  registry.route(
      Method::Put, "/api/page/{id}/content", [routes](Request& q, Response& r) { routes->putContent(q, r); }, content,
      putContentDoc());
  registry.route(
      Method::Get, "/api/page/{id}/export", [routes](Request& q, Response& r) { routes->exportPage(q, r); }, {},
      exportPageDoc());
  registry.route(
      Method::Post, "/api/project/{projectId}/page/{pageId}/upload",
      [routes](Request& q, Response& r) { routes->uploadImage(q, r); }, image, uploadImageDoc());
  registry.route(
      Method::Get, "/api/project/{projectId}/page/{pageId}/image/{name}",
      [routes](Request& q, Response& r) { routes->serveImage(q, r); }, {}, serveImageDoc());
  registry.route(
      Method::Get, "/api/project/{projectId}/page/{pageId}/image/{name}/signed",
      [routes](Request& q, Response& r) { routes->signImage(q, r); }, {}, signImageDoc());
  return routes;
}

}  // namespace docs_pages
