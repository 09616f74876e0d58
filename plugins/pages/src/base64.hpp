#pragma once
#include <optional>
#include <string>
#include <string_view>

// The API's base64 for Yjs documents (content_bytea), on docs::codec.
namespace docs_pages {

std::string base64Encode(std::string_view bytes);
// Standard alphabet with padding; whitespace is skipped. nullopt for anything else.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace docs_pages
