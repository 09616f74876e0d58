#include "docs/support/body_fields.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace docs::support {

namespace {
docs::HttpError fieldError(std::string_view field, std::string_view what) {
  return docs::HttpError::badRequest("'" + std::string(field) + "' " + std::string(what), "invalid_field");
}
}  // namespace

void rejectUnknownFields(const docs::Json& body, std::initializer_list<std::string_view> allowed) {
  for (const auto& item : body.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
      throw docs::HttpError::badRequest("Unknown field '" + item.key() + "'", "invalid_field");
  }
}

std::int64_t parseId(std::string_view text, std::string_view name) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value <= 0)
    throw docs::HttpError::badRequest("'" + std::string(name) + "' must be a positive integer", "invalid_id");
  return value;
}

std::int64_t requiredId(const docs::Json& body, std::string_view field) {
  auto it = body.find(std::string(field));
  if (it == body.end() || it->is_null()) throw fieldError(field, "is required");
  if (it->is_number_unsigned() && it->get<std::uint64_t>() > 0 &&
      it->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(it->get<std::uint64_t>());
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && value > 0) return value;
  }
  throw fieldError(field, "must be a positive integer");
}

std::string requiredString(const docs::Json& body, std::string_view field) {
  auto value = optionalString(body, field);
  if (!value) throw fieldError(field, "is required");
  return *value;
}

std::optional<std::string> optionalString(const docs::Json& body, std::string_view field) {
  auto it = body.find(std::string(field));
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) throw fieldError(field, "must be a string");
  return it->get<std::string>();
}

std::optional<bool> optionalBool(const docs::Json& body, std::string_view field) {
  auto it = body.find(std::string(field));
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) throw fieldError(field, "must be true or false");
  return it->get<bool>();
}

std::size_t codePoints(std::string_view text) {
  std::size_t count = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

std::string isoTimestamp(std::string_view t) {
  // Only the ISO DateStyle (PostgreSQL's default) has this shape; pass anything else on.
  if (t.size() < 19 || t[4] != '-' || t[10] != ' ' || t[13] != ':') return std::string(t);
  std::string out(t.substr(0, 19));
  out[10] = 'T';
  char fraction[4] = {'0', '0', '0', 0};
  if (t.size() > 20 && t[19] == '.')
    for (std::size_t i = 0; i < 3 && 20 + i < t.size(); ++i) fraction[i] = t[20 + i];
  out += '.';
  out += fraction;
  out += 'Z';
  return out;
}

std::int64_t idFromJson(const docs::Json& value) {
  if (value.is_number_integer()) return value.get<std::int64_t>() > 0 ? value.get<std::int64_t>() : 0;
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    std::int64_t id = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (error == std::errc() && end == text.data() + text.size() && id > 0) return id;
  }
  return 0;
}

}  // namespace docs::support
