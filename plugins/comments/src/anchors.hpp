#pragma once
// Where threads are anchored: the ids carried by the `comment` marks of a page's
// document (core/ydoc/schema.json). A thread whose marked text is gone is "detached".

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace docs_comments {

// Thread ids marked in a ProseMirror JSON document (attrs.thread_id: number or digits).
std::set<std::int64_t> markedThreads(const nlohmann::ordered_json& document);
// The same for a stored Yjs update; nullopt when the bytes cannot be read (then nothing
// is called detached).
std::optional<std::set<std::int64_t>> markedThreadsOfUpdate(const std::optional<std::string>& update);

}  // namespace docs_comments
