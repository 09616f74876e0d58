#pragma once
// Email one-time codes: 6 random digits, stored as an HMAC, valid for a few minutes,
// single use, burnt after too many wrong tries; sends are rate-limited per address and
// per client IP, with the same answer whether or not an account exists.

#include <chrono>
#include <string>

#include "settings.hpp"

namespace docs {
class Db;
class Tx;
}  // namespace docs

namespace docs::auth {

class Mailer;

enum class SendOutcome { Sent, LimitedForEmail, LimitedForAddress };
enum class CheckOutcome { Valid, Wrong, Expired, TooManyAttempts };

class OneTimeCodes {
 public:
  OneTimeCodes(Db& db, Mailer& mailer, const AuthSettings& settings, std::string secret);

  // Issues a new code for email (replacing earlier ones) and mails it.
  SendOutcome send(const std::string& email, const std::string& clientAddress);
  // Checks a code inside tx; a valid code is consumed there, a wrong one counts a try.
  CheckOutcome check(Tx& tx, const std::string& email, const std::string& code);
  // Drops spent codes and old rate-limit events.
  void cleanUp();

 private:
  std::string hash(const std::string& email, const std::string& code) const;
  // Records a send in bucket; false (and nothing recorded) when the bucket is full.
  bool admit(Tx& tx, const std::string& bucket, int limit);

  Db& db_;
  Mailer& mailer_;
  const AuthSettings& settings_;
  std::string secret_;
};

// Lower-cased, trimmed address if it looks like one (no spaces, no line breaks, one @,
// a dot in the domain, at most 254 characters); empty otherwise.
std::string normalizeEmail(const std::string& input);

}  // namespace docs::auth
