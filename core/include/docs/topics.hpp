#pragma once
// Typed event topics: every topic one plugin publishes for another, with its payload as a
// struct. The bus still carries JSON (docs/events.hpp), on this node and through NOTIFY
// to the others; these helpers write and read it in one place:
//
//   docs::publishAfterCommit(events, tx, docs::kPageCreated, {projectId, pageId});
//   docs::on(registry, docs::kPageDeleted, [this](const docs::PagesDeleted& event) { ... });
//
// Wire rules (nodes of two versions share one database during a rolling upgrade):
// - toJson writes the form every released subscriber reads; fields are never renamed.
// - fromJson accepts what released publishers write: an id is a JSON integer or a string
//   of digits (auth wrote user_id as a string), page.deleted has page_ids, page_id or both.
//   Unknown fields are ignored, so a newer publisher may add some. A payload without a
//   required field, or with one of the wrong type, throws PayloadError naming the field.
// Ids are positive int64; 0 only where a field says "0: unknown".
// Collab's node-to-node relay topics (collab.room, collab.updates, collab.awareness) are
// private to collab and not listed here.

#include <charconv>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "docs/context.hpp"
#include "docs/events.hpp"
#include "docs/logger.hpp"
#include "docs/registry.hpp"
#include "docs/services/access_control.hpp"

namespace docs {

// A topic's name with the type of its payload; Payload has `nlohmann::json toJson() const`
// and `static Payload fromJson(const nlohmann::json&)`.
template <class Payload>
struct Topic {
  std::string_view name;
};

// A payload that does not have the fields its topic needs (what() names the field).
class PayloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reading a payload's fields in fromJson (for a plugin's own topics too): each throws
// PayloadError naming the field.
namespace topic_fields {

inline const nlohmann::json& field(const nlohmann::json& payload, std::string_view name) {
  if (!payload.is_object()) throw PayloadError("the payload is not a JSON object");
  auto it = payload.find(std::string(name));
  if (it == payload.end()) throw PayloadError("'" + std::string(name) + "' is missing");
  return *it;
}

inline bool has(const nlohmann::json& payload, std::string_view name) {
  if (!payload.is_object()) return false;
  auto it = payload.find(std::string(name));
  return it != payload.end() && !it->is_null();
}

// A positive id given as a JSON integer or a string of digits.
inline std::optional<std::int64_t> idOf(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    auto id = value.get<std::uint64_t>();
    if (id > 0 && id <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return static_cast<std::int64_t>(id);
    return std::nullopt;
  }
  if (value.is_number_integer()) {
    auto id = value.get<std::int64_t>();
    return id > 0 ? std::optional(id) : std::nullopt;
  }
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  std::int64_t id = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

inline std::int64_t id(const nlohmann::json& payload, std::string_view name) {
  if (auto value = idOf(field(payload, name))) return *value;
  throw PayloadError("'" + std::string(name) + "' is not an id");
}

// An id that may be absent or unreadable: 0 then (fields no subscriber acts on).
inline std::int64_t idOrZero(const nlohmann::json& payload, std::string_view name) {
  if (!has(payload, name)) return 0;
  return idOf(payload[std::string(name)]).value_or(0);
}

inline std::string text(const nlohmann::json& payload, std::string_view name) {
  const auto& value = field(payload, name);
  if (!value.is_string()) throw PayloadError("'" + std::string(name) + "' is not a string");
  return value.get<std::string>();
}

inline std::string nonEmptyText(const nlohmann::json& payload, std::string_view name) {
  auto value = text(payload, name);
  if (value.empty()) throw PayloadError("'" + std::string(name) + "' is empty");
  return value;
}

inline std::optional<std::string> optionalText(const nlohmann::json& payload, std::string_view name) {
  if (!has(payload, name)) return std::nullopt;
  return text(payload, name);
}

inline std::uint64_t count(const nlohmann::json& payload, std::string_view name) {
  const auto& value = field(payload, name);
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  throw PayloadError("'" + std::string(name) + "' is not a count");
}

inline Role role(const nlohmann::json& payload, std::string_view name) {
  if (auto value = parseRole(text(payload, name))) return *value;
  throw PayloadError("'" + std::string(name) + "' is not a role (read, write, admin)");
}

}  // namespace topic_fields

// --- auth ---------------------------------------------------------------------------

// user.created (auth): the first sign-in of an address. {user_id, email}.
struct UserCreated {
  std::int64_t userId = 0;
  std::string email{};  // lower-case, never empty

  bool operator==(const UserCreated&) const = default;
  nlohmann::json toJson() const { return {{"user_id", userId}, {"email", email}}; }
  static UserCreated fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "user_id"), topic_fields::nonEmptyText(payload, "email")};
  }
};

// user.deleted (auth): the account is gone. {user_id, email}: the address it had, so
// what was granted to that address before the account claimed it goes too.
struct UserDeleted {
  std::int64_t userId = 0;
  std::string email{};  // lower-case; empty only from a node older than ABI 18

