#include "decode.hpp"

#include <brotli/decode.h>
#include <zlib.h>

#include <stdexcept>

namespace docs::test {

std::string gunzip(const std::string& data) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) throw std::runtime_error("inflateInit2 failed");
  std::string out;
  char buffer[65536];
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  int result = Z_OK;
  while (result == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (result == Z_BUF_ERROR && stream.avail_in == 0) break;
  }
  inflateEnd(&stream);
  if (result != Z_STREAM_END) throw std::runtime_error("not a complete gzip stream");
  return out;
}

std::string unbrotli(const std::string& data) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  std::size_t availableIn = data.size();
  const auto* nextIn = reinterpret_cast<const std::uint8_t*>(data.data());
  std::string out;
  BrotliDecoderResult result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
  while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    std::uint8_t buffer[65536];
    std::size_t availableOut = sizeof buffer;
    std::uint8_t* nextOut = buffer;
    result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nullptr);
    out.append(reinterpret_cast<char*>(buffer), sizeof buffer - availableOut);
  }
  BrotliDecoderDestroyInstance(state);
  if (result != BROTLI_DECODER_RESULT_SUCCESS) throw std::runtime_error("not a complete Brotli stream");
  return out;
}

std::string decodeBody(const std::string& contentEncoding, const std::string& data) {
  if (contentEncoding == "gzip") return gunzip(data);
  if (contentEncoding == "br") return unbrotli(data);
  if (contentEncoding.empty()) return data;
  throw std::runtime_error("unknown Content-Encoding " + contentEncoding);
}

}  // namespace docs::test
