#include "mailer.hpp"

#include <docs/logger.hpp>

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/SMTPClientSession.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureSMTPClientSession.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StringPartSource.h>
#include <Poco/URI.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

namespace fs = std::filesystem;

namespace docs_auth {

using docs::Logger;

namespace {

std::string rfc2822Date() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buffer;
}

Poco::Net::Context::Ptr clientContext(bool verify) {
  static std::once_flag once;
  std::call_once(once, [] { Poco::Net::initializeSSL(); });
  return new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                verify ? Poco::Net::Context::VERIFY_RELAXED : Poco::Net::Context::VERIFY_NONE, 9,
                                true /* load the system's CA certificates */);
}

}  // namespace

std::string formatMessage(const MailMessage& message, const std::string& from) {
  std::string text = "From: " + from + "\r\nTo: " + message.to + "\r\nSubject: " + message.subject +
                     "\r\nDate: " + rfc2822Date() +
                     "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n";
  for (char c : message.text) {
    if (c == '\n') text += "\r\n";
    else if (c != '\r') text += c;
  }
  return text;
}

Mailer::Mailer(MailerSettings settings, Logger& logger) : settings_(std::move(settings)), logger_(logger) {}

void Mailer::send(const MailMessage& message) {
  // Addresses reach headers: a line break would let a caller add headers or recipients.
  for (const std::string* field : {&message.to, &message.subject})
    if (field->find_first_of("\r\n") != std::string::npos) throw std::invalid_argument("line break in a mail header");
  if (usesOutbox()) writeToOutbox(message);
  else sendSmtp(message);
}

void Mailer::writeToOutbox(const MailMessage& message) {
  static std::atomic<unsigned> sequence{0};
  fs::create_directories(settings_.outboxDir);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
  char name[64];
  std::snprintf(name, sizeof name, "%015lld-%06u-%d.eml", static_cast<long long>(ms.count()), sequence++ % 1000000,
                static_cast<int>(::getpid()));
  fs::path target = fs::path(settings_.outboxDir) / name;
  fs::path temp = target;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::binary);
    out << formatMessage(message, settings_.from);
    if (!out.flush()) throw std::runtime_error("could not write " + temp.string());
  }
  fs::rename(temp, target);
  // The subject and text hold the sign-in code: they stay in the file (0600), out of the log.
  logger_.info("mail written to the outbox", {{"to", message.to}, {"file", target.string()}});
}

void Mailer::sendSmtp(const MailMessage& message) {
  Poco::URI uri(settings_.smtpUrl);
  bool implicitTls = uri.getScheme() == "smtps";
  if (uri.getScheme() != "smtp" && !implicitTls) throw std::runtime_error("smtp.url must be smtp:// or smtps://");
  std::uint16_t port = uri.getPort() ? uri.getPort() : (implicitTls ? 465 : 25);
  std::string user, password;
  if (const auto& info = uri.getUserInfo(); !info.empty()) {
    auto colon = info.find(':');
    Poco::URI::decode(info.substr(0, colon), user);
    if (colon != std::string::npos) Poco::URI::decode(info.substr(colon + 1), password);
  }

  Poco::Net::MailMessage mail;
  mail.setSender(settings_.from);
  mail.addRecipient(Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, message.to));
  mail.setSubject(message.subject);
  mail.setContentType("text/plain; charset=utf-8");
  mail.setContent(message.text, Poco::Net::MailMessage::ENCODING_8BIT);
  Poco::Timespan timeout(static_cast<long>(settings_.timeoutMs) * 1000);
  Poco::Net::SocketAddress address(uri.getHost(), port);

  auto deliver = [&](Poco::Net::SMTPClientSession& session, bool secure) {
    if (!user.empty()) {
      if (!secure) throw std::runtime_error("refusing to send SMTP credentials over a connection without TLS");
      session.login(Poco::Net::SMTPClientSession::AUTH_LOGIN, user, password);
    }
    session.sendMessage(mail);
    session.close();
  };

  if (implicitTls) {
    Poco::Net::SecureStreamSocket socket(address, uri.getHost(), clientContext(settings_.verifyTls));
    socket.setReceiveTimeout(timeout);
    Poco::Net::SMTPClientSession session(socket);
    session.setTimeout(timeout);
    session.login();
    deliver(session, true);
  } else {
    Poco::Net::StreamSocket socket;
    socket.connect(address, timeout);
    socket.setReceiveTimeout(timeout);
    Poco::Net::SecureSMTPClientSession session(socket);
    session.setTimeout(timeout);
    session.login();
    // STARTTLS when the server offers it; after it the session must greet again.
    bool secure = session.startTLS(clientContext(settings_.verifyTls));
    if (!secure && settings_.requireTls) {
      // Before MAIL FROM: neither the recipient nor the message crosses the plain link.
      try {
        session.close();
      } catch (const Poco::Exception&) {
      }
      logger_.error("mail not sent: smtp.require_tls is set and the SMTP server offers no STARTTLS",
                    {{"to", message.to}, {"host", uri.getHost()}});
      throw MailTlsRequired("the SMTP server " + uri.getHost() + " offers no STARTTLS and smtp.require_tls is set");
    }
    if (secure) session.login();
    deliver(session, secure);
  }
  logger_.info("mail sent over SMTP", {{"to", message.to}, {"host", uri.getHost()}});
}

}  // namespace docs_auth