  bool operator==(const UserDeleted&) const = default;
  nlohmann::json toJson() const { return {{"user_id", userId}, {"email", email}}; }
  static UserDeleted fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "user_id"), topic_fields::optionalText(payload, "email").value_or("")};
  }
};

// session.revoked (auth): a sign-out, a revoked personal access token ("pat:<id>"), and
// each session and token of a deleted user. {session_id, user_id}.
struct SessionRevoked {
  std::string sessionId{};  // never empty
  std::int64_t userId = 0;

  bool operator==(const SessionRevoked&) const = default;
  nlohmann::json toJson() const { return {{"session_id", sessionId}, {"user_id", userId}}; }
  static SessionRevoked fromJson(const nlohmann::json& payload) {
    return {topic_fields::nonEmptyText(payload, "session_id"), topic_fields::id(payload, "user_id")};
  }
};

// --- projects -----------------------------------------------------------------------

// project.created (projects): {project_id, type, git_url (null for none), language, user_id}.
struct ProjectCreated {
  std::int64_t projectId = 0;
  std::string type{};                   // "user" (a ZIP or hand-written) or "github"
  std::optional<std::string> gitUrl{};  // the repository of a repository project
  std::string language{};               // of the documentation: "en", "ru", "de"
  std::int64_t userId = 0;              // who created it; 0: unknown

  bool operator==(const ProjectCreated&) const = default;
  nlohmann::json toJson() const {
    return {{"project_id", projectId},
            {"type", type},
            {"git_url", gitUrl ? nlohmann::json(*gitUrl) : nlohmann::json()},
            {"language", language},
            {"user_id", userId}};
  }
  static ProjectCreated fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::text(payload, "type"),
            topic_fields::optionalText(payload, "git_url"), topic_fields::text(payload, "language"),
            topic_fields::idOrZero(payload, "user_id")};
  }
};

// project.deleted (projects): {project_id}.
struct ProjectDeleted {
  std::int64_t projectId = 0;

  bool operator==(const ProjectDeleted&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}}; }
  static ProjectDeleted fromJson(const nlohmann::json& payload) { return {topic_fields::id(payload, "project_id")}; }
};

// project.visibility_changed (projects): {project_id, visibility}.
struct VisibilityChanged {
  std::int64_t projectId = 0;
  std::string visibility{};  // the new one: "public" or "private"

  bool operator==(const VisibilityChanged&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}, {"visibility", visibility}}; }
  static VisibilityChanged fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::nonEmptyText(payload, "visibility")};
  }
};

// project.zip_uploaded (projects): a ZIP is stored for the project. {project_id, path,
// file_name, size}.
struct ZipUploaded {
  std::int64_t projectId = 0;
  std::string path{};      // the stored file, under the data directory
  std::string fileName{};  // as uploaded
  std::uint64_t size = 0;

  bool operator==(const ZipUploaded&) const = default;
  nlohmann::json toJson() const {
    return {{"project_id", projectId}, {"path", path}, {"file_name", fileName}, {"size", size}};
  }
  static ZipUploaded fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::text(payload, "path"),
            topic_fields::text(payload, "file_name"), topic_fields::count(payload, "size")};
  }
};

// --- rbac ---------------------------------------------------------------------------

// rbac.granted, rbac.changed (rbac): {project_id, email, role}; rbac.revoked: {project_id,
// email}, no role.
struct RbacChange {
  std::int64_t projectId = 0;
  std::string email{};         // whose access changed (an invite has no account yet)
  std::optional<Role> role{};  // the new role; none for rbac.revoked

  bool operator==(const RbacChange&) const = default;
  nlohmann::json toJson() const {
    nlohmann::json payload = {{"project_id", projectId}, {"email", email}};
    if (role) payload["role"] = roleName(*role);
    return payload;
  }
  static RbacChange fromJson(const nlohmann::json& payload) {
    std::optional<Role> role;
    if (topic_fields::has(payload, "role")) role = topic_fields::role(payload, "role");
    return {topic_fields::id(payload, "project_id"), topic_fields::nonEmptyText(payload, "email"), role};
  }
};

// --- pages --------------------------------------------------------------------------

// page.created, page.updated (pages; collab after each fold of edits), page.content_replaced
// (pages: the stored document replaced through the API): {project_id, page_id}.
struct PageChanged {
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;

  bool operator==(const PageChanged&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}, {"page_id", pageId}}; }
  static PageChanged fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::id(payload, "page_id")};
  }
};

// page.deleted (pages): a page and the pages under it. Written {project_id, page_ids};
// read also with page_id (one page, the older form) and without project_id.
struct PagesDeleted {
  std::int64_t projectId = 0;           // 0: unknown (the older form)
  std::vector<std::int64_t> pageIds{};  // at least one

  bool operator==(const PagesDeleted&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}, {"page_ids", pageIds}}; }
  static PagesDeleted fromJson(const nlohmann::json& payload) {
    PagesDeleted event{topic_fields::idOrZero(payload, "project_id"), {}};
    if (topic_fields::has(payload, "page_id")) event.pageIds.push_back(topic_fields::id(payload, "page_id"));
    if (topic_fields::has(payload, "page_ids")) {
      const auto& ids = payload["page_ids"];
      if (!ids.is_array()) throw PayloadError("'page_ids' is not an array");
      for (const auto& id : ids) {
        auto value = topic_fields::idOf(id);
        if (!value) throw PayloadError("'page_ids' holds something that is not an id");
        event.pageIds.push_back(*value);
      }
    }
    if (event.pageIds.empty()) throw PayloadError("neither 'page_ids' nor 'page_id' names a page");
    return event;
  }
};

