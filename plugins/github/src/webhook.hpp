#pragma once
// POST /api/github/webhook: the signature before anything else, each delivery id acted
// on once, then: push to a project's default branch -> github.push (generation syncs);
// installation / installation_repositories -> the projects' installation ids; ping ->
// pong; anything else acknowledged and ignored.

#include <string>

#include <docs/http.hpp>
#include <docs/registry.hpp>
#include <docs/services/projects.hpp>

namespace docs {
class Context;
}

namespace docs::github {

class Webhook {
 public:
  // `projects` is the plugin's ref, filled before the first delivery.
  Webhook(Context& context, const ServiceRef<Projects>& projects, std::string secret, std::string githubUrl)
      : context_(context), projects_(projects), secret_(std::move(secret)), githubUrl_(std::move(githubUrl)) {}
  void handle(Request& request, Response& response);

 private:
  Json dispatch(const std::string& event, const Json& payload);
  Json onPush(const Json& payload);
  Json onInstallation(const std::string& event, const Json& payload);
  Context& context_;
  const ServiceRef<Projects>& projects_;
  std::string secret_;
  std::string githubUrl_;
};

}  // namespace docs::github
