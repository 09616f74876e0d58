#pragma once
// The auth plugin's series on GET /metrics (docs/metrics.md): sign-ins by method and
// outcome, and one-time codes mailed by purpose and outcome. Labels are fixed words,
// never an address or a user.

#include <docs/metrics.hpp>

namespace docs_auth {

struct AuthMetrics {
  explicit AuthMetrics(docs::Metrics& metrics);
  // method: email_otp, magic_link, github; outcome: signed_in, refused, limited.
  docs::Counter& signIns;
  // purpose: sign_in, delete_account; outcome: sent, limited, failed.
  docs::Counter& codesSent;
};

}  // namespace docs_auth
