#include "one_time_codes.hpp"

#include <docs/db.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "crypto.hpp"
#include "mailer.hpp"
#include "sign_in_limits.hpp"

namespace docs_auth {

using docs::Db;
using docs::Tx;

std::string normalizeEmail(const std::string& input) {
  auto begin = input.find_first_not_of(" \t");
  auto end = input.find_last_not_of(" \t");
  if (begin == std::string::npos) return "";
  std::string email = input.substr(begin, end - begin + 1);
  if (email.size() > 254) return "";
  for (auto& c : email) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '<' || c == '>' || c == ',' || c == ';' || c == '"' || c == '\\') return "";
    c = static_cast<char>(std::tolower(u));
  }
  auto at = email.find('@');
  if (at == std::string::npos || at == 0 || email.find('@', at + 1) != std::string::npos) return "";
  std::string domain = email.substr(at + 1);
  auto dot = domain.find('.');
  if (dot == std::string::npos || dot == 0 || domain.back() == '.' || domain.find("..") != std::string::npos) return "";
  return email;
}

OneTimeCodes::OneTimeCodes(Db& db, Mailer& mailer, const AuthSettings& settings, const std::string& secret)
    : db_(db), mailer_(mailer), settings_(settings), secret_(secret) {}

namespace {

const char* purposeName(CodePurpose purpose) { return purpose == CodePurpose::SignIn ? "sign-in" : "delete-account"; }

}  // namespace

const std::string& OneTimeCodes::key() const {
  // An empty key would sign every code with "": refuse instead of storing such hashes.
  if (secret_.empty()) throw std::logic_error("one-time codes used before AuthCore::open() loaded the HMAC secret");
  return secret_;
}

std::string OneTimeCodes::hash(const std::string& email, const std::string& code, CodePurpose purpose) const {
  std::string prefix = purpose == CodePurpose::SignIn ? "otp:" : "delete:";
  return docs::codec::base64UrlEncode(docs::codec::hmacSha256(key(), prefix + email + ":" + code));
}

bool OneTimeCodes::admit(Tx& tx, const std::string& bucket, int limit) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtext($1))", {bucket});
  auto count = tx.exec(
      "SELECT count(*) AS n FROM auth_rate_events WHERE bucket = $1"
      " AND created_at > now() - make_interval(secs => $2)",
      {bucket, static_cast<std::int64_t>(settings_.otpSendWindow.count())});
  if (count[0].int64("n") >= limit) return false;
  tx.exec("INSERT INTO auth_rate_events (bucket) VALUES ($1)", {bucket});
  return true;
}

SendOutcome OneTimeCodes::send(const std::string& email, const std::string& clientAddress,
                               const std::string& linkBase) {
  return issue(email, clientAddress, CodePurpose::SignIn, linkBase);
}

SendOutcome OneTimeCodes::sendDeletionCode(const std::string& email, const std::string& clientAddress) {
  return issue(email, clientAddress, CodePurpose::DeleteAccount, "");
}

