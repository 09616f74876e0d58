#pragma once
#include <string>
#include <string_view>

namespace docs_rbac {

// Trimmed and lower-cased: grants match emails case-insensitively.
std::string normalizeEmail(std::string_view email);
// The invite dialog's simple pattern: something@something.something, no spaces, at most 254.
bool looksLikeEmail(std::string_view email);

}  // namespace docs_rbac