// --- comments -----------------------------------------------------------------------

// comment.changed (comments): {project_id, page_id, thread_id, change}.
struct CommentChanged {
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;
  std::int64_t threadId = 0;
  // created, replied, edited, resolved, reopened, deleted, thread_deleted
  std::string change{};

  bool operator==(const CommentChanged&) const = default;
  nlohmann::json toJson() const {
    return {{"project_id", projectId}, {"page_id", pageId}, {"thread_id", threadId}, {"change", change}};
  }
  static CommentChanged fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::id(payload, "page_id"),
            topic_fields::id(payload, "thread_id"), topic_fields::nonEmptyText(payload, "change")};
  }
};

// --- github, generation -------------------------------------------------------------

// github.push (github): a push to the default branch of a project's repository.
// {project_id, after, ref}.
struct GithubPush {
  std::int64_t projectId = 0;
  std::string after{};  // the pushed commit; may be empty
  std::string ref{};    // "refs/heads/<default branch>"

  bool operator==(const GithubPush&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}, {"after", after}, {"ref", ref}}; }
  static GithubPush fromJson(const nlohmann::json& payload) {
    return {topic_fields::id(payload, "project_id"), topic_fields::text(payload, "after"),
            topic_fields::text(payload, "ref")};
  }
};

// analysis.changed (generation): a run changed what docs::Analysis (services/analysis.hpp)
// loads for the project. {project_id}.
struct AnalysisChanged {
  std::int64_t projectId = 0;

  bool operator==(const AnalysisChanged&) const = default;
  nlohmann::json toJson() const { return {{"project_id", projectId}}; }
  static AnalysisChanged fromJson(const nlohmann::json& payload) { return {topic_fields::id(payload, "project_id")}; }
};

inline constexpr Topic<UserCreated> kUserCreated{"user.created"};
inline constexpr Topic<UserDeleted> kUserDeleted{"user.deleted"};
inline constexpr Topic<SessionRevoked> kSessionRevoked{"session.revoked"};
inline constexpr Topic<ProjectCreated> kProjectCreated{"project.created"};
inline constexpr Topic<ProjectDeleted> kProjectDeleted{"project.deleted"};
inline constexpr Topic<VisibilityChanged> kProjectVisibilityChanged{"project.visibility_changed"};
inline constexpr Topic<ZipUploaded> kProjectZipUploaded{"project.zip_uploaded"};
inline constexpr Topic<RbacChange> kRbacGranted{"rbac.granted"};
inline constexpr Topic<RbacChange> kRbacChanged{"rbac.changed"};
inline constexpr Topic<RbacChange> kRbacRevoked{"rbac.revoked"};
inline constexpr Topic<PageChanged> kPageCreated{"page.created"};
inline constexpr Topic<PageChanged> kPageUpdated{"page.updated"};
inline constexpr Topic<PageChanged> kPageContentReplaced{"page.content_replaced"};
inline constexpr Topic<PagesDeleted> kPageDeleted{"page.deleted"};
inline constexpr Topic<CommentChanged> kCommentChanged{"comment.changed"};
inline constexpr Topic<GithubPush> kGithubPush{"github.push"};
inline constexpr Topic<AnalysisChanged> kAnalysisChanged{"analysis.changed"};

// Delivers now, here and on every node (EventBus::publish).
template <class Payload>
void publish(EventBus& events, Topic<Payload> topic, const std::type_identity_t<Payload>& payload) {
  events.publish(topic.name, payload.toJson());
}

// Delivers once tx commits; nothing if it rolls back (EventBus::publishAfterCommit).
template <class Payload>
void publishAfterCommit(EventBus& events, Tx& tx, Topic<Payload> topic, const std::type_identity_t<Payload>& payload) {
  events.publishAfterCommit(tx, topic.name, payload.toJson());
}

// Subscribes to a topic with its payload parsed (Registry::subscribe). A payload that does
// not parse is logged (a warning with the topic and why) and dropped: the handler is not
// called. What the handler throws reaches the bus as before (logged there).
template <class Payload>
void on(Registry& registry, Topic<Payload> topic, std::type_identity_t<std::function<void(const Payload&)>> handler) {
  Context& context = registry.context();
  registry.subscribe(
      std::string(topic.name), [&context, topic, handler = std::move(handler)](const nlohmann::json& json) {
        std::optional<Payload> payload;
        try {
          payload.emplace(Payload::fromJson(json));
        } catch (const std::exception& error) {  // PayloadError, or anything a fromJson of yours throws
          context.logger().warn("event payload dropped", {{"topic", topic.name}, {"error", error.what()}});
          return;
        }
        handler(*payload);
      });
}

}  // namespace docs
