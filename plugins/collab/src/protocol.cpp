#include "protocol.hpp"

#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>

namespace docs_collab {

using docs::ydoc::Decoder;
using docs::ydoc::Encoder;

namespace {

Encoder header(std::string_view address, MessageType type) {
  Encoder enc;
  enc.writeVarString(address);
  enc.writeVarUint(static_cast<std::uint64_t>(type));
  return enc;
}

Bytes sync(std::string_view address, SyncStep step, std::span<const std::uint8_t> data) {
  Encoder enc = header(address, MessageType::Sync);
  enc.writeVarUint(static_cast<std::uint64_t>(step));
  enc.writeVarUint8Array(data);
  return enc.take();
}

}  // namespace

Incoming parseFrame(std::span<const std::uint8_t> frame) {
  try {
    Decoder dec(frame);
    Incoming in;
    in.address = dec.readVarString();
    std::uint64_t type = dec.readVarUint();
    if (type > static_cast<std::uint64_t>(MessageType::SyncStatus)) throw ProtocolError("unknown message type");
    in.type = static_cast<MessageType>(type);
    in.payload = frame.subspan(dec.position());
    return in;
  } catch (const docs::ydoc::DecodeError& error) {
    throw ProtocolError(std::string("malformed frame: ") + error.what());
  }
}

std::string_view documentName(std::string_view address) { return address.substr(0, address.find('\0')); }

SyncMessage parseSync(std::span<const std::uint8_t> payload) {
  try {
    Decoder dec(payload);
    std::uint64_t step = dec.readVarUint();
    if (step > static_cast<std::uint64_t>(SyncStep::Update)) throw ProtocolError("unknown sync step");
    auto data = dec.readVarUint8Array();
    return {static_cast<SyncStep>(step), data};
  } catch (const docs::ydoc::DecodeError& error) {
    throw ProtocolError(std::string("malformed sync message: ") + error.what());
  }
}

std::string parseAuthToken(std::span<const std::uint8_t> payload) {
  try {
    Decoder dec(payload);
    if (dec.readVarUint() != static_cast<std::uint64_t>(AuthKind::Token))
      throw ProtocolError("clients may only send tokens");
    return dec.readVarString();
  } catch (const docs::ydoc::DecodeError& error) {
    throw ProtocolError(std::string("malformed auth message: ") + error.what());
  }
}

Bytes syncStep1(std::string_view address, std::span<const std::uint8_t> stateVector) {
  return sync(address, SyncStep::Step1, stateVector);
}
Bytes syncStep2(std::string_view address, std::span<const std::uint8_t> update) {
  return sync(address, SyncStep::Step2, update);
}
Bytes syncUpdate(std::string_view address, std::span<const std::uint8_t> update) {
  return sync(address, SyncStep::Update, update);
}

Bytes authenticated(std::string_view address, bool readOnly) {
  Encoder enc = header(address, MessageType::Auth);
  enc.writeVarUint(static_cast<std::uint64_t>(AuthKind::Authenticated));
  enc.writeVarString(readOnly ? "readonly" : "read-write");
  return enc.take();
}

Bytes permissionDenied(std::string_view address, std::string_view reason) {
  Encoder enc = header(address, MessageType::Auth);
  enc.writeVarUint(static_cast<std::uint64_t>(AuthKind::PermissionDenied));
  enc.writeVarString(reason);
  return enc.take();
}

Bytes awareness(std::string_view address, std::span<const std::uint8_t> awarenessUpdate) {
  Encoder enc = header(address, MessageType::Awareness);
  enc.writeVarUint8Array(awarenessUpdate);
  return enc.take();
}

Bytes syncStatus(std::string_view address, bool applied) {
  Encoder enc = header(address, MessageType::SyncStatus);
  enc.writeVarUint(applied ? 1 : 0);
  return enc.take();
}

Bytes closeDocument(std::string_view address, std::string_view reason) {
  Encoder enc = header(address, MessageType::Close);
  enc.writeVarString(reason);
  return enc.take();
}

Bytes stateless(std::string_view address, std::string_view payload) {
  Encoder enc = header(address, MessageType::Stateless);
  enc.writeVarString(payload);
  return enc.take();
}

}  // namespace docs_collab
