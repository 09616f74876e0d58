#include <gtest/gtest.h>

#include "http/ws_frame.hpp"

using docs::core::WsEvent;
using docs::core::WsFrameParser;

namespace {

std::string masked(std::uint8_t first, const std::string& payload, std::uint64_t declared = UINT64_MAX) {
  std::string frame;
  frame.push_back(static_cast<char>(first));
  std::uint64_t n = declared == UINT64_MAX ? payload.size() : declared;
  if (n < 126) {
    frame.push_back(static_cast<char>(0x80 | n));
  } else if (n <= 0xFFFF) {
    frame.push_back(static_cast<char>(0x80 | 126));
    frame.push_back(static_cast<char>(n >> 8));
    frame.push_back(static_cast<char>(n & 0xFF));
  } else {
    frame.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) frame.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  }
  const char mask[4] = {1, 2, 3, 4};
  frame.append(mask, 4);
  for (std::size_t i = 0; i < payload.size(); ++i) frame.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
  return frame;
}

}  // namespace

TEST(WsFrame, ParsesAMaskedBinaryMessageFedByteByByte) {
  WsFrameParser parser(1 << 20);
  std::string frame = masked(0x82, std::string("\x00\x01hello", 7));
  for (std::size_t i = 0; i + 1 < frame.size(); ++i) {
    parser.feed(frame.substr(i, 1));
    EXPECT_FALSE(parser.next().has_value());
  }
  parser.feed(frame.substr(frame.size() - 1));
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->kind, WsEvent::Kind::Message);
  EXPECT_TRUE(event->binary);
  EXPECT_EQ(event->data, std::string("\x00\x01hello", 7));
}

TEST(WsFrame, ReassemblesFragmentsAroundAPing) {
  WsFrameParser parser(1 << 20);
  parser.feed(masked(0x01, "hel") + masked(0x89, "p") + masked(0x80, "lo"));
  auto ping = parser.next();
  ASSERT_TRUE(ping);
  EXPECT_EQ(ping->kind, WsEvent::Kind::Ping);
  auto message = parser.next();
  ASSERT_TRUE(message);
  EXPECT_EQ(message->data, "hello");
  EXPECT_FALSE(message->binary);
}

TEST(WsFrame, LengthsAcrossTheEncodings) {
  for (std::size_t size : {0u, 125u, 126u, 65535u, 65536u, 200000u}) {
    WsFrameParser parser(1 << 20);
    parser.feed(masked(0x82, std::string(size, 'x')));
    auto event = parser.next();
    ASSERT_TRUE(event) << size;
    EXPECT_EQ(event->data.size(), size);
  }
}

TEST(WsFrame, UnmaskedClientFrameIsAProtocolError) {
  WsFrameParser parser(1 << 20);
  parser.feed(std::string("\x82\x02hi", 4));
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->kind, WsEvent::Kind::Error);
  EXPECT_EQ(event->code, 1002);
}

TEST(WsFrame, OversizeMessageIsRefusedBeforeItArrives) {
  WsFrameParser parser(1000);
  parser.feed(masked(0x82, "", 5000).substr(0, 8));  // header only: the length is enough
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->code, 1009);
}

TEST(WsFrame, SixtyFourBitLengthWithTheHighBitIsRefused) {
  WsFrameParser parser(SIZE_MAX);
  std::string frame = "\x82\xFF";
  frame += std::string("\x80\x00\x00\x00\x00\x00\x00\x01", 8);
  parser.feed(frame);
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->code, 1002);
}

TEST(WsFrame, FragmentsCannotExceedTheLimitTogether) {
  WsFrameParser parser(10);
  parser.feed(masked(0x02, "123456") + masked(0x80, "789012"));
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->code, 1009);
}

TEST(WsFrame, InvalidUtf8TextIsRefused) {
  WsFrameParser parser(1 << 20);
  parser.feed(masked(0x81, "\xC0\xAF"));
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->code, 1007);
}

TEST(WsFrame, ControlFramesMustBeShortAndFinal) {
  WsFrameParser a(1 << 20);
  a.feed(masked(0x09, "ping"));  // FIN not set
  EXPECT_EQ(a.next()->code, 1002);
  WsFrameParser b(1 << 20);
  b.feed(masked(0x89, std::string(126, 'x')));
  EXPECT_EQ(b.next()->code, 1002);
}

TEST(WsFrame, ContinuationWithoutAMessageAndReservedBits) {
  WsFrameParser a(1 << 20);
  a.feed(masked(0x80, "x"));
  EXPECT_EQ(a.next()->code, 1002);
  WsFrameParser b(1 << 20);
  b.feed(masked(0xC2, "x"));
  EXPECT_EQ(b.next()->code, 1002);
}

TEST(WsFrame, CloseCarriesCodeAndReason) {
  WsFrameParser parser(1 << 20);
  parser.feed(masked(0x88, std::string("\x03\xE8", 2) + "bye"));
  auto event = parser.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->kind, WsEvent::Kind::Close);
  EXPECT_EQ(event->code, 1000);
  EXPECT_EQ(event->data, "bye");
}

TEST(WsFrame, EncodesServerFramesUnmasked) {
  auto small = docs::core::encodeWsFrame(docs::core::WsOpcode::Binary, "abc");
  EXPECT_EQ(small, std::string("\x82\x03"
                               "abc",
                               5));
  auto medium = docs::core::encodeWsFrame(docs::core::WsOpcode::Text, std::string(300, 'a'));
  EXPECT_EQ(static_cast<unsigned char>(medium[1]), 126);
  EXPECT_EQ(medium.size(), 304u);
  auto large = docs::core::encodeWsFrame(docs::core::WsOpcode::Binary, std::string(70000, 'a'));
  EXPECT_EQ(static_cast<unsigned char>(large[1]), 127);
  EXPECT_EQ(large.size(), 70010u);
}
