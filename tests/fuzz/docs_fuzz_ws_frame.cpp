// Client bytes into the WebSocket frame parser, fed in pieces whose sizes the first byte
// chooses; every event is taken until it needs more bytes or has failed.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/ws_frame.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::size_t piece = 1 + data[0] % 64;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  docs::core::WsFrameParser parser(data[0] & 0x80 ? 64 : 1 << 16);
  for (std::size_t at = 0; at < bytes.size(); at += piece) {
    parser.feed(bytes.substr(at, piece));
    while (auto event = parser.next()) {
      if (event->kind == docs::core::WsEvent::Kind::Message && !event->binary)
        (void)docs::core::isValidUtf8(event->data);
      if (event->kind == docs::core::WsEvent::Kind::Error) return 0;
    }
  }
  (void)docs::core::encodeWsFrame(docs::core::WsOpcode::Text, bytes);
  (void)docs::core::encodeWsClose(1000, bytes.substr(0, 100));
  return 0;
}
