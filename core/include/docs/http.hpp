#pragma once
// Requests, responses and the one exception a handler may throw.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace docs {

using Json = nlohmann::json;

enum class Method { Get, Head, Post, Put, Patch, Delete, Options };

std::string_view methodName(Method method);
std::optional<Method> parseMethod(std::string_view name);

// Thrown by handlers for every expected failure; the router turns it into
// {"error": {"code", "message", "request_id"}} with this status.
class HttpError : public std::runtime_error {
 public:
  HttpError(int status, std::string code, const std::string& message);
  ~HttpError() override;
  int status() const { return status_; }
  const std::string& code() const { return code_; }

  static HttpError badRequest(const std::string& message, std::string code = "bad_request");
  static HttpError unauthorized(const std::string& message = "Not Authorized");
  static HttpError forbidden(const std::string& message = "Forbidden");
  static HttpError notFound(const std::string& message = "Not found");
  static HttpError conflict(const std::string& message);
  static HttpError payloadTooLarge(const std::string& message = "Request body is too large");

 private:
  int status_;
  std::string code_;
};

// Who is calling. Anonymous callers have an empty userId.
struct Principal {
  std::string userId;
  std::string email;
  std::string name;
  std::string sessionId;
  // A read-only personal access token: whatever the owner's roles, the caller only reads.
  // Requests other than GET and HEAD are refused before any handler sees such a caller;
  // code that takes a raw token (WebSockets) must not let it write.
  bool readOnly = false;
  bool anonymous() const { return userId.empty(); }
};

// Pulls a request body in pieces, for routes that stream (uploads). Reading past the
// route's limit throws HttpError 413.
class BodyReader {
 public:
  virtual ~BodyReader();
  // Returns 0 at the end of the body.
  virtual std::size_t read(char* buffer, std::size_t size) = 0;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

class Request {
 public:
  struct Init {
    Method method = Method::Get;
    std::string path;      // decoded path, e.g. /api/project/3
    std::string rawQuery;  // without '?'
    std::string host;
    std::string scheme = "http";
    std::string publicOrigin;  // see publicOrigin()
    std::string remoteAddress;
    std::string requestId;
    HeaderList headers;
    std::string body;                                            // filled for non-streaming routes
    BodyReader* bodyReader = nullptr;                            // set for streaming routes
    std::function<std::optional<Principal>()> resolvePrincipal;  // lazy
  };

  explicit Request(Init init);
  ~Request();
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  Method method() const { return init_.method; }
  const std::string& path() const { return init_.path; }
  const std::string& rawQuery() const { return init_.rawQuery; }
  const std::string& host() const { return init_.host; }
  const std::string& scheme() const { return init_.scheme; }
  // The origin links to this deployment use (mail, signed URLs): server.public_url when set,
  // else scheme://Host (the scheme from X-Forwarded-Proto only through a trusted proxy);
  // "" when the Host is not a plain host[:port] (it is the caller's to choose).
  const std::string& publicOrigin() const { return init_.publicOrigin; }
  const std::string& remoteAddress() const { return init_.remoteAddress; }
  const std::string& requestId() const { return init_.requestId; }
  const HeaderList& headers() const { return init_.headers; }

  // Case-insensitive header lookup; first value wins.
  std::optional<std::string> header(std::string_view name) const;
  // Decoded query parameter; first value wins.
  std::optional<std::string> query(std::string_view name) const;
  // The value of a path template parameter such as {id}.
  const std::string& param(std::string_view name) const;
  // A path parameter that must be a positive 64-bit integer, else 400.
  std::int64_t idParam(std::string_view name) const;

  const std::string& body() const { return init_.body; }
  // The body parsed as JSON; malformed JSON is a 400 invalid_json.
  Json json() const;
  // The body parsed as a JSON object; anything else is a 400.
  Json jsonObject() const;
  // For streaming routes only; others throw.
  BodyReader& bodyReader() const;

  // The caller, resolved through the Authenticator service on first use.
  const std::optional<Principal>& principal() const;
  // The caller, or HttpError 401 when anonymous.
  const Principal& requirePrincipal() const;

  void setPathParams(std::vector<std::pair<std::string, std::string>> params);

 private:
  Init init_;
  std::vector<std::pair<std::string, std::string>> pathParams_;
  mutable bool principalResolved_ = false;
  mutable std::optional<Principal> principal_;
  mutable std::optional<std::vector<std::pair<std::string, std::string>>> queryParams_;
};

class Response {
 public:
  Response();
  ~Response();

  void setStatus(int status) { status_ = status; }
  int status() const { return status_; }
  // Replaces any header of the same name (case-insensitive).
  void setHeader(std::string name, std::string value);
  // Adds a header even if one of that name exists (Set-Cookie).
  void addHeader(std::string name, std::string value);
  std::optional<std::string> header(std::string_view name) const;
  const HeaderList& headers() const { return headers_; }

  void json(const Json& value, int status = 200);
  void text(std::string body, std::string contentType = "text/plain; charset=utf-8", int status = 200);
  // Streams the file at path; the server sets Content-Length.
  void file(std::string path, std::string contentType, int status = 200);
  void noContent() {
    status_ = 204;
    body_.clear();
  }

  const std::string& body() const { return body_; }
  const std::optional<std::string>& filePath() const { return filePath_; }

 private:
  int status_ = 200;
  HeaderList headers_;
  std::string body_;
  std::optional<std::string> filePath_;
};

using Handler = std::function<void(Request&, Response&)>;

struct RouteOptions {
  std::size_t maxBodyBytes = 1 << 20;  // 1 MiB; larger bodies get 413
  bool streamBody = false;             // hand the handler a BodyReader instead of a string
  // A body over server.anonymous_body_bytes (64 KiB) is read only for a signed-in caller
  // (401 before a byte of it otherwise). Set for routes whose callers prove themselves
  // inside the body, such as signed webhooks. Streaming handlers authenticate themselves
  // before they read.
  bool anonymousBody = false;
};

// The JSON error body every failure uses.
Json errorBody(std::string_view code, std::string_view message, std::string_view requestId);

}  // namespace docs
