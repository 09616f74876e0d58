#pragma once
// The difference between two page documents (ProseMirror JSON "doc" nodes): which
// top-level blocks were added, removed or changed, and inside a changed block which
// words were inserted or deleted.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace docs_collab {

// {"added": n, "removed": n, "changed": n, "blocks": [...]} in document order, each block
//   {"change": "same" | "added" | "removed", "block": node}
//   {"change": "changed", "before": node, "after": node,
//    "text": [{"op": "equal" | "insert" | "delete", "text": "..."}]}
// `from` is the document compared against; `to` is the one described ("added" means in
// `to`, not in `from`).
nlohmann::json diffDocuments(const nlohmann::json& from, const nlohmann::json& to);

// Word-level difference of two texts (words, spaces and punctuation are tokens).
nlohmann::json diffText(const std::string& from, const std::string& to);

// A block's text: its text nodes in order, child blocks separated by a newline.
std::string blockText(const nlohmann::json& node);

}  // namespace docs_collab
