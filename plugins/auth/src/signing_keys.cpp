#include "signing_keys.hpp"

#include <docs/db.hpp>

#include <stdexcept>

#include "crypto.hpp"

namespace docs_auth {

using docs::Db;
using docs::Tx;

SigningKeys::SigningKeys(Db& db, std::chrono::seconds tokenLifetime, std::chrono::seconds rotationAge)
    : db_(db), tokenLifetime_(tokenLifetime), rotationAge_(rotationAge) {}

void SigningKeys::reload() {
  // Retired keys verify for one token lifetime (plus a minute of clock skew).
  auto rows = db_.exec(
      "SELECT kid, private_key, public_key, retired_at IS NULL AS active FROM auth_signing_keys"
      " WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)"
      " ORDER BY created_at DESC, kid",
      {static_cast<std::int64_t>(tokenLifetime_.count() + 60)});
  std::map<std::string, std::string> verifying;
  std::optional<SigningKey> current;
  for (auto row : rows) {
    auto publicKey = docs::codec::base64UrlDecode(row.text("public_key"));
    if (!publicKey) continue;
    verifying[row.text("kid")] = *publicKey;
    if (!current && row.boolean("active")) {
      auto privateKey = docs::codec::base64Decode(row.text("private_key"));
      if (privateKey) current = SigningKey{row.text("kid"), *privateKey, *publicKey};
    }
  }
  verifying_ = std::move(verifying);
  current_ = std::move(current);
  loadedAt_ = std::chrono::steady_clock::now();
}

SigningKey SigningKeys::current() {
  std::lock_guard lock(mutex_);
  // Re-read now and then so a rotation on another node is picked up.
  if (!current_ || std::chrono::steady_clock::now() - loadedAt_ > std::chrono::minutes(1)) reload();
  if (current_) return *current_;
  db_.transaction([&](Tx& tx) {
    tx.exec("SELECT pg_advisory_xact_lock(hashtext('docs.auth.signing_keys'))");
    if (!tx.exec("SELECT 1 FROM auth_signing_keys WHERE retired_at IS NULL").empty()) return;
    auto pair = generateEd25519();
    tx.exec(
        "INSERT INTO auth_signing_keys (kid, private_key, public_key) VALUES ($1, $2, $3)",
        {randomToken(12), docs::codec::base64Encode(pair.privateKey), docs::codec::base64UrlEncode(pair.publicKey)});
  });
  reload();
  if (!current_) throw std::runtime_error("no JWT signing key could be made");
  return *current_;
}

std::optional<std::string> SigningKeys::publicKey(const std::string& kid) {
  std::lock_guard lock(mutex_);
  auto found = verifying_.find(kid);
  if (found == verifying_.end() && std::chrono::steady_clock::now() - loadedAt_ > std::chrono::seconds(1)) {
    reload();
    found = verifying_.find(kid);
  }
  if (found == verifying_.end()) return std::nullopt;
  return found->second;
}

nlohmann::json SigningKeys::jwks() {
  current();  // makes sure a key exists
  std::lock_guard lock(mutex_);
  reload();
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& [kid, publicKey] : verifying_)
    keys.push_back({{"kty", "OKP"},
                    {"crv", "Ed25519"},
                    {"alg", "EdDSA"},
                    {"use", "sig"},
                    {"kid", kid},
                    {"x", docs::codec::base64UrlEncode(publicKey)}});
  return {{"keys", keys}};
}

void SigningKeys::rotate(bool force) {
  db_.transaction([&](Tx& tx) {
    tx.exec("SELECT pg_advisory_xact_lock(hashtext('docs.auth.signing_keys'))");
    auto due = tx.exec(
        "SELECT count(*) FILTER (WHERE created_at > now() - make_interval(secs => $1)) AS fresh"
        " FROM auth_signing_keys WHERE retired_at IS NULL",
        {static_cast<std::int64_t>(rotationAge_.count())});
    if (force || due[0].int64("fresh") == 0) {
      tx.exec("UPDATE auth_signing_keys SET retired_at = now() WHERE retired_at IS NULL");
      auto pair = generateEd25519();
      tx.exec(
          "INSERT INTO auth_signing_keys (kid, private_key, public_key) VALUES ($1, $2, $3)",
          {randomToken(12), docs::codec::base64Encode(pair.privateKey), docs::codec::base64UrlEncode(pair.publicKey)});
    }
    tx.exec("DELETE FROM auth_signing_keys WHERE retired_at < now() - make_interval(secs => $1)",
            {static_cast<std::int64_t>(tokenLifetime_.count() + 3600)});
  });
  std::lock_guard lock(mutex_);
  reload();
}

}  // namespace docs_auth
