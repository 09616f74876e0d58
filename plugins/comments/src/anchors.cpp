#include "anchors.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include <docs/ydoc/ydoc.hpp>

namespace docs_comments {

namespace {

// A thread id as a mark attribute: a JSON number or a string of digits; 0 otherwise.
std::int64_t threadIdOf(const nlohmann::ordered_json& value) {
  if (value.is_number_integer()) return std::max<std::int64_t>(0, value.get<std::int64_t>());
  if (value.is_number_float()) return 0;
  if (!value.is_string()) return 0;
  const auto& text = value.get_ref<const std::string&>();
  std::int64_t id = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  return error == std::errc() && end == text.data() + text.size() && id > 0 ? id : 0;
}

void collect(const nlohmann::ordered_json& node, std::set<std::int64_t>& out, int depth) {
  if (!node.is_object() || depth > 512) return;
  if (auto marks = node.find("marks"); marks != node.end() && marks->is_array()) {
    for (const auto& mark : *marks) {
      if (!mark.is_object() || mark.value("type", "") != "comment") continue;
      auto attrs = mark.find("attrs");
      if (attrs == mark.end() || !attrs->is_object() || !attrs->contains("thread_id")) continue;
      if (auto id = threadIdOf((*attrs)["thread_id"]); id > 0) out.insert(id);
    }
  }
  if (auto content = node.find("content"); content != node.end() && content->is_array())
    for (const auto& child : *content) collect(child, out, depth + 1);
}

}  // namespace

std::set<std::int64_t> markedThreads(const nlohmann::ordered_json& document) {
  std::set<std::int64_t> out;
  collect(document, out, 0);
  return out;
}

std::optional<std::set<std::int64_t>> markedThreadsOfUpdate(const std::optional<std::string>& update) {
  if (!update) return std::set<std::int64_t>();
  try {
    docs::ydoc::Doc doc;
    doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(update->data()), update->size()});
    return markedThreads(docs::ydoc::toProseMirrorJson(doc));
  } catch (const docs::ydoc::YdocError&) {
    return std::nullopt;
  }
}

}  // namespace docs_comments
