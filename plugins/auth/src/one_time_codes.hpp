#pragma once
// Email one-time codes: 6 random digits, stored as an HMAC, valid for a few minutes,
// single use, burnt after too many wrong tries; sends are rate-limited per email and
// client, per email and per client (IPv4 address, IPv6 /64), with the same answer
// whether or not an account exists. Each sign-in mail also carries a single-use link
// (only its SHA-256 is stored) that signs in without the code. A code has a purpose:
// signing in, or confirming an account's deletion; neither works for the other.

#include <chrono>
#include <optional>
#include <string>

#include "settings.hpp"

namespace docs {
class Db;
class Tx;
}  // namespace docs

namespace docs_auth {

class Mailer;

enum class SendOutcome { Sent, LimitedForEmail, LimitedForAddress };
enum class CheckOutcome { Valid, Wrong, Expired, TooManyAttempts };
enum class CodePurpose { SignIn, DeleteAccount };

class OneTimeCodes {
 public:
  // `secret` is the HMAC key of the stored codes, kept by reference: AuthCore::open()
  // fills it before any code is issued or checked.
  // Sending and checking a code throw std::logic_error while it is still empty.
  OneTimeCodes(docs::Db& db, Mailer& mailer, const AuthSettings& settings, const std::string& secret);

  // Issues a new sign-in code for email (replacing earlier ones) and mails it with a
  // sign-in link at linkBase + "/login/link#token=..." (no link when linkBase is empty).
  SendOutcome send(const std::string& email, const std::string& clientAddress, const std::string& linkBase = "");
  // Issues and mails a code that confirms deleting the account of email (no link).
  SendOutcome sendDeletionCode(const std::string& email, const std::string& clientAddress);
  // Checks a code inside tx; a valid code is consumed there, a wrong one counts a try.
  CheckOutcome check(docs::Tx& tx, const std::string& email, const std::string& code,
                     CodePurpose purpose = CodePurpose::SignIn);
  // The email a live sign-in link's token names, the link used up in tx; nullopt when
  // the token is unknown, used or expired.
  std::optional<std::string> consumeLink(docs::Tx& tx, const std::string& token);
  // Drops spent codes and links and old rate-limit events.
  void cleanUp();

 private:
  SendOutcome issue(const std::string& email, const std::string& clientAddress, CodePurpose purpose,
                    const std::string& linkBase);
  // The HMAC key; throws std::logic_error before AuthCore::open().
  const std::string& key() const;
  std::string hash(const std::string& email, const std::string& code, CodePurpose purpose) const;
  // Records a send in bucket; false (and nothing recorded) when the bucket is full.
  bool admit(docs::Tx& tx, const std::string& bucket, int limit);

  docs::Db& db_;
  Mailer& mailer_;
  const AuthSettings& settings_;
  const std::string& secret_;
};

// Lower-cased, trimmed address if it looks like one (no spaces, no line breaks, one @,
// a dot in the domain, at most 254 characters); empty otherwise.
std::string normalizeEmail(const std::string& input);

}  // namespace docs_auth
