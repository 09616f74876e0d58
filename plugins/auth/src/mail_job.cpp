#include "mail_job.hpp"

#include <stdexcept>

#include "mailer.hpp"

namespace docs_auth {

void runSendMailJob(Mailer& mailer, const docs::JobContext& job) {
  const auto& payload = job.payload();
  auto field = [&](const char* name) -> std::string {
    auto it = payload.find(name);
    if (it == payload.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
      throw std::invalid_argument(std::string("auth.send_mail: '") + name + "' is missing");
    return it->get<std::string>();
  };
  MailMessage message{field("to"), field("subject"), field("text")};
  if (message.to.find('@') == std::string::npos) throw std::invalid_argument("auth.send_mail: 'to' is not an address");
  mailer.send(message);
}

}  // namespace docs_auth
