#pragma once
// POST /api/github/webhook: the signature before anything else, each delivery id acted
// on once, then: push to a project's default branch -> github.push (generation syncs);
// installation / installation_repositories -> the projects' installation ids; ping ->
// pong; anything else acknowledged and ignored.

#include <cstdint>
#include <string>

#include <docs/http.hpp>
#include <docs/registry.hpp>
#include <docs/services/projects.hpp>

namespace docs {
class Context;
class Db;
}  // namespace docs

namespace docs_github {

class Webhook {
 public:
  // `projects` is a ref the host fills before the first delivery.
  Webhook(docs::Context& context, const docs::ServiceRef<docs::Projects>& projects, std::string secret,
          std::string githubUrl)
      : context_(context), projects_(projects), secret_(std::move(secret)), githubUrl_(std::move(githubUrl)) {}
  void handle(docs::Request& request, docs::Response& response);

 private:
  docs::Json dispatch(const std::string& event, const docs::Json& payload);
  docs::Json onPush(const docs::Json& payload);
  docs::Json onInstallation(const std::string& event, const docs::Json& payload);
  docs::Context& context_;
  const docs::ServiceRef<docs::Projects>& projects_;
  std::string secret_;
  std::string githubUrl_;
};

// Forgets the deliveries received more than `retentionDays` ago: they are remembered long
// enough to refuse replays, then forgotten.
void pruneDeliveries(docs::Db& db, std::int64_t retentionDays);

}  // namespace docs_github
