#include "github_docs.hpp"

namespace docs_github {

using docs::BodyDoc;
using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;

RouteDoc installationStatusDoc() {
  RouteDoc doc;
  doc.summary = "Whether a repository already is a project the caller may read, and whether docsd can read it";
  doc.access = RouteAccess::SignedIn;
  Json part = {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]+$"}};
  doc.params = {{"owner", ParamIn::Path, "the repository's owner", true, part},
                {"repo", ParamIn::Path, "the repository's name (a trailing .git is ignored)", true, part}};
  doc.answers = {
      jsonAnswer(
          200, "the status",
          {{"type", "object"},
           {"required", {"is_project_already_exists", "has_installation_access"}},
           {"additionalProperties", false},
           {"properties",
            {{"is_project_already_exists", {{"type", "boolean"}}},
             {"project_id", {{"type", "integer"}, {"description", "only when the caller may read it"}}},
             {"has_installation_access",
              {{"type", "boolean"}, {"description", "without a GitHub App: true (public repositories clone)"}}}}}}),
      errorAnswer(400, "invalid_repository"), errorAnswer(401, "signed out"), errorAnswer(502, "github_unavailable")};
  return doc;
}

RouteDoc webhookDoc() {
  RouteDoc doc;
  doc.summary = "GitHub App events: pushes to a project's default branch sync it; installations";
  doc.description = "Signed with github.webhook_secret (X-Hub-Signature-256); each X-GitHub-Delivery is acted on once.";
  doc.access = RouteAccess::Anyone;
  doc.params = {
      {"X-GitHub-Event",
       ParamIn::Header,
       "ping, push, installation, installation_repositories",
       true,
       {{"type", "string"}}},
      {"X-GitHub-Delivery", ParamIn::Header, "the delivery's id", true, {{"type", "string"}, {"maxLength", 100}}},
      {"X-Hub-Signature-256", ParamIn::Header, "sha256=<HMAC of the body>", true, {{"type", "string"}}}};
  doc.body = BodyDoc{"application/json", {{"type", "object"}}, "GitHub's event payload"};
  doc.answers = {jsonAnswer(200, "what was done",
                            {{"type", "object"},
                             {"required", {"status"}},
                             {"properties",
                              {{"status", {{"enum", {"pong", "queued", "updated", "ignored", "duplicate"}}}},
                               {"reason", {{"type", "string"}}},
                               {"project_id", {{"type", "integer"}}},
                               {"projects", {{"type", "integer"}, {"minimum", 0}}}}}}),
                 errorAnswer(400, "invalid_delivery, invalid_payload"),
                 errorAnswer(401, "signature_required, bad_signature"), errorAnswer(413, "the payload is too large"),
                 errorAnswer(503, "webhook_not_configured")};
  return doc;
}

}  // namespace docs_github
