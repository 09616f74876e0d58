#pragma once
// A local SMTP server for tests: speaks enough ESMTP for a client to deliver (EHLO,
// MAIL, RCPT, DATA, QUIT; refuses STARTTLS) and keeps every message it receives.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace docs::test {

struct ReceivedMail {
  std::string from;
  std::vector<std::string> recipients;
  std::string data;
  std::vector<std::string> commands;  // what the client said, in order
};

class SmtpSink {
 public:
  SmtpSink();
  ~SmtpSink();
  int port() const { return port_; }
  // Waits for the n-th message (1-based); false on timeout.
  bool waitFor(std::size_t count, int timeoutMs = 10000);
  std::vector<ReceivedMail> messages();
  // Every command any client sent, in order, whether or not a message followed.
  std::vector<std::string> commands();

 private:
  void serve();
  void converse(int fd);

  int listenFd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<ReceivedMail> messages_;
  std::vector<std::string> commands_;
};

}  // namespace docs::test
