#pragma once
// The sign-in providers' accounts linked to a user (a GitHub identity, say). Implemented
// by the auth plugin; other plugins ask it when they must act as the person on that
// provider, e.g. to check that a person may read a private repository.

#include <optional>
#include <string>
#include <string_view>

namespace docs {

class LinkedAccounts {
 public:
  static constexpr const char* kServiceId = "docs.linked_accounts/1";
  virtual ~LinkedAccounts();

  struct Account {
    std::string accountId;  // the provider's own, stable user id (GitHub's numeric id)
    std::string login;      // the name last seen at sign-in; may have changed since
  };
  // The user's account at `provider` ("github"), nullopt when none is linked.
  virtual std::optional<Account> linkedAccount(std::string_view userId, std::string_view provider) = 0;
};

}  // namespace docs
