#include "smtp_sink.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

namespace docs::test {
namespace {

void sendLine(int fd, const std::string& line) {
  std::string out = line + "\r\n";
  (void)::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
}

// Reads one CRLF-terminated line; false when the peer is gone.
bool readLine(int fd, std::string& buffer, std::string& line) {
  while (true) {
    auto end = buffer.find("\r\n");
    if (end != std::string::npos) {
      line = buffer.substr(0, end);
      buffer.erase(0, end + 2);
      return true;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return false;
    char chunk[4096];
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string upper(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

SmtpSink::SmtpSink() {
  listenFd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listenFd_, 16) != 0)
    throw std::runtime_error("smtp sink: cannot listen");
  socklen_t length = sizeof address;
  ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { serve(); });
}

SmtpSink::~SmtpSink() {
  stopping_ = true;
  ::shutdown(listenFd_, SHUT_RDWR);
  ::close(listenFd_);
  thread_.join();
}

void SmtpSink::serve() {
  while (!stopping_) {
    pollfd p{listenFd_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    int fd = ::accept(listenFd_, nullptr, nullptr);
    if (fd < 0) continue;
    converse(fd);
    ::close(fd);
  }
}

void SmtpSink::converse(int fd) {
  std::string buffer, line;
  ReceivedMail mail;
  sendLine(fd, "220 sink.test ESMTP ready");
  while (readLine(fd, buffer, line)) {
    mail.commands.push_back(line);
    {
      std::lock_guard lock(mutex_);
      commands_.push_back(line);
    }
    std::string verb = upper(line.substr(0, line.find(' ')));
    if (verb == "EHLO") {
      sendLine(fd, "250-sink.test");
      sendLine(fd, "250 8BITMIME");
    } else if (verb == "HELO") {
      sendLine(fd, "250 sink.test");
    } else if (verb == "STARTTLS") {
      sendLine(fd, "502 5.5.1 STARTTLS not offered");
    } else if (verb == "MAIL") {
      mail.from = line.substr(line.find(':') + 1);
      sendLine(fd, "250 2.1.0 OK");
    } else if (verb == "RCPT") {
      mail.recipients.push_back(line.substr(line.find(':') + 1));
      sendLine(fd, "250 2.1.5 OK");
    } else if (verb == "DATA") {
      sendLine(fd, "354 End data with <CR><LF>.<CR><LF>");
      std::string data;
      while (readLine(fd, buffer, line) && line != ".")
        data += (line.rfind("..", 0) == 0 ? line.substr(1) : line) + "\r\n";
      mail.data = data;
      {
        std::lock_guard lock(mutex_);
        messages_.push_back(mail);
      }
      changed_.notify_all();
      mail = ReceivedMail{};
      sendLine(fd, "250 2.0.0 queued");
    } else if (verb == "QUIT") {
      sendLine(fd, "221 2.0.0 bye");
      return;
    } else if (verb == "RSET" || verb == "NOOP") {
      sendLine(fd, "250 OK");
    } else {
      sendLine(fd, "500 5.5.2 unknown command");
    }
  }
}

bool SmtpSink::waitFor(std::size_t count, int timeoutMs) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return messages_.size() >= count; });
}

std::vector<std::string> SmtpSink::commands() {
  std::lock_guard lock(mutex_);
  return commands_;
}

std::vector<ReceivedMail> SmtpSink::messages() {
  std::lock_guard lock(mutex_);
  return messages_;
}

}  // namespace docs::test
