#pragma once
// systemd's service notification protocol (sd_notify(3)) without libsystemd: a message is
// one datagram of KEY=VALUE lines to the AF_UNIX socket named by NOTIFY_SOCKET (a path,
// or an abstract name written with a leading '@'). A unit with Type=notify counts docsd
// as started only once READY=1 arrives.

#include <string>

namespace docs::core {

class ServiceNotifier {
 public:
  // Takes NOTIFY_SOCKET from the environment and removes it, so the processes docsd starts
  // (the embedded PostgreSQL speaks the same protocol) cannot report for docsd. Call it
  // before any thread or child process starts.
  static ServiceNotifier fromEnvironment();

  ServiceNotifier() = default;  // disabled: notify() does nothing
  explicit ServiceNotifier(std::string socketAddress);

  bool enabled() const { return !address_.empty(); }
  // Sends the message; false when disabled, the address is unusable or the send failed
  // (the manager is gone: docsd carries on either way).
  bool notify(const std::string& message) const;

 private:
  std::string address_;
};

}  // namespace docs::core
