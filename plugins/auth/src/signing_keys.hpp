#pragma once
// The Ed25519 keys that sign JWTs, kept in auth_signing_keys so every node signs and
// verifies with the same keys. Rotation makes a new signing key and retires the old one,
// which keeps verifying until the last token it signed has expired.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace docs {
class Db;
}

namespace docs_auth {

struct SigningKey {
  std::string kid;
  std::string privateKey;  // raw seed; empty for keys loaded only to verify
  std::string publicKey;   // raw
};

class SigningKeys {
 public:
  SigningKeys(docs::Db& db, std::chrono::seconds tokenLifetime, std::chrono::seconds rotationAge);

  // The key that signs new tokens; creates the first one if there is none.
  SigningKey current();
  // A verifying key by id; unknown ids re-read the table at most once a second.
  std::optional<std::string> publicKey(const std::string& kid);
  // {"keys": [...]} with every key that may still verify a live token.
  nlohmann::json jwks();
  // Makes a new key if the signing key is older than the rotation age (or `force`), and
  // drops keys retired longer ago than a token lives. Safe on several nodes at once.
  void rotate(bool force = false);

 private:
  void reload();

  docs::Db& db_;
  std::chrono::seconds tokenLifetime_;
  std::chrono::seconds rotationAge_;
  std::mutex mutex_;
  std::optional<SigningKey> current_;
  std::map<std::string, std::string> verifying_;  // kid -> raw public key
  std::chrono::steady_clock::time_point loadedAt_{};
};

}  // namespace docs_auth
