#include "docs/ydoc/schema.hpp"

#include <nlohmann/json.hpp>

#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace detail {
extern const std::string_view kSchemaJson;
}  // namespace detail

namespace {

std::vector<AttrSpec> parseAttrs(const Json& spec) {
  std::vector<AttrSpec> out;
  if (!spec.contains("attrs")) return out;
  for (auto it = spec["attrs"].begin(); it != spec["attrs"].end(); ++it) {
    out.push_back({it.key(), it.value().value("default", Json(nullptr))});
  }
  return out;
}

}  // namespace

std::string_view editorSchemaJson() { return detail::kSchemaJson; }

EditorSchema EditorSchema::parse(std::string_view text) {
  const Json j = Json::parse(text);
  EditorSchema s;
  s.fragment_ = j.value("fragment", std::string("default"));
  for (auto it = j.at("nodes").begin(); it != j.at("nodes").end(); ++it) {
    NodeSpec n;
    n.name = it.key();
    n.attrs = parseAttrs(it.value());
    n.code = it.value().value("code", false);
    s.nodes_.push_back(std::move(n));
  }
  for (auto it = j.at("marks").begin(); it != j.at("marks").end(); ++it) {
    s.marks_.push_back({it.key(), parseAttrs(it.value())});
  }
  return s;
}

const EditorSchema& EditorSchema::instance() {
  static const EditorSchema schema = parse(editorSchemaJson());
  return schema;
}

const NodeSpec* EditorSchema::node(std::string_view name) const {
  for (const auto& n : nodes_) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

const MarkSpec* EditorSchema::mark(std::string_view name) const {
  for (const auto& m : marks_) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

}  // namespace docs::ydoc
