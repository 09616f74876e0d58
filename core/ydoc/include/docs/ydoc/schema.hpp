#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "docs/ydoc/any.hpp"

namespace docs::ydoc {

struct AttrSpec {
  std::string name;
  Json defaultValue;
};

struct NodeSpec {
  std::string name;
  std::vector<AttrSpec> attrs;  // schema order
  bool code = false;            // content is raw text (codeBlock)
};

struct MarkSpec {
  std::string name;
  std::vector<AttrSpec> attrs;
};

// The editor schema, parsed once from the embedded core/ydoc/schema.json.
class EditorSchema {
 public:
  static const EditorSchema& instance();
  static EditorSchema parse(std::string_view json);

  const NodeSpec* node(std::string_view name) const;
  const MarkSpec* mark(std::string_view name) const;
  const std::string& fragmentName() const { return fragment_; }
  const std::vector<NodeSpec>& nodes() const { return nodes_; }
  const std::vector<MarkSpec>& marks() const { return marks_; }

 private:
  std::string fragment_ = "default";
  std::vector<NodeSpec> nodes_;
  std::vector<MarkSpec> marks_;
};

// The raw text of schema.json as embedded in the library.
std::string_view editorSchemaJson();

}  // namespace docs::ydoc
