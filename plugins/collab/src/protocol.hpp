#pragma once
// The Hocuspocus wire protocol (v2-v4 framing): every binary frame is
//   varString documentAddress · varUint messageType · payload
// Builders for what the server sends and a parser for what clients send.
// docs/collab-protocol.md describes it as docsd speaks it.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace docs_collab {

using Bytes = std::vector<std::uint8_t>;

enum class MessageType : std::uint64_t {
  Sync = 0,
  Awareness = 1,
  Auth = 2,
  QueryAwareness = 3,
  SyncReply = 4,
  Stateless = 5,
  BroadcastStateless = 6,
  Close = 7,
  SyncStatus = 8,
};

enum class SyncStep : std::uint64_t { Step1 = 0, Step2 = 1, Update = 2 };
enum class AuthKind : std::uint64_t { Token = 0, PermissionDenied = 1, Authenticated = 2 };

// Close codes the provider understands (@hocuspocus/common CloseEvents).
inline constexpr std::uint16_t kCloseUnauthorized = 4401;
inline constexpr std::uint16_t kCloseForbidden = 4403;
inline constexpr std::uint16_t kCloseResetConnection = 4205;
inline constexpr std::uint16_t kCloseMessageTooBig = 1009;
inline constexpr std::uint16_t kClosePolicy = 1008;
inline constexpr std::uint16_t kCloseInvalidData = 1007;

// A decoded client frame. `payload` points into the frame.
struct Incoming {
  std::string address;  // as sent (may carry "\0sessionId"); replies echo it
  MessageType type = MessageType::Sync;
  std::span<const std::uint8_t> payload;
};

// Throws ProtocolError for frames that do not parse.
Incoming parseFrame(std::span<const std::uint8_t> frame);

struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The document name in an address: "name\0session" -> "name".
std::string_view documentName(std::string_view address);

// Sync payload: step and the state vector or update it carries.
struct SyncMessage {
  SyncStep step;
  std::span<const std::uint8_t> data;
};
SyncMessage parseSync(std::span<const std::uint8_t> payload);
// Auth from a client: the token (and provider version, ignored).
std::string parseAuthToken(std::span<const std::uint8_t> payload);

Bytes syncStep1(std::string_view address, std::span<const std::uint8_t> stateVector);
Bytes syncStep2(std::string_view address, std::span<const std::uint8_t> update);
Bytes syncUpdate(std::string_view address, std::span<const std::uint8_t> update);
Bytes authenticated(std::string_view address, bool readOnly);
Bytes permissionDenied(std::string_view address, std::string_view reason);
Bytes awareness(std::string_view address, std::span<const std::uint8_t> awarenessUpdate);
Bytes syncStatus(std::string_view address, bool applied);
Bytes closeDocument(std::string_view address, std::string_view reason);
// News about the document for its editors (JSON text), e.g. {"type":"comments","page_id":12}.
Bytes stateless(std::string_view address, std::string_view payload);

}  // namespace docs_collab
