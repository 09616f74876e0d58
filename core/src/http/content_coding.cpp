#include "http/content_coding.hpp"

#include <brotli/encode.h>
#include <zlib.h>

#include <cctype>
#include <charconv>
#include <stdexcept>

namespace docs::core {

namespace {

constexpr int kGzipLevel = 6;      // zlib's default: most of level 9's ratio at a third of its time
constexpr int kBrotliQuality = 5;  // ~gzip 6's speed, smaller output; 11 is for build time only

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool sameToken(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// q-value of one list member ("gzip;q=0.5"); 1 without a q parameter, -1 when malformed.
double qualityOf(std::string_view parameters) {
  while (!parameters.empty()) {
    auto semicolon = parameters.find(';');
    std::string_view parameter = trim(parameters.substr(0, semicolon));
    parameters = semicolon == std::string_view::npos ? std::string_view{} : parameters.substr(semicolon + 1);
    auto equals = parameter.find('=');
    if (equals == std::string_view::npos || !sameToken(trim(parameter.substr(0, equals)), "q")) continue;
    std::string_view value = trim(parameter.substr(equals + 1));
    double q = -1;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), q);
    if (error != std::errc() || end != value.data() + value.size() || q < 0 || q > 1) return -1;
    return q;
  }
  return 1;
}

}  // namespace

Coding chooseCoding(std::string_view acceptEncoding, bool brotliOffered, bool gzipOffered) {
  double br = -1, gzip = -1, any = -1;  // -1: not named
  while (!acceptEncoding.empty()) {
    auto comma = acceptEncoding.find(',');
    std::string_view member = acceptEncoding.substr(0, comma);
    acceptEncoding = comma == std::string_view::npos ? std::string_view{} : acceptEncoding.substr(comma + 1);
    auto semicolon = member.find(';');
    std::string_view name = trim(member.substr(0, semicolon));
    double q = semicolon == std::string_view::npos ? 1 : qualityOf(member.substr(semicolon + 1));
    if (q < 0) continue;
    if (sameToken(name, "br")) br = q;
    else if (sameToken(name, "gzip") || sameToken(name, "x-gzip")) gzip = q;
    else if (name == "*") any = q;
  }
  if (br < 0) br = any;
  if (gzip < 0) gzip = any;
  if (!brotliOffered) br = 0;
  if (!gzipOffered) gzip = 0;
  if (br > 0 && br >= gzip) return Coding::Brotli;
  if (gzip > 0) return Coding::Gzip;
  return Coding::Identity;
}

std::string_view codingName(Coding coding) {
  switch (coding) {
    case Coding::Brotli: return "br";
    case Coding::Gzip: return "gzip";
    case Coding::Identity: break;
  }
  return "";
}

bool compressibleContentType(std::string_view contentType) {
  std::string_view type = trim(contentType.substr(0, contentType.find(';')));
  auto startsWith = [&](std::string_view prefix) {
    return type.size() >= prefix.size() && sameToken(type.substr(0, prefix.size()), prefix);
  };
  auto endsWith = [&](std::string_view suffix) {
    return type.size() >= suffix.size() && sameToken(type.substr(type.size() - suffix.size()), suffix);
  };
  if (startsWith("text/")) return true;
  return sameToken(type, "application/json") || sameToken(type, "application/javascript") ||
         sameToken(type, "application/xml") || sameToken(type, "image/svg+xml") ||
         sameToken(type, "application/wasm") || sameToken(type, "application/manifest+json") ||
         sameToken(type, "application/x-ndjson") || endsWith("+json") || endsWith("+xml");
}

std::string gzipEncode(std::string_view data) {
  z_stream stream{};
  // windowBits 15 + 16: a gzip wrapper, not zlib's.
  if (deflateInit2(&stream, kGzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

std::string brotliEncode(std::string_view data) {
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  std::string out(size == 0 ? data.size() + 1024 : size, '\0');
  if (!BrotliEncoderCompress(kBrotliQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, data.size(),
                             reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                             reinterpret_cast<std::uint8_t*>(out.data())))
    throw std::runtime_error("Brotli compression failed");
  out.resize(size);
  return out;
}

}  // namespace docs::core
