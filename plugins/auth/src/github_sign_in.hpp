#pragma once
// GitHub sign-in (OAuth web flow): an authorize URL with a signed, single-use `state`
// bound to the browser by a cookie, then the code exchanged for the user's profile and
// primary verified email. Base URLs are configuration, so GitHub Enterprise and local
// fakes work.

#include <optional>
#include <string>

#include "accounts.hpp"
#include "settings.hpp"

namespace docs {
class Db;
}

namespace docs_auth {

struct AuthorizeStart {
  std::string url;    // where the browser goes
  std::string nonce;  // for the state cookie
};

struct PendingSignIn {
  std::string callbackUrl;
  std::string redirectUri;
};

class GithubSignIn {
 public:
  // `secret` signs the OAuth state, kept by reference: AuthCore::open() fills it before
  // any sign-in starts (start() and consumeState() throw std::logic_error until then).
  GithubSignIn(docs::Db& db, const AuthSettings& settings, const std::string& secret);

  bool configured() const { return !settings_.githubClientId.empty(); }
  AuthorizeStart start(const std::string& callbackUrl, const std::string& redirectUri);
  // Validates the state's signature, its cookie and that it is unused and fresh, and
  // marks it used. nullopt for a missing, forged, expired or replayed state.
  std::optional<PendingSignIn> consumeState(const std::string& state, const std::string& cookieNonce);
  // Exchanges the code; error text when GitHub refuses or has no verified email.
  std::optional<GithubProfile> fetchProfile(const std::string& code, const std::string& redirectUri,
                                            std::string& error);

 private:
  // The HMAC key; throws std::logic_error before AuthCore::open().
  const std::string& key() const;
  std::string sign(const std::string& nonce) const;

  docs::Db& db_;
  const AuthSettings& settings_;
  const std::string& secret_;
};

}  // namespace docs_auth
