#include "linked_accounts_service.hpp"

#include <charconv>
#include <cstdint>
#include <string>

#include "accounts.hpp"

namespace docs_auth {

using docs::LinkedAccounts;

std::optional<LinkedAccounts::Account> LinkedAccountsService::linkedAccount(std::string_view userId,
                                                                            std::string_view provider) {
  std::int64_t id = 0;
  auto [end, error] = std::from_chars(userId.data(), userId.data() + userId.size(), id);
  if (error != std::errc() || end != userId.data() + userId.size() || id <= 0) return std::nullopt;
  auto linked = accounts_.linkedAccount(id, std::string(provider));
  if (!linked) return std::nullopt;
  return Account{linked->first, linked->second};
}

}  // namespace docs_auth
