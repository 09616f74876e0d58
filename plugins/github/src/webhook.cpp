#include "webhook.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/services/github_access.hpp>
#include <docs/services/projects.hpp>
#include <docs/topics.hpp>

#include "webhook_signature.hpp"

namespace docs_github {

using docs::HttpError;
using docs::Json;

namespace {

std::string stringAt(const Json& json, std::initializer_list<const char*> path) {
  const Json* node = &json;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return "";
    node = &(*node)[key];
  }
  return node->is_string() ? node->get<std::string>() : "";
}

}  // namespace

void Webhook::handle(docs::Request& request, docs::Response& response) {
  // Everything that can be refused from the headers is, before a byte of the body is read
  // (the route streams it; an unread body closes the connection).
  if (secret_.empty())
    throw HttpError(503, "webhook_not_configured", "github.webhook_secret is not set on this server");
  auto signature = request.header("X-Hub-Signature-256");
  if (!signature || signature->empty()) throw HttpError(401, "signature_required", "X-Hub-Signature-256 is required");
  if (signature->size() != kWebhookSignatureSize || !signature->starts_with("sha256="))
    throw HttpError(401, "bad_signature", "The signature does not match");
  auto delivery = request.header("X-GitHub-Delivery");
  auto event = request.header("X-GitHub-Event");
  if (!delivery || delivery->empty() || delivery->size() > 100 || !event || event->empty() || event->size() > 100)
    throw HttpError::badRequest("X-GitHub-Delivery and X-GitHub-Event are required", "invalid_delivery");
  std::string body = readSignedBody(request.bodyReader(), secret_, *signature);
  Json payload = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (payload.is_discarded() || !payload.is_object())
    throw HttpError::badRequest("The body must be a JSON object", "invalid_json");
  auto& db = context_.db();
  // Either the id or the signed body seen before: a redelivery or a replay.
  auto fresh = db.exec(
      "INSERT INTO github_deliveries (delivery_id, event, body_sha256) VALUES ($1, $2, $3)"
      " ON CONFLICT DO NOTHING RETURNING 1",
      {*delivery, *event, bodyDigest(body)});
  if (fresh.empty()) {
    response.json({{"status", "duplicate"}});
    return;
  }
  try {
    response.json(dispatch(*event, payload));
  } catch (...) {
    // Not acted on: GitHub's redelivery of this id must be able to try again.
    db.exec("DELETE FROM github_deliveries WHERE delivery_id = $1", {*delivery});
    throw;
  }
}

Json Webhook::dispatch(const std::string& event, const Json& payload) {
  if (event == "ping") return {{"status", "pong"}};
  if (event == "push") return onPush(payload);
  if (event == "installation" || event == "installation_repositories") return onInstallation(event, payload);
  return {{"status", "ignored"}, {"reason", "event " + event + " is not used"}};
}

Json Webhook::onPush(const Json& payload) {
  std::string fullName = stringAt(payload, {"repository", "full_name"});
  std::string branch = stringAt(payload, {"repository", "default_branch"});
  std::string ref = stringAt(payload, {"ref"});
  if (fullName.empty() || branch.empty() || ref.empty())
    throw HttpError::badRequest("A push names its repository and ref", "invalid_payload");
  if (ref != "refs/heads/" + branch) return {{"status", "ignored"}, {"reason", "not the default branch"}};
  auto project = projects_->findByGitUrl(githubUrl_ + "/" + fullName);
  if (!project) return {{"status", "ignored"}, {"reason", "no project uses this repository"}};
  docs::publish(context_.events(), docs::kGithubPush, {project->id, stringAt(payload, {"after"}), ref});
  return {{"status", "queued"}, {"project_id", project->id}};
}

Json Webhook::onInstallation(const std::string& event, const Json& payload) {
  auto& projects = *projects_;
  std::int64_t installation = 0;
  if (payload.contains("installation") && payload["installation"].is_object() &&
      payload["installation"].contains("id") && payload["installation"]["id"].is_number_integer())
    installation = payload["installation"]["id"].get<std::int64_t>();
  std::string action = stringAt(payload, {"action"});
  int updated = 0;
  auto apply = [&](const char* listName, std::int64_t id) {
    if (!payload.contains(listName) || !payload[listName].is_array()) return;
    for (const auto& repository : payload[listName]) {
      std::string fullName =
          repository.is_object() && repository.contains("full_name") && repository["full_name"].is_string()
              ? repository["full_name"].get<std::string>()
              : "";
      if (fullName.empty()) continue;
      if (auto project = projects.findByGitUrl(githubUrl_ + "/" + fullName)) {
        // Removing access only forgets the installation that had it, in the same statement
        // that checks it (another may have been stored since the project was read).
        if (id == 0 ? !projects.setInstallation(project->id, 0, installation)
                    : !projects.setInstallation(project->id, id))
          continue;
        ++updated;
      }
    }
  };
  if (event == "installation") {
    bool gone = action == "deleted" || action == "suspend";
    apply("repositories", gone ? 0 : installation);
  } else {
    apply("repositories_added", installation);
    apply("repositories_removed", 0);
  }
  return {{"status", "updated"}, {"projects", updated}};
}

void pruneDeliveries(docs::Db& db, std::int64_t retentionDays) {
  db.exec("DELETE FROM github_deliveries WHERE received_at < now() - make_interval(days => $1)", {retentionDays});
}

}  // namespace docs_github
