#pragma once
// The LinkedAccounts service: the sign-in accounts linked to a user, for plugins that act
// as a person on GitHub.

#include <docs/services/linked_accounts.hpp>

namespace docs_auth {

class Accounts;

class LinkedAccountsService final : public docs::LinkedAccounts {
 public:
  explicit LinkedAccountsService(Accounts& accounts) : accounts_(accounts) {}
  // nullopt too for a user id that is not a positive number.
  std::optional<Account> linkedAccount(std::string_view userId, std::string_view provider) override;

 private:
  Accounts& accounts_;
};

}  // namespace docs_auth
