#pragma once
// Decoders for compressed answers (Content-Encoding gzip and br); throw std::runtime_error
// when the bytes are not a complete stream of that coding.

#include <string>

namespace docs::test {

std::string gunzip(const std::string& data);
std::string unbrotli(const std::string& data);
// By Content-Encoding value: "gzip", "br", or "" (identity, returned as it is).
std::string decodeBody(const std::string& contentEncoding, const std::string& data);

}  // namespace docs::test
