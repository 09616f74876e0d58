#include "auth_routes.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/logger.hpp>
#include <docs/registry.hpp>

#include <algorithm>
#include <mutex>
#include <regex>

#include "auth_core.hpp"
#include "auth_docs.hpp"

namespace docs_auth {

using docs::DbError;
using docs::HttpError;
using docs::Json;
using docs::Method;
using docs::Registry;
using docs::Request;
using docs::Response;
using docs::RouteOptions;
using docs::Tx;

namespace {

std::string requestOrigin(const Request& request) { return request.scheme() + "://" + request.host(); }

std::string hostOf(const std::string& url) {
  auto start = url.find("://");
  if (start == std::string::npos) return "";
  std::string rest = url.substr(start + 3);
  rest = rest.substr(0, rest.find('/'));
  return rest.substr(0, rest.find(':'));
}

// A cookie with the attributes this deployment needs: HttpOnly, SameSite=Lax, Secure over
// TLS, and the parent domain when the SPA talks to auth./api./y. sub-hosts.
std::string cookie(AuthCore& core, const Request& request, const std::string& name, const std::string& value,
                   long maxAgeSeconds, const std::string& path = "/") {
  const auto& settings = core.settings();
  std::string text =
      name + "=" + value + "; Path=" + path + "; Max-Age=" + std::to_string(maxAgeSeconds) + "; HttpOnly; SameSite=Lax";
  if (request.scheme() == "https" || settings.publicUrl.rfind("https://", 0) == 0) text += "; Secure";
  if (settings.subhosts && !settings.publicUrl.empty()) text += "; Domain=" + hostOf(settings.publicUrl);
  return text;
}

std::string stringField(const Json& body, const char* key, bool required = true) {
  if (!body.contains(key) || body[key].is_null()) {
    if (required) throw HttpError::badRequest(std::string("'") + key + "' is required", "missing_field");
    return "";
  }
  if (!body[key].is_string())
    throw HttpError::badRequest(std::string("'") + key + "' must be a string", "invalid_field");
  return body[key].get<std::string>();
}

void noStore(Response& response) { response.setHeader("Cache-Control", "no-store"); }

void redirect(Response& response, const std::string& location) {
  response.setHeader("Location", location);
  response.text("", "text/plain; charset=utf-8", 302);
}

// The SPA's login page on the callback's origin, with an error code for it to show.
std::string errorLocation(const std::string& callbackUrl, const std::string& code) {
  std::string origin;
  if (callbackUrl.rfind("http://", 0) == 0 || callbackUrl.rfind("https://", 0) == 0) {
    auto slash = callbackUrl.find('/', callbackUrl.find("://") + 3);
    origin = callbackUrl.substr(0, slash);
  }
  return origin + "/login?error=" + code;
}

void signedInResponse(AuthCore& core, const Request& request, Response& response, const SignedInSession& signedIn,
                      const std::string& token) {
  noStore(response);
  response.addHeader("Set-Cookie",
                     cookie(core, request, kSessionCookie, token, core.settings().sessionLifetime.count()));
  response.setHeader("set-auth-jwt", core.issueJwt(signedIn.user, signedIn.session));
  response.json({{"user", signedIn.user.toJson()}, {"session", signedIn.session.toJson()}});
}

// Where links in mail point: server.public_url (Request::publicOrigin); without it the
// origin the request came to, but only when it is one of server.allowed_origins or a
// loopback host (the Host header is the caller's to choose: a link to their site would
// hand them the token).
std::string linkBase(AuthCore& core, const Request& request) {
  const auto& settings = core.settings();
  std::string origin = request.publicOrigin();
  if (!settings.publicUrl.empty()) return origin;
  auto lower = [](std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  for (const auto& allowed : settings.allowedOrigins)
    if (lower(allowed) == lower(origin)) return allowed;
  // A loopback name and at most a numeric port, nothing else ("localhost:@evil.example"
  // would make the link's host evil.example).
  static const std::regex loopback("^(localhost|127\\.0\\.0\\.1|\\[::1\\])(:[0-9]{1,5})?$");
  if (std::regex_match(lower(request.host()), loopback)) return origin;
  static std::once_flag warned;
  std::call_once(warned, [&] {
    core.context().logger().warn("server.public_url is empty: sign-in mails carry no link (set it to mail links)",
                                 {{"host", request.host()}});
  });
  return "";
}

// 429 for a client or account past its failure limits, with how long to wait.
[[noreturn]] void tooManyFailures(Response& response, std::int64_t waitSeconds) {
  response.setHeader("Retry-After", std::to_string(std::max<std::int64_t>(1, waitSeconds)));
  throw HttpError(429, "too_many_failures",
                  "Too many failed attempts. Try again later, or sign in with the link in the email we sent.");
}

void throwUnlessValid(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::Valid: return;
    case CheckOutcome::Wrong: throw HttpError::badRequest("Invalid verification code", "invalid_otp");
    case CheckOutcome::Expired:
      throw HttpError::badRequest("The code has expired or was used. Request a new one.", "otp_expired");
    case CheckOutcome::TooManyAttempts:
      throw HttpError(403, "too_many_attempts", "Too many wrong codes. Request a new one.");
  }
}

// Runs a step that mails a code; a message that could not be handed over is a 503.
template <typename Step>
auto mailing(AuthCore& core, Step step) -> decltype(step()) {
  try {
    return step();
  } catch (const DbError&) {
    throw;
  } catch (const HttpError&) {
    throw;
  } catch (const MailTlsRequired& error) {
    core.context().logger().error("code not sent", {{"error", error.what()}});
    throw HttpError(503, "mail_tls_unavailable",
                    "The code could not be sent: the mail server offers no encrypted connection. Try again later.");
  } catch (const std::exception& error) {
    core.context().logger().error("code not sent", {{"error", error.what()}});
    throw HttpError(503, "mail_unavailable", "The sign-in code could not be sent. Try again later.");
  }
}

// mailing(), counted in docsd_auth_codes_sent_total under `purpose`.
template <typename Step>
SendOutcome countedMailing(AuthCore& core, const char* purpose, Step step) {
  try {
    SendOutcome outcome = mailing(core, step);
    core.metrics().codesSent.inc({purpose, outcome == SendOutcome::Sent ? "sent" : "limited"});
    return outcome;
  } catch (const HttpError& error) {
    if (error.status() == 503) core.metrics().codesSent.inc({purpose, "failed"});
    throw;
  }
}

// A sign-in attempt's outcome in docsd_auth_sign_ins_total.
void countSignIn(AuthCore& core, const char* method, const char* outcome) {
  core.metrics().signIns.inc({method, outcome});
}

}  // namespace

std::optional<std::string> allowedRedirect(const std::string& url, const std::string& requestOrigin,
                                           const std::string& publicUrl,
                                           const std::vector<std::string>& allowedOrigins) {
  if (url.empty()) return std::string("/");
  if (url.size() > 2048) return std::nullopt;
  for (char c : url)
    if (static_cast<unsigned char>(c) < 0x21 || c == '\\' || c == 0x7f) return std::nullopt;
  // "/x" is a path on this site; "//evil.example" and "/\evil.example" are other sites.
  if (url.front() == '/') return url.size() > 1 && url[1] == '/' ? std::nullopt : std::optional<std::string>(url);
  static const std::regex absolute("^(https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?)(/.*)?$");
  std::smatch match;
  if (!std::regex_match(url, match, absolute)) return std::nullopt;
  std::string origin = match[1];
  for (auto& c : origin) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto same = [&](const std::string& candidate) {
    std::string lowered = candidate;
    for (auto& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return !lowered.empty() && lowered == origin;
  };
  if (same(requestOrigin) || same(publicUrl)) return url;
  for (const auto& allowed : allowedOrigins)
    if (same(allowed)) return url;
  return std::nullopt;
}

void addAuthRoutes(Registry& registry, AuthCore& core) {
  RouteOptions small;
  small.maxBodyBytes = 16 * 1024;

  registry.route(
      Method::Get, "/api/auth/get-session",
      [&core](Request& request, Response& response) {
        noStore(response);
        auto signedIn = core.resolve(request);
        if (!signedIn) {
          response.json(nullptr);
          return;
        }
        // An access token says who it acts for, but never becomes a session's JWT.
        if (!signedIn->token) response.setHeader("set-auth-jwt", core.issueJwt(signedIn->user, signedIn->session));
        response.json({{"user", signedIn->user.toJson()}, {"session", signedIn->session.toJson()}});
      },
      {}, getSessionDoc());

  registry.route(
      Method::Get, "/api/auth/token",
      [&core](Request& request, Response& response) {
        auto signedIn = core.resolveSession(request);
        if (!signedIn) throw HttpError::unauthorized();
        noStore(response);
        response.json({{"token", core.issueJwt(signedIn->user, signedIn->session)}});
      },
      {}, tokenDoc());

  registry.route(
      Method::Get, "/api/auth/jwks",
      [&core](Request&, Response& response) {
        response.setHeader("Cache-Control", "public, max-age=60");
        response.json(core.keys().jwks());
      },
      {}, jwksDoc());

  registry.route(
      Method::Post, "/api/auth/sign-out",
      [&core](Request& request, Response& response) {
        std::optional<SignedInSession> signedIn;
        try {
          signedIn = core.resolve(request);
        } catch (const HttpError&) {
          // An already invalid token: there is nothing to end, and signing out still succeeds.
        }
        if (signedIn) core.accounts().revokeSession(signedIn->session.id);
        // The cookie's session ends too, whatever the bearer was: an idle SPA sends an expired
        // JWT, and clearing only the cookie would leave its session alive for whoever copied it.
        if (auto fromCookie = core.cookieSession(request);
            fromCookie && (!signedIn || fromCookie->session.id != signedIn->session.id))
          core.accounts().revokeSession(fromCookie->session.id);
        noStore(response);
        response.addHeader("Set-Cookie", cookie(core, request, kSessionCookie, "", 0));
        response.json({{"success", true}});
      },
      small, signOutDoc());

  // Deleting an account takes a fresh proof of its mailbox, not only a session (a stolen
  // cookie or token must not be enough): a code mailed to the account's address.
  registry.route(
      Method::Post, "/api/auth/delete-user/send-code",
      [&core](Request& request, Response& response) {
        auto signedIn = core.resolveSession(request);
        if (!signedIn) throw HttpError::unauthorized();
        SendOutcome outcome = countedMailing(core, "delete_account", [&] {
          return core.codes().sendDeletionCode(signedIn->user.email, request.remoteAddress());
        });
        if (outcome != SendOutcome::Sent) {
          response.setHeader("Retry-After", std::to_string(core.settings().otpSendWindow.count()));
          throw HttpError(429, "too_many_requests", "Too many codes requested. Try again later.");
        }
        noStore(response);
        response.json({{"success", true}});
      },
      small, deletionCodeDoc());

  registry.route(
      Method::Post, "/api/auth/delete-user",
      [&core](Request& request, Response& response) {
        auto signedIn = core.resolveSession(request);
        if (!signedIn) throw HttpError::unauthorized();
        Json body = request.body().empty() ? Json::object() : request.jsonObject();
        std::string code = stringField(body, "otp", false);
        if (code.empty())
          throw HttpError(403, "fresh_code_required",
                          "Deleting the account needs a code sent to its email: request one with "
                          "POST /api/auth/delete-user/send-code and send it as 'otp'.");
        static const std::regex sixDigits("^[0-9]{6}$");
        if (!std::regex_match(code, sixDigits))
          throw HttpError::badRequest("The code must be exactly 6 digits", "invalid_otp");
        const std::string client = clientKey(request.remoteAddress());
        const std::string& email = signedIn->user.email;
        CheckOutcome outcome = CheckOutcome::Wrong;
        std::int64_t wait = 0;
        core.context().db().transaction([&](Tx& tx) {
          wait = core.limits().lockAndCheck(tx, client, email);
          if (wait > 0) return;
          outcome = core.codes().check(tx, email, code, CodePurpose::DeleteAccount);
          if (outcome == CheckOutcome::Wrong) core.limits().recordFailure(tx, client, email);
        });
        if (wait > 0) tooManyFailures(response, wait);
        throwUnlessValid(outcome);
        core.accounts().deleteUser(signedIn->user.id);
        noStore(response);
        response.addHeader("Set-Cookie", cookie(core, request, kSessionCookie, "", 0));
        response.json({{"success", true}});
      },
      small, deleteUserDoc());

  registry.route(
      Method::Post, "/api/auth/email-otp/send-verification-otp",
      [&core](Request& request, Response& response) {
        Json body = request.jsonObject();
        std::string email = normalizeEmail(stringField(body, "email"));
        if (email.empty()) throw HttpError::badRequest("Invalid email address", "invalid_email");
        std::string type = stringField(body, "type", false);
        if (!type.empty() && type != "sign-in")
          throw HttpError::badRequest("Only one-time codes of type 'sign-in' are supported", "invalid_type");
        std::string links = linkBase(core, request);
        SendOutcome outcome =
            countedMailing(core, "sign_in", [&] { return core.codes().send(email, request.remoteAddress(), links); });
        if (outcome != SendOutcome::Sent) {
          // The same answer for every address: a limit says nothing about an account.
          response.setHeader("Retry-After", std::to_string(core.settings().otpSendWindow.count()));
          throw HttpError(429, "too_many_requests", "Too many sign-in codes requested. Try again later.");
        }
        if (core.settings().smtpUrl.empty())
          core.context().logger().info("one-time code written to the outbox", {{"email", email}});
        response.json({{"success", true}});
      },
      small, sendCodeDoc());

  registry.route(
      Method::Post, "/api/auth/sign-in/email-otp",
      [&core](Request& request, Response& response) {
        Json body = request.jsonObject();
        std::string email = normalizeEmail(stringField(body, "email"));
        if (email.empty()) throw HttpError::badRequest("Invalid email address", "invalid_email");
        std::string code = stringField(body, "otp");
        static const std::regex sixDigits("^[0-9]{6}$");
        if (!std::regex_match(code, sixDigits))
          throw HttpError::badRequest("The code must be exactly 6 digits", "invalid_otp");
        CheckOutcome outcome = CheckOutcome::Wrong;
        std::optional<SignedInSession> signedIn;
        std::string token;
        std::int64_t wait = 0;
        const std::string client = clientKey(request.remoteAddress());
        // A wrong try is counted in a committed transaction; the error is thrown afterwards.
        core.context().db().transaction([&](Tx& tx) {
          wait = core.limits().lockAndCheck(tx, client, email);
          if (wait > 0) return;
          outcome = core.codes().check(tx, email, code);
          if (outcome == CheckOutcome::Wrong) core.limits().recordFailure(tx, client, email);
          if (outcome != CheckOutcome::Valid) return;
          User user = core.accounts().userForEmail(tx, email);
          auto created = core.accounts().createSession(tx, user.id, request.remoteAddress(),
                                                       request.header("User-Agent").value_or(""));
          signedIn = SignedInSession{created.session, user, std::nullopt};
          token = created.token;
        });
        countSignIn(core, "email_otp", wait > 0 ? "limited" : outcome == CheckOutcome::Valid ? "signed_in" : "refused");
        if (wait > 0) tooManyFailures(response, wait);
        throwUnlessValid(outcome);
        signedInResponse(core, request, response, *signedIn, token);
      },
      small, signInWithCodeDoc());

  // The link mailed with each code: signs in whatever the failure limits say, since only
  // the mailbox's owner has it. The SPA's /login/link page posts the token.
  registry.route(
      Method::Post, "/api/auth/sign-in/magic-link",
      [&core](Request& request, Response& response) {
        Json body = request.jsonObject();
        std::string linkToken = stringField(body, "token");
        const std::string client = clientKey(request.remoteAddress());
        std::optional<SignedInSession> signedIn;
        std::string token;
        std::int64_t wait = 0;
        core.context().db().transaction([&](Tx& tx) {
          auto email = core.codes().consumeLink(tx, linkToken);
          if (!email) {
            wait = core.limits().lockAndCheck(tx, client, "");
            if (wait == 0) core.limits().recordFailure(tx, client, "");
            return;
          }
          User user = core.accounts().userForEmail(tx, *email);
          auto created = core.accounts().createSession(tx, user.id, request.remoteAddress(),
                                                       request.header("User-Agent").value_or(""));
          signedIn = SignedInSession{created.session, user, std::nullopt};
          token = created.token;
        });
        countSignIn(core, "magic_link", wait > 0 ? "limited" : signedIn ? "signed_in" : "refused");
        if (wait > 0) tooManyFailures(response, wait);
        if (!signedIn)
          throw HttpError::badRequest("This sign-in link has expired or was already used. Request a new code.",
                                      "invalid_link");
        signedInResponse(core, request, response, *signedIn, token);
      },
      small, signInWithLinkDoc());

  registry.route(
      Method::Post, "/api/auth/sign-in/social",
      [&core](Request& request, Response& response) {
        Json body = request.jsonObject();
        std::string provider = stringField(body, "provider");
        if (provider != "github")
          throw HttpError::badRequest("Unknown sign-in provider '" + provider + "'", "unsupported_provider");
        if (!core.github().configured())
          throw HttpError::badRequest("GitHub sign-in is not configured on this server", "provider_not_configured");
        std::string origin = requestOrigin(request);
        auto callback = allowedRedirect(stringField(body, "callbackURL", false), origin, core.settings().publicUrl,
                                        core.settings().allowedOrigins);
        if (!callback)
          throw HttpError::badRequest("callbackURL must be a path or a URL on this deployment", "invalid_callback_url");
        auto started = core.github().start(*callback, origin + "/api/auth/callback/github");
        noStore(response);
        response.addHeader("Set-Cookie", cookie(core, request, kOAuthStateCookie, started.nonce, 600, "/api/auth"));
        response.json({{"url", started.url}, {"redirect", true}});
      },
      small, socialSignInDoc());

  registry.route(
      Method::Get, "/api/auth/callback/github",
      [&core](Request& request, Response& response) {
        noStore(response);
        auto pending =
            core.github().consumeState(request.query("state").value_or(""), cookieValue(request, kOAuthStateCookie));
        if (!pending) {
          countSignIn(core, "github", "refused");
          core.context().logger().warn("GitHub callback with a missing, forged, expired or replayed state");
          redirect(response, "/login?error=state_mismatch");
          return;
        }
        response.addHeader("Set-Cookie", cookie(core, request, kOAuthStateCookie, "", 0, "/api/auth"));
        std::string code = request.query("code").value_or("");
        if (request.query("error") || code.empty()) {
          countSignIn(core, "github", "refused");
          redirect(response, errorLocation(pending->callbackUrl, "access_denied"));
          return;
        }
        std::string error;
        auto profile = core.github().fetchProfile(code, pending->redirectUri, error);
        if (!profile) {
          countSignIn(core, "github", "refused");
          core.context().logger().warn("GitHub sign-in failed", {{"error", error}});
          redirect(response, errorLocation(pending->callbackUrl, "github_failed"));
          return;
        }
        SignedInSession signedIn;
        std::string token;
        core.context().db().transaction([&](Tx& tx) {
          signedIn.user = core.accounts().userForGithub(tx, *profile);
          auto created = core.accounts().createSession(tx, signedIn.user.id, request.remoteAddress(),
                                                       request.header("User-Agent").value_or(""));
          signedIn.session = created.session;
          token = created.token;
        });
        countSignIn(core, "github", "signed_in");
        response.addHeader("Set-Cookie",
                           cookie(core, request, kSessionCookie, token, core.settings().sessionLifetime.count()));
        redirect(response, pending->callbackUrl);
      },
      {}, githubCallbackDoc());
}

}  // namespace docs_auth
