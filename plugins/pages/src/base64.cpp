#include "base64.hpp"

#include <docs/codec/codec.hpp>

namespace docs_pages {

std::string base64Encode(std::string_view bytes) { return docs::codec::base64Encode(bytes); }

// Clients send documents with line breaks (MIME style) and encoders differ in the unused bits.
std::optional<std::string> base64Decode(std::string_view text) { return docs::codec::base64DecodeLenient(text); }

}  // namespace docs_pages
