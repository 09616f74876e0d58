#include "docs/http.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "url_codec.hpp"

namespace docs {

std::string_view methodName(Method method) {
  switch (method) {
    case Method::Get: return "GET";
    case Method::Head: return "HEAD";
    case Method::Post: return "POST";
    case Method::Put: return "PUT";
    case Method::Patch: return "PATCH";
    case Method::Delete: return "DELETE";
    case Method::Options: return "OPTIONS";
  }
  return "GET";
}

std::optional<Method> parseMethod(std::string_view name) {
  static constexpr Method kAll[] = {Method::Get,   Method::Head,   Method::Post,   Method::Put,
                                    Method::Patch, Method::Delete, Method::Options};
  for (Method m : kAll)
    if (methodName(m) == name) return m;
  return std::nullopt;
}

HttpError::HttpError(int status, std::string code, const std::string& message)
    : std::runtime_error(message), status_(status), code_(std::move(code)) {}
HttpError::~HttpError() = default;

HttpError HttpError::badRequest(const std::string& message, std::string code) {
  return HttpError(400, std::move(code), message);
}
HttpError HttpError::unauthorized(const std::string& message) { return HttpError(401, "unauthorized", message); }
HttpError HttpError::forbidden(const std::string& message) { return HttpError(403, "forbidden", message); }
HttpError HttpError::notFound(const std::string& message) { return HttpError(404, "not_found", message); }
HttpError HttpError::conflict(const std::string& message) { return HttpError(409, "conflict", message); }
HttpError HttpError::payloadTooLarge(const std::string& message) {
  return HttpError(413, "payload_too_large", message);
}

BodyReader::~BodyReader() = default;

Request::Request(Init init) : init_(std::move(init)) {}
Request::~Request() = default;

std::optional<std::string> Request::header(std::string_view name) const {
  for (const auto& [key, value] : init_.headers)
    if (equalsIgnoreCase(key, name)) return value;
  return std::nullopt;
}

std::optional<std::string> Request::query(std::string_view name) const {
  if (!queryParams_) queryParams_ = parseQueryString(init_.rawQuery);
  for (const auto& [key, value] : *queryParams_)
    if (key == name) return value;
  return std::nullopt;
}

const std::string& Request::param(std::string_view name) const {
  for (const auto& [key, value] : pathParams_)
    if (key == name) return value;
  throw HttpError(500, "internal", "route has no parameter " + std::string(name));
}

std::int64_t Request::idParam(std::string_view name) const {
  const std::string& text = param(name);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0)
    throw HttpError::badRequest("'" + std::string(name) + "' must be a positive integer", "invalid_id");
  return value;
}

Json Request::json() const {
  if (init_.body.empty()) throw HttpError::badRequest("A JSON body is required", "invalid_json");
  Json value = Json::parse(init_.body, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) throw HttpError::badRequest("The body is not valid JSON", "invalid_json");
  return value;
}

Json Request::jsonObject() const {
  Json value = json();
  if (!value.is_object()) throw HttpError::badRequest("The body must be a JSON object", "invalid_json");
  return value;
}

BodyReader& Request::bodyReader() const {
  if (!init_.bodyReader) throw HttpError(500, "internal", "route does not stream its body");
  return *init_.bodyReader;
}

const std::optional<Principal>& Request::principal() const {
  if (!principalResolved_) {
    principalResolved_ = true;
    if (init_.resolvePrincipal) principal_ = init_.resolvePrincipal();
  }
  return principal_;
}

const Principal& Request::requirePrincipal() const {
  const auto& p = principal();
  if (!p || p->anonymous()) throw HttpError::unauthorized();
  return *p;
}

void Request::setPathParams(std::vector<std::pair<std::string, std::string>> params) {
  pathParams_ = std::move(params);
}

Response::Response() = default;
Response::~Response() = default;

void Response::setHeader(std::string name, std::string value) {
  for (auto& [key, existing] : headers_) {
    if (equalsIgnoreCase(key, name)) {
      existing = std::move(value);
      return;
    }
  }
  headers_.emplace_back(std::move(name), std::move(value));
}

void Response::addHeader(std::string name, std::string value) {
  headers_.emplace_back(std::move(name), std::move(value));
}

std::optional<std::string> Response::header(std::string_view name) const {
  for (const auto& [key, value] : headers_)
    if (equalsIgnoreCase(key, name)) return value;
  return std::nullopt;
}

void Response::json(const Json& value, int status) {
  status_ = status;
  body_ = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  filePath_.reset();
  setHeader("Content-Type", "application/json; charset=utf-8");
}

void Response::text(std::string body, std::string contentType, int status) {
  status_ = status;
  body_ = std::move(body);
  filePath_.reset();
  setHeader("Content-Type", std::move(contentType));
}

void Response::file(std::string path, std::string contentType, int status) {
  status_ = status;
  body_.clear();
  filePath_ = std::move(path);
  setHeader("Content-Type", std::move(contentType));
}

Json errorBody(std::string_view code, std::string_view message, std::string_view requestId) {
  return Json{{"error", {{"code", code}, {"message", message}, {"request_id", requestId}}}};
}

}  // namespace docs
