#include "http/ws_frame.hpp"

namespace docs::core {

bool isValidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t length;
    std::uint32_t codepoint;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) length = 2, codepoint = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) length = 3, codepoint = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) length = 4, codepoint = c & 0x07;
    else return false;
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      unsigned char cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      codepoint = (codepoint << 6) | (cc & 0x3F);
    }
    if ((length == 2 && codepoint < 0x80) || (length == 3 && codepoint < 0x800) ||
        (length == 4 && (codepoint < 0x10000 || codepoint > 0x10FFFF)) || (codepoint >= 0xD800 && codepoint <= 0xDFFF))
      return false;
    i += length;
  }
  return true;
}

std::optional<WsEvent> WsFrameParser::fail(std::uint16_t code, std::string reason) {
  failed_ = true;
  std::string().swap(buffer_);
  std::string().swap(message_);
  offset_ = 0;
  return WsEvent{WsEvent::Kind::Error, false, std::move(reason), code};
}

std::optional<WsEvent> WsFrameParser::next() {
  while (!failed_) {
    std::string_view data(buffer_);
    data.remove_prefix(offset_);
    if (data.size() < 2) break;
    auto b0 = static_cast<unsigned char>(data[0]);
    auto b1 = static_cast<unsigned char>(data[1]);
    bool fin = b0 & 0x80;
    if (b0 & 0x70) return fail(1002, "reserved bits set");
    auto opcode = static_cast<WsOpcode>(b0 & 0x0F);
    bool masked = b1 & 0x80;
    if (!masked) return fail(1002, "client frames must be masked");
    std::uint64_t length = b1 & 0x7F;
    std::size_t header = 2;
    if (length == 126) {
      if (data.size() < 4) break;
      length = (std::uint64_t(static_cast<unsigned char>(data[2])) << 8) | static_cast<unsigned char>(data[3]);
      header = 4;
    } else if (length == 127) {
      if (data.size() < 10) break;
      length = 0;
      for (int i = 0; i < 8; ++i) length = (length << 8) | static_cast<unsigned char>(data[2 + i]);
      if (length >> 63) return fail(1002, "frame length out of range");
      header = 10;
    }
    bool control = static_cast<std::uint8_t>(opcode) >= 8;
    if (control && (!fin || length > 125)) return fail(1002, "invalid control frame");
    if (!control && (inMessage_ ? message_.size() : 0) + length > maxMessageBytes_)
      return fail(1009, "message too big");
    if (data.size() < header + 4 + length) break;
    const char* mask = data.data() + header;
    std::string payload(data.substr(header + 4, static_cast<std::size_t>(length)));
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(payload[i] ^ mask[i % 4]);
    offset_ += header + 4 + static_cast<std::size_t>(length);
    if (offset_ > 65536 && offset_ * 2 > buffer_.size()) {
      buffer_.erase(0, offset_);
      offset_ = 0;
    }
    switch (opcode) {
      case WsOpcode::Ping: return WsEvent{WsEvent::Kind::Ping, false, std::move(payload), 0};
      case WsOpcode::Pong: return WsEvent{WsEvent::Kind::Pong, false, std::move(payload), 0};
      case WsOpcode::Close: {
        std::uint16_t code = 1005;
        std::string reason;
        if (payload.size() == 1) return fail(1002, "malformed close frame");
        if (payload.size() >= 2) {
          code = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) |
                                            static_cast<unsigned char>(payload[1]));
          reason = payload.substr(2);
          if (!isValidUtf8(reason)) return fail(1007, "close reason is not UTF-8");
        }
        return WsEvent{WsEvent::Kind::Close, false, std::move(reason), code};
      }
      case WsOpcode::Text:
      case WsOpcode::Binary:
        if (inMessage_) return fail(1002, "new message before the previous one ended");
        inMessage_ = true;
        messageBinary_ = opcode == WsOpcode::Binary;
        message_ = std::move(payload);
        break;
      case WsOpcode::Continuation:
        if (!inMessage_) return fail(1002, "continuation without a message");
        message_ += payload;
        break;
      default: return fail(1002, "unknown opcode");
    }
    if (fin) {
      inMessage_ = false;
      if (!messageBinary_ && !isValidUtf8(message_)) return fail(1007, "text message is not UTF-8");
      return WsEvent{WsEvent::Kind::Message, messageBinary_, std::move(message_), 0};
    }
  }
  if (offset_ > 0 && offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  }
  return std::nullopt;
}

std::string encodeWsFrame(WsOpcode opcode, std::string_view payload) {
  std::string frame;
  frame.reserve(payload.size() + 10);
  frame.push_back(static_cast<char>(0x80 | static_cast<std::uint8_t>(opcode)));
  if (payload.size() < 126) {
    frame.push_back(static_cast<char>(payload.size()));
  } else if (payload.size() <= 0xFFFF) {
    frame.push_back(static_cast<char>(126));
    frame.push_back(static_cast<char>(payload.size() >> 8));
    frame.push_back(static_cast<char>(payload.size() & 0xFF));
  } else {
    frame.push_back(static_cast<char>(127));
    for (int i = 7; i >= 0; --i) frame.push_back(static_cast<char>((std::uint64_t(payload.size()) >> (8 * i)) & 0xFF));
  }
  frame.append(payload.data(), payload.size());
  return frame;
}

std::string encodeWsClose(std::uint16_t code, std::string_view reason) {
  std::string payload;
  payload.push_back(static_cast<char>(code >> 8));
  payload.push_back(static_cast<char>(code & 0xFF));
  payload.append(reason.substr(0, 123));
  return encodeWsFrame(WsOpcode::Close, payload);
}

}  // namespace docs::core
