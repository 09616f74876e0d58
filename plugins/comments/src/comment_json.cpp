#include "comment_json.hpp"

namespace docs_comments {

namespace {
docs::Json authorJson(const Author& author) { return {{"id", std::to_string(author.id)}, {"name", author.name}}; }
docs::Json optionalText(const std::optional<std::string>& text) { return text ? docs::Json(*text) : docs::Json(); }
}  // namespace

docs::Json commentJson(const Comment& comment) {
  return {{"id", comment.id},     {"thread_id", comment.threadId},   {"author", authorJson(comment.author)},
          {"body", comment.body}, {"created_at", comment.createdAt}, {"edited_at", optionalText(comment.editedAt)}};
}

docs::Json threadJson(const Thread& thread, const std::optional<std::set<std::int64_t>>& anchored) {
  docs::Json comments = docs::Json::array();
  for (const auto& comment : thread.comments) comments.push_back(commentJson(comment));
  return {{"id", thread.id},
          {"page_id", thread.pageId},
          {"project_id", thread.projectId},
          {"author", authorJson(thread.author)},
          {"quote", thread.quote},
          {"resolved", thread.resolvedAt.has_value()},
          {"resolved_at", optionalText(thread.resolvedAt)},
          {"resolved_by", thread.resolvedBy ? authorJson(*thread.resolvedBy) : docs::Json()},
          {"detached", anchored.has_value() && !anchored->contains(thread.id)},
          {"created_at", thread.createdAt},
          {"comments", comments}};
}

}  // namespace docs_comments
