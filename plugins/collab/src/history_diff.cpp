#include "history_diff.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace docs_collab {

namespace {

using Json = nlohmann::json;

enum class Op { Equal, Insert, Delete };

// The longest-common-subsequence edit script of two sequences, after trimming their
// common prefix and suffix. Past `maxCells` of table the middle is a delete then an
// insert (a rewrite of a huge page reads as one).
template <class T>
std::vector<std::pair<Op, std::size_t>> editScript(const std::vector<T>& a, const std::vector<T>& b,
                                                   std::size_t maxCells = 4'000'000) {
  std::vector<std::pair<Op, std::size_t>> script;  // index into a (Equal, Delete) or b (Insert)
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  for (std::size_t i = 0; i < prefix; ++i) script.push_back({Op::Equal, i});
  std::size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  if (n * m > maxCells) {
    for (std::size_t i = 0; i < n; ++i) script.push_back({Op::Delete, prefix + i});
    for (std::size_t j = 0; j < m; ++j) script.push_back({Op::Insert, prefix + j});
  } else {
    // lengths[i][j]: LCS of a[prefix+i..] and b[prefix+j..]
    std::vector<std::uint32_t> lengths((n + 1) * (m + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lengths[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        script.push_back({Op::Equal, prefix + i});
        ++i, ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        script.push_back({Op::Delete, prefix + i});  // deletions read before insertions
        ++i;
      } else {
        script.push_back({Op::Insert, prefix + j});
        ++j;
      }
    }
  }
  for (std::size_t k = 0; k < suffix; ++k) script.push_back({Op::Equal, a.size() - suffix + k});
  return script;
}

std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  auto kindOf = [](unsigned char c) {
    return c == ' ' || c == '\n' || c == '\t' ? 1 : (std::isalnum(c) || c >= 0x80) ? 2 : 3;
  };
  for (std::size_t i = 0; i < text.size();) {
    int kind = kindOf(static_cast<unsigned char>(text[i]));
    std::size_t j = i + 1;
    if (kind != 3)
      while (j < text.size() && kindOf(static_cast<unsigned char>(text[j])) == kind) ++j;
    out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

void appendRun(Json& runs, const char* op, const std::string& text) {
  if (!runs.empty() && runs.back()["op"] == op) {
    runs.back()["text"] = runs.back()["text"].get<std::string>() + text;
    return;
  }
  runs.push_back({{"op", op}, {"text", text}});
}

const Json& contentOf(const Json& doc) {
  static const Json empty = Json::array();
  auto found = doc.find("content");
  return found != doc.end() && found->is_array() ? *found : empty;
}

}  // namespace

std::string blockText(const Json& node) {
  if (!node.is_object()) return "";
  if (node.value("type", "") == "text") return node.value("text", "");
  if (node.value("type", "") == "hardBreak") return "\n";
  std::string out;
  bool first = true;
  for (const auto& child : contentOf(node)) {
    bool inlineChild = child.value("type", "") == "text" || child.value("type", "") == "hardBreak";
    if (!first && !inlineChild) out += "\n";
    out += blockText(child);
    first = false;
  }
  return out;
}

Json diffText(const std::string& from, const std::string& to) {
  auto a = tokens(from), b = tokens(to);
  Json runs = Json::array();
  for (auto [op, index] : editScript(a, b, 1'000'000)) {
    if (op == Op::Equal) appendRun(runs, "equal", a[index]);
    else if (op == Op::Delete) appendRun(runs, "delete", a[index]);
    else appendRun(runs, "insert", b[index]);
  }
  return runs;
}

Json diffDocuments(const Json& from, const Json& to) {
  const Json& a = contentOf(from);
  const Json& b = contentOf(to);
  std::vector<std::string> keysA, keysB;
  for (const auto& block : a) keysA.push_back(block.dump());
  for (const auto& block : b) keysB.push_back(block.dump());
  Json blocks = Json::array();
  int added = 0, removed = 0, changed = 0;
  std::vector<std::size_t> deletes, inserts;  // the pending run between two equal blocks
  // A run of removed blocks next to added ones: pairs of the same type read as changed.
  auto flush = [&] {
    std::size_t d = 0, i = 0;
    while (d < deletes.size() || i < inserts.size()) {
      if (d < deletes.size() && i < inserts.size() &&
          a[deletes[d]].value("type", "") == b[inserts[i]].value("type", "")) {
        blocks.push_back({{"change", "changed"},
                          {"before", a[deletes[d]]},
                          {"after", b[inserts[i]]},
                          {"text", diffText(blockText(a[deletes[d]]), blockText(b[inserts[i]]))}});
        ++changed, ++d, ++i;
      } else if (d < deletes.size() && (i == inserts.size() || deletes.size() - d >= inserts.size() - i)) {
        blocks.push_back({{"change", "removed"}, {"block", a[deletes[d]]}});
        ++removed, ++d;
      } else {
        blocks.push_back({{"change", "added"}, {"block", b[inserts[i]]}});
        ++added, ++i;
      }
    }
    deletes.clear();
    inserts.clear();
  };
  for (auto [op, index] : editScript(keysA, keysB)) {
    if (op == Op::Delete) {
      deletes.push_back(index);
    } else if (op == Op::Insert) {
      inserts.push_back(index);
    } else {
      flush();
      blocks.push_back({{"change", "same"}, {"block", a[index]}});
    }
  }
  flush();
  return {{"added", added}, {"removed", removed}, {"changed", changed}, {"blocks", blocks}};
}

}  // namespace docs_collab
