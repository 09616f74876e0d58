#pragma once
// Content codings (RFC 9110 8.4): which one a client accepts, which content types are
// worth compressing, and gzip/Brotli encoders for answers made on the fly.

#include <string>
#include <string_view>

namespace docs::core {

enum class Coding { Identity, Gzip, Brotli };

// The coding to send, given a request's Accept-Encoding and the ones on offer: the highest
// q-value wins, Brotli before gzip on a tie, q=0 refuses a coding ("*" stands for those
// not named). Identity when nothing else is acceptable or the header is absent.
Coding chooseCoding(std::string_view acceptEncoding, bool brotliOffered, bool gzipOffered);

// "br", "gzip" or "" for identity: the Content-Encoding value.
std::string_view codingName(Coding coding);

// Text-like types compress well; images, fonts, archives and media already are compressed.
bool compressibleContentType(std::string_view contentType);

// Whole-buffer encoders for dynamic answers (levels chosen for speed: see docs/benchmarks.md).
std::string gzipEncode(std::string_view data);
std::string brotliEncode(std::string_view data);

}  // namespace docs::core
