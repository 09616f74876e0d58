#pragma once
// What keeps slow or greedy clients from holding every HTTP worker: a cap on the
// connections one address may have open at once, and a minimum rate for request bodies
// (a grace period, then on average so many bytes a second).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace docs::core {

// Counts open connections per client address. Trusted proxies carry many clients on
// one address and are not counted.
class ConnectionsPerAddress {
 public:
  // limit 0: no cap.
  ConnectionsPerAddress(std::size_t limit, std::vector<std::string> exempt)
      : limit_(limit), exempt_(std::move(exempt)) {}
  // False when the address already holds `limit` connections; true means release later.
  bool tryAcquire(const std::string& address);
  void release(const std::string& address);
  std::size_t openFrom(const std::string& address);

 private:
  std::size_t limit_;
  std::vector<std::string> exempt_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> open_;
};

struct BodyRate {
  std::chrono::milliseconds grace{10000};
  std::uint64_t minBytesPerSecond = 16384;  // 0: no minimum
};

// Time left, from `elapsed` since the body began, for the client to deliver `wanted`
// bytes in all: grace + wanted / rate - elapsed (never below 1 ms); a very long time when
// there is no minimum rate.
std::chrono::milliseconds bodyTimeLeft(const BodyRate& rate, std::uint64_t wanted, std::chrono::milliseconds elapsed);

}  // namespace docs::core
