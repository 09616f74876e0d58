#pragma once
// The `auth.send_mail` job: mail other plugins send to people (plugins/comments: a
// mention), through the same path as the sign-in codes (SMTP, or the outbox without it).
// Payload: {"to": "a@b.c", "subject", "text"}. A job queued inside the caller's
// transaction exists only if it commits; a failed hand-over is retried by the queue.

#include <docs/jobs.hpp>

namespace docs_auth {

class Mailer;

inline constexpr const char* kSendMailJob = "auth.send_mail";

// Sends the job's message. A malformed payload throws std::invalid_argument, so the
// queue fails the job after its attempts.
void runSendMailJob(Mailer& mailer, const docs::JobContext& job);

}  // namespace docs_auth
