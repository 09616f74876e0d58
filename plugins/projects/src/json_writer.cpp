#include "json_writer.hpp"

#include <docs/codec/codec.hpp>

namespace docs_projects {

void appendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += docs::codec::hexEncode(std::string_view(&c, 1));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void appendPageArray(std::string& out, const std::vector<docs::PageSummary>& pages) {
  out.reserve(out.size() + pages.size() * 200);
  out.push_back('[');
  bool first = true;
  for (const auto& page : pages) {
    if (!first) out.push_back(',');
    first = false;
    out += "{\"id\":" + std::to_string(page.id);
    out += ",\"project_id\":" + std::to_string(page.projectId);
    out += ",\"parent_id\":" + std::to_string(page.parentId);
    out += ",\"name\":";
    appendJsonString(out, page.name);
    out += ",\"type\":";
    appendJsonString(out, page.type);
    out += ",\"position\":" + std::to_string(page.position);
    out += ",\"created_at\":";
    appendJsonString(out, page.createdAt);
    out += ",\"updated_at\":";
    appendJsonString(out, page.updatedAt);
    out.push_back('}');
  }
  out.push_back(']');
}

namespace {
void appendField(std::string& out, const char* name) {
  out += ",\"";
  out += name;
  out += "\":";
}
void appendOptional(std::string& out, const std::optional<std::string>& value) {
  if (value) appendJsonString(out, *value);
  else out += "null";
}
void appendOptional(std::string& out, const std::optional<std::int64_t>& value) {
  out += value ? std::to_string(*value) : std::string("null");
}
}  // namespace

void appendProjectObject(std::string& out, const ProjectRow& p, std::string_view role) {
  out += "{\"id\":" + std::to_string(p.id);
  appendField(out, "type");
  appendJsonString(out, p.type);
  appendField(out, "name");
  appendJsonString(out, p.name);
  appendField(out, "description");
  appendJsonString(out, p.description);
  appendField(out, "language");
  appendJsonString(out, p.language);
  appendField(out, "git_url");
  appendOptional(out, p.gitUrl);
  appendField(out, "git_repository_id");
  appendOptional(out, p.gitRepositoryId);
  appendField(out, "github_node_id");
  appendOptional(out, p.githubNodeId);
  appendField(out, "installation_id");
  appendOptional(out, p.installationId);
  appendField(out, "status");
  appendJsonString(out, p.status);
  appendField(out, "visibility");
  appendJsonString(out, p.visibility);
  appendField(out, "commit_hash");
  appendOptional(out, p.commitHash);
  appendField(out, "rag_status");
  appendJsonString(out, p.ragStatus);
  appendField(out, "default_page_id");
  out += p.defaultPageId > 0 ? std::to_string(p.defaultPageId) : std::string("null");
  appendField(out, "role");
  if (role == "none") out += "null";
  else appendJsonString(out, role);
  appendField(out, "created_at");
  appendJsonString(out, p.createdAt);
  appendField(out, "updated_at");
  appendJsonString(out, p.updatedAt);
  out.push_back('}');
}

}  // namespace docs_projects
