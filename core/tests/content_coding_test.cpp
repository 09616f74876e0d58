#include <gtest/gtest.h>

#include <brotli/decode.h>
#include <zlib.h>

#include "http/content_coding.hpp"

using docs::core::chooseCoding;
using docs::core::Coding;

namespace {

std::string gunzip(const std::string& data) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

std::string unbrotli(const std::string& data) {
  std::string out(1 << 20, '\0');
  std::size_t size = out.size();
  EXPECT_EQ(BrotliDecoderDecompress(data.size(), reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                                    reinterpret_cast<std::uint8_t*>(out.data())),
            BROTLI_DECODER_RESULT_SUCCESS);
  out.resize(size);
  return out;
}

}  // namespace

TEST(ContentCoding, BrotliIsPreferredThenGzip) {
  EXPECT_EQ(chooseCoding("gzip, deflate, br", true, true), Coding::Brotli);
  EXPECT_EQ(chooseCoding("gzip, deflate, br", false, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("gzip, deflate, br", false, false), Coding::Identity);
  EXPECT_EQ(chooseCoding("gzip", true, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("", true, true), Coding::Identity);
  EXPECT_EQ(chooseCoding("identity", true, true), Coding::Identity);
}

TEST(ContentCoding, QValuesRankAndZeroRefuses) {
  EXPECT_EQ(chooseCoding("br;q=0, gzip", true, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("br;q=0.5, gzip;q=0.8", true, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("br; q=0.9, gzip;q=0.8", true, true), Coding::Brotli);
  EXPECT_EQ(chooseCoding("gzip;q=0, br;q=0", true, true), Coding::Identity);
  EXPECT_EQ(chooseCoding("*", true, true), Coding::Brotli);
  EXPECT_EQ(chooseCoding("*;q=0", true, true), Coding::Identity);
  EXPECT_EQ(chooseCoding("br;q=0, *", true, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("GZIP;Q=1", true, true), Coding::Gzip);
  // A malformed q-value drops that member only.
  EXPECT_EQ(chooseCoding("br;q=2, gzip", true, true), Coding::Gzip);
  EXPECT_EQ(chooseCoding("br;q=abc", true, true), Coding::Identity);
}

TEST(ContentCoding, CompressibleTypes) {
  using docs::core::compressibleContentType;
  EXPECT_TRUE(compressibleContentType("application/json; charset=utf-8"));
  EXPECT_TRUE(compressibleContentType("text/markdown; charset=utf-8"));
  EXPECT_TRUE(compressibleContentType("text/javascript; charset=utf-8"));
  EXPECT_TRUE(compressibleContentType("image/svg+xml"));
  EXPECT_TRUE(compressibleContentType("application/problem+json"));
  EXPECT_FALSE(compressibleContentType("image/png"));
  EXPECT_FALSE(compressibleContentType("font/woff2"));
  EXPECT_FALSE(compressibleContentType("application/zip"));
  EXPECT_FALSE(compressibleContentType("application/gzip"));
  EXPECT_FALSE(compressibleContentType("application/octet-stream"));
}

TEST(ContentCoding, EncodersRoundTrip) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "{\"id\":" + std::to_string(i) + ",\"title\":\"Page\"},";
  auto gz = docs::core::gzipEncode(text);
  auto br = docs::core::brotliEncode(text);
  EXPECT_LT(gz.size(), text.size() / 4);
  EXPECT_LT(br.size(), text.size() / 4);
  EXPECT_EQ(gunzip(gz), text);
  EXPECT_EQ(unbrotli(br), text);
  EXPECT_EQ(gunzip(docs::core::gzipEncode("")), "");
}
