#include "page_list_json.hpp"

namespace docs_projects {

void appendJsonString(std::string& out, std::string_view text) {
  static const char* hex = "0123456789abcdef";
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
          out.push_back(hex[u >> 4]);
          out.push_back(hex[u & 15]);
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

}  // namespace docs_projects
