#include "auth_metrics.hpp"

namespace docs_auth {

using docs::Metrics;

AuthMetrics::AuthMetrics(Metrics& metrics)
    : signIns(metrics.counter(
          "docsd_auth_sign_ins_total",
          "Sign-in attempts, by method (email_otp, magic_link, github) and outcome (signed_in, refused, limited).",
          {"method", "outcome"})),
      codesSent(metrics.counter("docsd_auth_codes_sent_total",
                                "One-time codes requested, by purpose (sign_in, delete_account) and outcome (sent, "
                                "limited: over the send limit, failed: the mail server refused).",
                                {"purpose", "outcome"})) {}

}  // namespace docs_auth
