#pragma once
// Threads and comments as the API answers them (docs/api.md, "Comments").

#include <cstdint>
#include <optional>
#include <set>

#include <docs/http.hpp>

#include "comment_store.hpp"

namespace docs_comments {

docs::Json commentJson(const Comment& comment);
// `anchored`: the thread ids marked in the page's document (nullopt: unknown, so no
// thread is called detached).
docs::Json threadJson(const Thread& thread, const std::optional<std::set<std::int64_t>>& anchored);

}  // namespace docs_comments
