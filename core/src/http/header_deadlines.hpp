#pragma once
// Cuts off connections that have not finished sending a request's headers (or its body,
// or the next request on a kept-alive connection) in time. Entries hold a socket
// reference, so a descriptor is never reused while watched.

#include <Poco/Net/StreamSocket.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace docs::core {

class HeaderDeadlines {
 public:
  HeaderDeadlines();
  ~HeaderDeadlines();
  HeaderDeadlines(const HeaderDeadlines&) = delete;
  HeaderDeadlines& operator=(const HeaderDeadlines&) = delete;

  void arm(const Poco::Net::StreamSocket& socket, std::chrono::milliseconds timeout);
  void disarm(Poco::Net::SocketImpl* key);
  void remove(Poco::Net::SocketImpl* key);

 private:
  struct Entry {
    Poco::Net::StreamSocket socket;
    std::chrono::steady_clock::time_point deadline;
    bool armed = false;
  };
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::unordered_map<Poco::Net::SocketImpl*, Entry> entries_;
  std::thread thread_;
};

}  // namespace docs::core
