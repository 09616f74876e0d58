#include "one_time_codes.hpp"

#include <docs/db.hpp>

#include <algorithm>
#include <cctype>

#include "crypto.hpp"
#include "mailer.hpp"

namespace docs::auth {

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

OneTimeCodes::OneTimeCodes(Db& db, Mailer& mailer, const AuthSettings& settings, std::string secret)
    : db_(db), mailer_(mailer), settings_(settings), secret_(std::move(secret)) {}

std::string OneTimeCodes::hash(const std::string& email, const std::string& code) const {
  return base64UrlEncode(hmacSha256(secret_, "otp:" + email + ":" + code));
}

bool OneTimeCodes::admit(Tx& tx, const std::string& bucket, int limit) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtext($1))", {bucket});
  auto count = tx.exec("SELECT count(*) AS n FROM auth_rate_events WHERE bucket = $1"
                       " AND created_at > now() - make_interval(secs => $2)",
                       {bucket, static_cast<std::int64_t>(settings_.otpSendWindow.count())});
  if (count[0].int64("n") >= limit) return false;
  tx.exec("INSERT INTO auth_rate_events (bucket) VALUES ($1)", {bucket});
  return true;
}

SendOutcome OneTimeCodes::send(const std::string& email, const std::string& clientAddress) {
  std::string code = randomDigits(6);
  SendOutcome outcome = SendOutcome::Sent;
  db_.transaction([&](Tx& tx) {
    if (!admit(tx, "otp-ip:" + clientAddress, settings_.otpSendsPerAddress)) {
      outcome = SendOutcome::LimitedForAddress;
      return;
    }
    if (!admit(tx, "otp-email:" + email, settings_.otpSendsPerEmail)) {
      outcome = SendOutcome::LimitedForEmail;
      return;
    }
    // A new code replaces the old ones, so guesses are bounded by sends x tries.
    tx.exec("DELETE FROM auth_otps WHERE email = $1", {email});
    tx.exec("INSERT INTO auth_otps (email, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))",
            {email, hash(email, code), static_cast<std::int64_t>(settings_.otpLifetime.count())});
    // Mail goes out inside the transaction: if it cannot be handed over, no code exists.
    long minutes = std::max<long>(1, static_cast<long>(settings_.otpLifetime.count() / 60));
    mailer_.send({email, "Your sign-in code: " + code,
                  "Your sign-in code is " + code + "\n\nIt expires in " + std::to_string(minutes) +
                      " minutes and works once. If you did not ask for it, ignore this message.\n"});
  });
  return outcome;
}

CheckOutcome OneTimeCodes::check(Tx& tx, const std::string& email, const std::string& code) {
  auto rows = tx.exec("SELECT id, code_hash, attempts, expires_at <= now() AS expired FROM auth_otps"
                      " WHERE email = $1 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE",
                      {email});
  if (rows.empty() || rows[0].boolean("expired")) return CheckOutcome::Expired;
  auto id = rows[0].int64("id");
  if (rows[0].int64("attempts") >= settings_.otpMaxAttempts) return CheckOutcome::TooManyAttempts;
  if (!constantTimeEqual(hash(email, code), rows[0].text("code_hash"))) {
    tx.exec("UPDATE auth_otps SET attempts = attempts + 1 WHERE id = $1", {id});
    return CheckOutcome::Wrong;
  }
  tx.exec("UPDATE auth_otps SET consumed_at = now() WHERE id = $1", {id});
  return CheckOutcome::Valid;
}

void OneTimeCodes::cleanUp() {
  db_.exec("DELETE FROM auth_otps WHERE expires_at < now() - interval '1 day' OR consumed_at IS NOT NULL");
  db_.exec("DELETE FROM auth_rate_events WHERE created_at < now() - make_interval(secs => $1)",
           {static_cast<std::int64_t>(settings_.otpSendWindow.count())});
}

}  // namespace docs::auth