SendOutcome OneTimeCodes::issue(const std::string& email, const std::string& clientAddress, CodePurpose purpose,
                                const std::string& linkBase) {
  key();  // before any row is written
  std::string code = randomDigits(6);
  const std::string client = clientKey(clientAddress);
  SendOutcome outcome = SendOutcome::Sent;
  db_.transaction([&](Tx& tx) {
    if (!admit(tx, "otp-ip:" + client, settings_.otpSendsPerAddress)) {
      outcome = SendOutcome::LimitedForAddress;
      return;
    }
    // Per email and client: a stranger sending codes to someone's address from elsewhere
    // does not use up what that person's own requests may send.
    if (!admit(tx, "otp-email:" + email + " " + client, settings_.otpSendsPerEmail) ||
        !admit(tx, "otp-email-all:" + email, settings_.otpSendsPerEmailTotal)) {
      outcome = SendOutcome::LimitedForEmail;
      return;
    }
    const auto lifetime = purpose == CodePurpose::SignIn ? settings_.otpLifetime : settings_.deleteCodeLifetime;
    // A new code replaces the old ones of its purpose, so guesses are bounded by sends x tries.
    tx.exec("DELETE FROM auth_otps WHERE email = $1 AND purpose = $2", {email, purposeName(purpose)});
    tx.exec(
        "INSERT INTO auth_otps (email, code_hash, expires_at, purpose) VALUES ($1, $2, now() + make_interval(secs => "
        "$3), $4)",
        {email, hash(email, code, purpose), static_cast<std::int64_t>(lifetime.count()), purposeName(purpose)});
    long minutes = std::max<long>(1, static_cast<long>(lifetime.count() / 60));
    if (purpose == CodePurpose::DeleteAccount) {
      mailer_.send({email, "Your code to delete your account: " + code,
                    "Your account deletion code is " + code + "\n\nEnter it within " + std::to_string(minutes) +
                        " minutes to delete your account and everything it owns. It works once.\n"
                        "If you did not ask to delete your account, someone else may be signed in as you:"
                        " sign out everywhere and ignore this message.\n"});
      return;
    }
    std::string link;
    if (!linkBase.empty()) {
      // Links are not replaced by later sends: each is unguessable, and a mailbox flooded
      // with codes by a stranger still holds working links for its owner.
      std::string token = randomToken(32);
      tx.exec(
          "INSERT INTO auth_magic_links (token_hash, email, expires_at) VALUES ($1, $2, now() + make_interval(secs => "
          "$3))",
          {docs::codec::sha256Hex(token), email, static_cast<std::int64_t>(settings_.magicLinkLifetime.count())});
      long linkMinutes = std::max<long>(1, static_cast<long>(settings_.magicLinkLifetime.count() / 60));
      link = "\nOr sign in with this link (it works once, for " + std::to_string(linkMinutes) + " minutes):\n" +
             linkBase + "/login/link#token=" + token + "\n";
    }
    // Mail goes out inside the transaction: if it cannot be handed over, no code exists.
    mailer_.send({email, "Your sign-in code: " + code,
                  "Your sign-in code is " + code + "\n\nIt expires in " + std::to_string(minutes) +
                      " minutes and works once.\n" + link + "\nIf you did not ask for it, ignore this message.\n"});
  });
  return outcome;
}

CheckOutcome OneTimeCodes::check(Tx& tx, const std::string& email, const std::string& code, CodePurpose purpose) {
  key();  // before a wrong try is counted
  auto rows = tx.exec(
      "SELECT id, code_hash, attempts, expires_at <= now() AS expired FROM auth_otps"
      " WHERE email = $1 AND purpose = $2 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE",
      {email, purposeName(purpose)});
  if (rows.empty() || rows[0].boolean("expired")) return CheckOutcome::Expired;
  auto id = rows[0].int64("id");
  if (rows[0].int64("attempts") >= settings_.otpMaxAttempts) return CheckOutcome::TooManyAttempts;
  if (!docs::codec::constantTimeEqual(hash(email, code, purpose), rows[0].text("code_hash"))) {
    tx.exec("UPDATE auth_otps SET attempts = attempts + 1 WHERE id = $1", {id});
    return CheckOutcome::Wrong;
  }
  tx.exec("UPDATE auth_otps SET consumed_at = now() WHERE id = $1", {id});
  return CheckOutcome::Valid;
}

std::optional<std::string> OneTimeCodes::consumeLink(Tx& tx, const std::string& token) {
  if (token.empty() || token.size() > 256) return std::nullopt;
  auto rows = tx.exec(
      "UPDATE auth_magic_links SET used_at = now()"
      " WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING email",
      {docs::codec::sha256Hex(token)});
  if (rows.empty()) return std::nullopt;
  return rows[0].text("email");
}

void OneTimeCodes::cleanUp() {
  db_.exec("DELETE FROM auth_otps WHERE expires_at < now() - interval '1 day' OR consumed_at IS NOT NULL");
  db_.exec("DELETE FROM auth_magic_links WHERE expires_at < now() - interval '1 day'");
  db_.exec("DELETE FROM auth_rate_events WHERE created_at < now() - make_interval(secs => $1)",
           {static_cast<std::int64_t>(settings_.otpSendWindow.count())});
}

}  // namespace docs_auth
