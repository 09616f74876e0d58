#include "emails.hpp"

#include <algorithm>

namespace docs_rbac {

std::string normalizeEmail(std::string_view email) {
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!email.empty() && isSpace(email.front())) email.remove_prefix(1);
  while (!email.empty() && isSpace(email.back())) email.remove_suffix(1);
  std::string out(email);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return out;
}

bool looksLikeEmail(std::string_view email) {
  if (email.empty() || email.size() > 254) return false;
  for (char c : email)
    if (static_cast<unsigned char>(c) <= ' ' || c == '<' || c == '>' || c == ',' || c == ';') return false;
  auto at = email.find('@');
  if (at == 0 || at == std::string_view::npos || email.find('@', at + 1) != std::string_view::npos) return false;
  auto domain = email.substr(at + 1);
  auto dot = domain.find('.');
  return dot != std::string_view::npos && dot > 0 && domain.back() != '.';
}

}  // namespace docs_rbac
