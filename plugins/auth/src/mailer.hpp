#pragma once
// Sends mail: over SMTP when smtp.url is set (STARTTLS when the server offers it,
// smtps:// for TLS from the start; with smtp.require_tls a server without STARTTLS
// gets nothing), otherwise into $DOCS_DATA_DIR/outbox/ as .eml files
// so a deployment with no mail server still works.

#include <stdexcept>
#include <string>

namespace docs {
class Logger;
}

namespace docs_auth {

struct MailMessage {
  std::string to;
  std::string subject;
  std::string text;
};

struct MailerSettings {
  std::string smtpUrl;  // smtp://[user[:password]@]host[:port] or smtps://...; empty: outbox
  std::string from;     // "docs <no-reply@localhost>"
  std::string outboxDir;
  int timeoutMs = 10000;
  bool verifyTls = true;
  bool requireTls = false;  // smtp:// without a successful STARTTLS sends nothing
};

// Thrown when smtp.require_tls is set and the server offered no TLS: nothing was sent.
class MailTlsRequired : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Mailer {
 public:
  Mailer(MailerSettings settings, docs::Logger& logger);
  // Throws std::runtime_error when the message could not be handed over.
  void send(const MailMessage& message);
  bool usesOutbox() const { return settings_.smtpUrl.empty(); }

 private:
  void writeToOutbox(const MailMessage& message);
  void sendSmtp(const MailMessage& message);

  MailerSettings settings_;
  docs::Logger& logger_;
};

// The message as RFC 5322 text (CRLF line ends), as written to the outbox.
std::string formatMessage(const MailMessage& message, const std::string& from);

}  // namespace docs_auth
