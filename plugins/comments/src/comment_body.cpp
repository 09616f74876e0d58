#include "comment_body.hpp"

#include <algorithm>

#include <docs/http.hpp>
#include <docs/support/body_fields.hpp>

namespace docs_comments {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

// C0 controls other than tab and line breaks, and DEL. NUL cannot even be stored.
bool hasControl(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7f;
  });
}

bool localChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '%' || c == '+' || c == '-';
}
bool domainChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::string validBody(std::string_view body) {
  std::string_view text = trimmed(body);
  if (text.empty()) throw docs::HttpError::badRequest("Write something first", "invalid_field");
  if (hasControl(text)) throw docs::HttpError::badRequest("The comment holds control characters", "invalid_field");
  if (docs::support::codePoints(text) > kMaxBodyChars)
    throw docs::HttpError::badRequest("A comment must be at most " + std::to_string(kMaxBodyChars) + " characters",
                                      "invalid_field");
  return std::string(text);
}

std::string validQuote(std::string_view quote) {
  if (hasControl(quote)) throw docs::HttpError::badRequest("The quote holds control characters", "invalid_field");
  std::string out;
  out.reserve(quote.size());
  for (char c : trimmed(quote)) {
    if (isSpace(c)) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  if (docs::support::codePoints(out) > kMaxQuoteChars)
    throw docs::HttpError::badRequest("A quote must be at most " + std::to_string(kMaxQuoteChars) + " characters",
                                      "invalid_field");
  return out;
}

std::vector<std::string> mentionedEmails(std::string_view body) {
  std::vector<std::string> emails;
  for (std::size_t at = 0; at < body.size(); ++at) {
    if (body[at] != '@') continue;
    if (at > 0 && (localChar(body[at - 1]) || body[at - 1] == '@')) continue;
    std::size_t local = at + 1, end = local;
    while (end < body.size() && localChar(body[end])) ++end;
    if (end == local || end >= body.size() || body[end] != '@') continue;
    std::size_t domain = end + 1, stop = domain;
    while (stop < body.size() && domainChar(body[stop])) ++stop;
    while (stop > domain && (body[stop - 1] == '.' || body[stop - 1] == '-')) --stop;  // "...@x.com." ends a sentence
    std::string_view host = body.substr(domain, stop - domain);
    auto dot = host.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || host.size() - dot < 3) continue;
    std::string email;
    for (char c : body.substr(local, stop - local)) email.push_back(lower(c));
    if (email.size() <= 254 && std::find(emails.begin(), emails.end(), email) == emails.end()) emails.push_back(email);
    at = stop - 1;
  }
  return emails;
}

}  // namespace docs_comments
