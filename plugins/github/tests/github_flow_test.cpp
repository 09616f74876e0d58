// The GitHub integration through the real docsd, a fake GitHub API and a git smart-HTTP
// server that wants the installation token: installation status, creation only when the
// app reaches the repository, the private clone, push -> webhook -> sync that rewrites
// only what changed and keeps a page a person edited, and the webhook's abuse cases.
#include <gtest/gtest.h>

#include <docs/ydoc/prosemirror.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <docs/codec/codec.hpp>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "fake_github_api.hpp"
#include "git_server.hpp"
#include "test_support.hpp"

using docs::test::base64;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using nlohmann::json;

namespace {

const std::string kToken = "ghs_installation_token_77";
const std::string kSecret = "webhook-secret-for-tests";

std::string hmacHeader(const std::string& body, const std::string& secret = kSecret) {
  return "sha256=" + docs::codec::hexEncode(docs::codec::hmacSha256(secret, body));
}

std::map<std::string, std::string> shopFiles() {
  return {
      {"README.md", "# Shop\n\nShop sells things online.\n"},
      {"shop/models.py",
       "\"\"\"Data models of the shop.\"\"\"\n\nclass Product:\n    \"\"\"A thing for sale.\"\"\"\n    pass\n"},
      {"shop/api.py",
       "\"\"\"HTTP handlers.\"\"\"\nfrom .models import Product\n\ndef list_products():\n    \"\"\"Every "
       "product.\"\"\"\n    return [Product()]\n"},
      {"reports/report.py",
       "\"\"\"Sales report.\"\"\"\nfrom shop.api import list_products\n\ndef main():\n    print(list_products())\n"},
      {"reports/cleanup.py", "\"\"\"Removes old carts.\"\"\"\n\ndef sweep():\n    return 0\n"}};
}

class GithubFlow : public ::testing::Test {
 protected:
  using Headers = std::map<std::string, std::string>;
  GithubFlow() : git_(kToken), api_("4242", pem_ = docs::test::newRsaPrivateKeyPem()) {
    keyFile_ = scratch_.path() + "/app.pem";
    std::ofstream(keyFile_) << pem_;
    api_.install("acme/shop", 77, kToken);
    api_.addUser("alice-gh", 1001);
    api_.addCollaborator("acme/shop", "alice-gh", "write");
  }
  void start(const std::string& plugins = "auth,rbac,projects,pages,generation,github") {
    std::map<std::string, std::string> env = {
        {"DOCS_PLUGINS_ENABLED", plugins},       {"DOCS_JOBS_POLL_MS", "200"},
        {"DOCS_GITHUB_URL", git_.url()},         {"DOCS_GITHUB_API_URL", api_.apiUrl()},
        {"DOCS_GITHUB_APP_ID", "4242"},          {"DOCS_GITHUB_PRIVATE_KEY_FILE", keyFile_},
        {"DOCS_GITHUB_WEBHOOK_SECRET", kSecret}, {"DOCS_GENERATION_RECONCILE_SECONDS", "0"}};
    for (const auto& [key, value] : extraEnv_) env[key] = value;
    docsd_ = std::make_unique<Docsd>(Docsd::Options{env, {"serve"}, dataDir_.path(), database_.url()});
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    if (alice_.token.empty()) {
      alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
      linkGithub(alice_, "alice-gh", 1001);
    }
  }
  // What GitHub sign-in leaves behind: the user's GitHub id linked, their login kept.
  void linkGithub(const docs::test::SignedIn& user, const std::string& login, long long githubId) {
    docs::test::sqlValue(database_.url(),
                         "INSERT INTO auth_accounts (provider, account_id, user_id) VALUES ('github', '" +
                             std::to_string(githubId) + "', " + user.userId + ")");
    docs::test::sqlValue(database_.url(), "UPDATE auth_users SET login = '" + login + "' WHERE id = " + user.userId);
  }
  Headers auth(const docs::test::SignedIn& user) {
    return {{"Authorization", "Bearer " + user.token}, {"Content-Type", "application/json"}};
  }
  Headers auth() { return auth(alice_); }
  json get(const std::string& path) {
    auto r = httpRequest(docsd_->port(), "GET", path, "", auth());
    return json::parse(r.body, nullptr, false);
  }
  HttpResponse createProject(const std::string& repo) { return createProject(repo, alice_); }
  HttpResponse createProject(const std::string& repo, const docs::test::SignedIn& user) {
    return httpRequest(
        docsd_->port(), "POST", "/api/project/github",
        json{{"repo_owner", "acme"}, {"repo_name", repo}, {"name", repo}, {"language", "en"}, {"is_private", true}}
            .dump(),
        auth(user));
  }
  HttpResponse status(const std::string& repo, const docs::test::SignedIn& user) {
    return httpRequest(docsd_->port(), "GET", "/api/github/acme/" + repo + "/installation/status", "", auth(user));
  }
  json waitFor(std::int64_t id, const std::function<bool(const json&)>& done, int seconds = 90) {
    json p;
    for (int i = 0; i < seconds * 10; ++i) {
      p = get("/api/project?projectId=" + std::to_string(id));
      if (done(p)) return p;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "waited in vain: " << p.dump().substr(0, 500);
    return p;
  }
  HttpResponse deliver(const std::string& event, const std::string& body, const std::string& delivery,
                       const Headers& extra = {}) {
    Headers headers = {{"Content-Type", "application/json"},
                       {"X-GitHub-Event", event},
                       {"X-GitHub-Delivery", delivery},
                       {"X-Hub-Signature-256", hmacHeader(body)}};
    for (auto& [k, v] : extra) {
      if (v.empty()) headers.erase(k);
      else headers[k] = v;
    }
    return httpRequest(docsd_->port(), "POST", "/api/github/webhook", body, headers);
  }
  std::string pushPayload(const std::string& repo, const std::string& after,
                          const std::string& ref = "refs/heads/main") {
    return json{
        {"ref", ref},
        {"after", after},
        {"repository",
         {{"full_name", "acme/" + repo}, {"default_branch", "main"}, {"html_url", git_.url() + "/acme/" + repo}}}}
        .dump();
  }
  std::string exportPage(std::int64_t pageId) {
    return httpRequest(docsd_->port(), "GET", "/api/page/" + std::to_string(pageId) + "/export?format=md", "", auth())
        .body;
  }
  std::map<std::string, std::int64_t> pagesByName(const json& project) {
    std::map<std::string, std::int64_t> out;
    for (const auto& page : project["pages"]) out[page["name"]] = page["id"];
    return out;
  }

  docs::test::TempDir scratch_;
  std::string pem_;
  docs::test::GitHttpServer git_;
  docs::test::FakeGithubApi api_;
  std::string keyFile_;
  docs::test::TestDatabase database_;
  docs::test::TempDir dataDir_;
  std::unique_ptr<Docsd> docsd_;
  std::map<std::string, std::string> extraEnv_;
  docs::test::SignedIn alice_;
};

}  // namespace

TEST_F(GithubFlow, CreateGeneratePushSyncRewritesOnlyWhatChangedAndKeepsAPersonsEdits) {
  auto first = git_.createRepository("acme", "shop", shopFiles());
  git_.createRepository("acme", "hidden", {{"a.py", "x = 1\n"}});
  start();
  // Installation status in the dialog's terms.
  auto status = get("/api/github/acme/shop/installation/status");
  EXPECT_EQ(status, (json{{"is_project_already_exists", false}, {"has_installation_access", true}})) << status;
  auto hidden = get("/api/github/acme/hidden/installation/status");
  EXPECT_EQ(hidden["has_installation_access"], false);
  auto refused = createProject("hidden");
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_EQ(json::parse(refused.body)["error"]["message"], "Install GitHub App");

  auto created = createProject("shop");
  ASSERT_TRUE(created.status == 200 || created.status == 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  auto p = waitFor(id, [](const json& x) {
    return x.value("status", "") == "DOC_SUCCESS" || x.value("status", "").find("FAIL") != std::string::npos;
  });
  ASSERT_EQ(p["status"], "DOC_SUCCESS") << p.dump().substr(0, 400);
  EXPECT_EQ(p["commit_hash"], first);
  EXPECT_EQ(p["installation_id"], 77);
  EXPECT_GE(api_.tokenRequests(), 1);  // the private clone used the installation token
  EXPECT_EQ(api_.rejectedJwts(), 0);
  auto again = get("/api/github/acme/shop/installation/status");
  EXPECT_EQ(again["is_project_already_exists"], true);
  EXPECT_EQ(again["project_id"], id);
  // No token in the clone's configuration.
  std::ifstream config(dataDir_.path() + "/generation/" + std::to_string(id) + "/source/.git/config");
  std::string configText((std::istreambuf_iterator<char>(config)), {});
  EXPECT_EQ(configText.find(kToken), std::string::npos);

  auto pages = pagesByName(p);
  ASSERT_TRUE(pages.count("api.py") && pages.count("models.py") && pages.count("report.py") &&
              pages.count("cleanup.py"));
  std::string cleanupBefore = exportPage(pages["cleanup.py"]);
  // A person edits the models page.
  json edited = {
      {"type", "doc"},
      {"content",
       {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "Hand-written notes on models."}}}}}}}};
  auto put =
      httpRequest(docsd_->port(), "PUT", "/api/page/" + std::to_string(pages["models.py"]) + "/content",
                  json{{"content_bytea", base64(docs::ydoc::proseMirrorJsonToUpdate(edited, 999))}}.dump(), auth());
  ASSERT_EQ(put.status, 200) << put.body;

  auto second = git_.commit(
      "acme", "shop",
      {{"shop/api.py",
        "\"\"\"HTTP handlers.\"\"\"\nfrom .models import Product\n\ndef list_products():\n    \"\"\"Every product on "
        "sale today.\"\"\"\n    return [Product()]\n"},
       {"shop/models.py",
        "\"\"\"Data models of the shop.\"\"\"\n\nclass Product:\n    \"\"\"A thing for sale, with a price.\"\"\"\n    "
        "price = 0\n"},
       {"reports/export.py", "\"\"\"Exports the catalogue.\"\"\"\n\ndef export_catalogue():\n    return []\n"}},
      {"reports/report.py"});
  auto hook = deliver("push", pushPayload("shop", second), "delivery-1");
  ASSERT_EQ(hook.status, 200) << hook.body;
  EXPECT_EQ(json::parse(hook.body)["status"], "queued");
  p = waitFor(id, [&](const json& x) {
    return x.value("commit_hash", "") == second && x.value("status", "") == "DOC_SUCCESS";
  });
  ASSERT_EQ(p["commit_hash"], second);
  auto after = pagesByName(p);
  EXPECT_EQ(after["api.py"], pages["api.py"]);  // same page, new text
  EXPECT_NE(exportPage(after["api.py"]).find("Every product on sale today."), std::string::npos);
  EXPECT_NE(exportPage(after["api.py"]).find("/source?path=shop/api.py#L4-L6"), std::string::npos);
  auto models = exportPage(after["models.py"]);
  EXPECT_NE(models.find("Hand-written notes on models."), std::string::npos) << models;
  EXPECT_NE(models.find("The source of this page changed"), std::string::npos) << models;
  EXPECT_NE(models.find("/compare/" + first + "..." + second), std::string::npos) << models;
  EXPECT_FALSE(after.count("report.py"));
  EXPECT_TRUE(after.count("export.py"));
  EXPECT_EQ(exportPage(after["cleanup.py"]), cleanupBefore);  // untouched
  auto history = get("/api/project/" + std::to_string(id) + "/generation")["history"];
  std::vector<std::string> tail;
  for (const auto& entry : history) tail.push_back(entry["status"]);
  ASSERT_GE(tail.size(), 2u);
  EXPECT_EQ(tail[tail.size() - 2], "DOC_UPDATING");
  EXPECT_EQ(tail.back(), "DOC_SUCCESS");
  std::string message = history.back()["message"];
  EXPECT_NE(message.find("1 kept for their edits"), std::string::npos) << message;
  EXPECT_NE(message.find("1 removed"), std::string::npos) << message;

  // The same delivery again is acknowledged and not acted on.
  auto replay = deliver("push", pushPayload("shop", second), "delivery-1");
  EXPECT_EQ(replay.status, 200);
  EXPECT_EQ(json::parse(replay.body)["status"], "duplicate");
}

// The App is installed on the whole acme account; only people who may read a private
// repository on GitHub may turn it into a project, or even learn that the App reaches it.
TEST_F(GithubFlow, OnlyACollaboratorMakesAProjectOfAPrivateRepository) {
  git_.createRepository("acme", "shop", shopFiles());
  git_.createRepository("acme", "open", {{"README.md", "# Open\n"}});
  api_.install("acme/open", 77, kToken, /*isPrivate=*/false);
  api_.addUser("bob-gh", 1002);
  api_.addUser("dave-gh", 1004);
  api_.addCollaborator("acme/shop", "dave-gh", "none");
  start();
  auto bob = docs::test::signInByEmail(*docsd_, "bob@example.com");      // on GitHub, no access to acme/shop
  auto carol = docs::test::signInByEmail(*docsd_, "carol@example.com");  // never linked GitHub
  auto dave = docs::test::signInByEmail(*docsd_, "dave@example.com");    // an explicit "none"
  auto mallory = docs::test::signInByEmail(*docsd_, "mallory@example.com");
  linkGithub(bob, "bob-gh", 1002);
  linkGithub(dave, "dave-gh", 1004);
  // Mallory's stored login is alice's; GitHub's user id gives the name away.
  linkGithub(mallory, "alice-gh", 1003);

  // For everyone but alice, the private repository looks exactly like one without the App.
  auto notInstalled = status("nowhere", bob);
  ASSERT_EQ(notInstalled.status, 200) << notInstalled.body;
  EXPECT_EQ(json::parse(notInstalled.body),
            (json{{"is_project_already_exists", false}, {"has_installation_access", false}}));
  for (const auto* user : {&bob, &carol, &dave, &mallory}) {
    auto answer = status("shop", *user);
    EXPECT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(answer.body, notInstalled.body) << user->userId;
    auto refused = createProject("shop", *user);
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(json::parse(refused.body)["error"]["message"], "Install GitHub App");
    EXPECT_EQ(json::parse(refused.body)["error"]["code"], "installation_required");
  }
  EXPECT_EQ(get("/api/github/acme/shop/installation/status")["has_installation_access"], true);  // alice
  // A public repository of the same installation is anybody's.
  EXPECT_EQ(json::parse(status("open", carol).body)["has_installation_access"], true);
  auto open = createProject("open", carol);
  EXPECT_EQ(open.status, 201) << open.body;

  auto created = createProject("shop");
  ASSERT_EQ(created.status, 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  auto p = waitFor(id, [](const json& x) {
    return x.value("status", "") == "DOC_SUCCESS" || x.value("status", "").find("FAIL") != std::string::npos;
  });
  EXPECT_EQ(p["status"], "DOC_SUCCESS");
  // Every token asked for named one repository and only reading it.
  auto bodies = api_.tokenRequestBodies();
  ASSERT_FALSE(bodies.empty());
  for (const auto& body : bodies) {
    auto asked = json::parse(body, nullptr, false);
    ASSERT_TRUE(asked.is_object()) << body;
    EXPECT_EQ(asked["repositories"].size(), 1u) << body;
    EXPECT_EQ(asked["permissions"]["contents"], "read") << body;
    for (const auto& [name, level] : asked["permissions"].items()) EXPECT_EQ(level, "read") << body;
  }

  // The project exists now, private: for bob it still is not there, and asking to create
  // it again is a 404, not a 409 that would confirm it.
  EXPECT_EQ(status("shop", bob).body, notInstalled.body);
  auto again = createProject("shop", bob);
  EXPECT_EQ(again.status, 404) << again.body;
  auto mine = createProject("shop");
  EXPECT_EQ(mine.status, 409) << mine.body;
  // Nor can bob reach the project's code or pages by id.
  EXPECT_EQ(httpRequest(docsd_->port(), "GET", "/api/project?projectId=" + std::to_string(id), "", auth(bob)).status,
            404);
}

// The App reads the code on behalf of the project's creator: once GitHub says they may
// no longer read the private repository, a push brings no new code in.
TEST_F(GithubFlow, ASyncStopsWhenTheCreatorLosesReadAccess) {
  git_.createRepository("acme", "shop", shopFiles());
  start();
  auto created = createProject("shop");
  ASSERT_EQ(created.status, 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  auto p = waitFor(id, [](const json& x) {
    return x.value("status", "") == "DOC_SUCCESS" || x.value("status", "").find("FAIL") != std::string::npos;
  });
  ASSERT_EQ(p["status"], "DOC_SUCCESS");
  api_.addCollaborator("acme/shop", "alice-gh", "none");
  auto after =
      git_.commit("acme", "shop", {{"shop/secret.py", "\"\"\"Added after alice lost access.\"\"\"\nKEY = 1\n"}});
  auto pushed = deliver("push", pushPayload("shop", after), "d-after-revoke");
  ASSERT_EQ(pushed.status, 200) << pushed.body;
  p = waitFor(id, [](const json& x) { return x.value("status", "") == "PULL_FAIL"; });
  EXPECT_EQ(p["status"], "PULL_FAIL");
  auto generation = get("/api/project/" + std::to_string(id) + "/generation");
  EXPECT_NE(generation.dump().find("cannot read acme/shop"), std::string::npos) << generation.dump().substr(0, 600);
  EXPECT_NE(p["commit_hash"], after);
  for (const auto& page : p["pages"]) EXPECT_NE(page["name"], "secret.py");
}

TEST_F(GithubFlow, TheWebhookRefusesWhatGithubDidNotSign) {
  git_.createRepository("acme", "shop", shopFiles());
  start();
  std::string body = pushPayload("shop", "0123456789abcdef0123456789abcdef01234567");
  auto expectRefused = [&](const HttpResponse& r, int status, const std::string& code) {
    EXPECT_EQ(r.status, status) << r.body;
    auto parsed = json::parse(r.body, nullptr, false);
    ASSERT_TRUE(parsed.is_object()) << r.body;
    EXPECT_EQ(parsed["error"]["code"], code) << r.body;
  };
  expectRefused(deliver("push", body, "d-missing", {{"X-Hub-Signature-256", ""}}), 401, "signature_required");
  expectRefused(deliver("push", body, "d-wrong", {{"X-Hub-Signature-256", hmacHeader(body, "not-the-secret")}}), 401,
                "bad_signature");
  // SHA-1 only (the legacy header) is not enough.
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha1(), kSecret.data(), static_cast<int>(kSecret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), digest, &length);
  expectRefused(deliver("push", body, "d-sha1", {{"X-Hub-Signature-256", ""}, {"X-Hub-Signature", "sha1=00"}}), 401,
                "signature_required");
  // Signed over a re-serialisation of the same JSON: another body.
  std::string pretty = json::parse(body).dump(2);
  expectRefused(deliver("push", pretty, "d-reserialised", {{"X-Hub-Signature-256", hmacHeader(body)}}), 401,
                "bad_signature");
  // Signed but without a delivery id.
  expectRefused(deliver("push", body, "", {{"X-GitHub-Delivery", ""}}), 400, "invalid_delivery");
  // Larger than GitHub ever sends.
  std::string huge(25 * 1024 * 1024 + 10, ' ');
  auto big = httpRequest(docsd_->port(), "POST", "/api/github/webhook", huge,
                         {{"Content-Type", "application/json"},
                          {"X-GitHub-Event", "push"},
                          {"X-GitHub-Delivery", "d-big"},
                          {"X-Hub-Signature-256", hmacHeader(huge)}});
  EXPECT_EQ(big.status, 413) << big.body.substr(0, 200);
  // Signed and well-formed, but nothing to do.
  auto otherBranch = deliver("push", pushPayload("shop", "abc", "refs/heads/feature"), "d-branch");
  EXPECT_EQ(otherBranch.status, 200);
  EXPECT_EQ(json::parse(otherBranch.body)["reason"], "not the default branch");
  auto unknown = deliver("push", pushPayload("nobody-uses-this", "abc"), "d-unknown");
  EXPECT_EQ(json::parse(unknown.body)["reason"], "no project uses this repository");
  auto star = deliver("star", R"({"action":"created"})", "d-star");
  EXPECT_EQ(json::parse(star.body)["status"], "ignored");
  auto ping = deliver("ping", R"({"zen":"Design for failure."})", "d-ping");
  EXPECT_EQ(json::parse(ping.body)["status"], "pong");
  // The delivery id is outside the signature: the same signed body under a new id is a
  // replay, not a new event.
  auto replayed = deliver("ping", R"({"zen":"Design for failure."})", "d-ping-replayed");
  EXPECT_EQ(replayed.status, 200);
  EXPECT_EQ(json::parse(replayed.body)["status"], "duplicate");
  // Nothing above touched a project: none exists.
  EXPECT_EQ(get("/api/github/acme/shop/installation/status")["is_project_already_exists"], false);
}

namespace {

// The head of a webhook POST announcing `length` bytes, with `headers`.
std::string webhookHead(std::size_t length, const std::map<std::string, std::string>& headers) {
  std::string head =
      "POST /api/github/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(length) + "\r\n";
  for (const auto& [name, value] : headers) head += name + ": " + value + "\r\n";
  return head + "\r\n";
}

bool sendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

const std::map<std::string, std::string> kGithubHeaders = {{"X-GitHub-Event", "push"},
                                                           {"X-GitHub-Delivery", "d-held"},
                                                           {"X-Hub-Signature-256", "sha256=" + std::string(64, '0')}};

}  // namespace

// A webhook is refused from its headers before its body is read: no signature, a malformed
// one, or no delivery id each get their answer while the 24 MB body has not been sent.
// Unsigned bodies the server does read share server.anonymous_body_budget_bytes: forty 24
// MB bodies held back by their last byte (once 1.1 GiB of docsd) cost at most the budget,
// the rest are 503 at once, and a real delivery goes through once they are gone.
TEST_F(GithubFlow, WebhookBodiesAreRefusedFromTheirHeadersAndBoundedTogether) {
  extraEnv_ = {{"DOCS_SERVER_ANONYMOUS_BODY_BUDGET_BYTES", std::to_string(64 << 20)}, {"DOCS_LOG_ACCESS", "false"}};
  start();
  const int port = docsd_->port();
  const std::size_t length = 24'000'000;
  auto refusedAtOnce = [&](std::map<std::string, std::string> headers, const std::string& status,
                           const std::string& code) {
    std::string answer = docs::test::rawExchange(port, webhookHead(length, headers), std::chrono::seconds(20));
    EXPECT_EQ(answer.substr(0, 13), "HTTP/1.1 " + status + " ") << answer.substr(0, 300);
    EXPECT_NE(answer.find("\"" + code + "\""), std::string::npos) << answer.substr(0, 300);
  };
  auto unsigned_ = kGithubHeaders;
  unsigned_.erase("X-Hub-Signature-256");
  refusedAtOnce(unsigned_, "401", "signature_required");
  auto malformed = kGithubHeaders;
  malformed["X-Hub-Signature-256"] = "sha1=00";
  refusedAtOnce(malformed, "401", "bad_signature");
  auto noDelivery = kGithubHeaders;
  noDelivery.erase("X-GitHub-Delivery");
  refusedAtOnce(noDelivery, "400", "invalid_delivery");

  long before = docs::test::procStatusField(docsd_->pid(), "VmRSS");
  std::string chunk(1 << 20, ' ');
  std::vector<int> held;
  int busy = 0;
  for (int i = 0; i < 40; ++i) {
    int fd = docs::test::connectTo(port);
    ASSERT_GE(fd, 0) << i;
    ASSERT_TRUE(sendAll(fd, webhookHead(length, kGithubHeaders)));
    // A refused one is answered before its body; an admitted one gets all but its last byte.
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 300) > 0) {
      char buffer[512];
      ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      std::string answer(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
      EXPECT_NE(answer.find(" 503 "), std::string::npos) << answer;
      ++busy;
      ::close(fd);
      continue;
    }
    std::size_t sent = 0;
    while (sent + chunk.size() < length && sendAll(fd, chunk)) sent += chunk.size();
    sendAll(fd, std::string(length - 1 - sent, ' '));
    held.push_back(fd);
  }
  EXPECT_LE(held.size(), 2u);  // 64 MiB holds two 24 MB bodies
  EXPECT_GE(busy, 38);
  long during = docs::test::procStatusField(docsd_->pid(), "VmRSS");
  EXPECT_LT(during - before, 200 * 1024) << "RSS went from " << before << " KiB to " << during << " KiB";
  // Signed deliveries wait for room, and get it once the held bodies are gone.
  for (int fd : held) ::close(fd);
  HttpResponse pong;
  for (int i = 0; i < 200; ++i) {
    pong = deliver("ping", R"({"zen":"Keep it logically awesome."})", "d-after");
    if (pong.status != 503) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(pong.status, 200) << pong.body;
  EXPECT_EQ(json::parse(pong.body, nullptr, false)["status"], "pong") << pong.body;
}

// Without github.webhook_secret every delivery is refused before its body is read.
TEST_F(GithubFlow, WithoutASecretTheWebhookReadsNoBody) {
  extraEnv_ = {{"DOCS_GITHUB_WEBHOOK_SECRET", ""}};
  start();
  std::string answer =
      docs::test::rawExchange(docsd_->port(), webhookHead(24'000'000, kGithubHeaders), std::chrono::seconds(20));
  EXPECT_EQ(answer.substr(0, 13), "HTTP/1.1 503 ") << answer.substr(0, 300);
  EXPECT_NE(answer.find("webhook_not_configured"), std::string::npos) << answer.substr(0, 300);
}

// Deliveries are remembered for github.delivery_retention_days, then pruned.
TEST_F(GithubFlow, OldDeliveriesArePruned) {
  extraEnv_ = {{"DOCS_GITHUB_PRUNE_INTERVAL_SECONDS", "1"}};
  start();
  ASSERT_EQ(json::parse(deliver("ping", R"({"zen":"old"})", "d-old").body)["status"], "pong");
  ASSERT_EQ(json::parse(deliver("ping", R"({"zen":"new"})", "d-new").body)["status"], "pong");
  docs::test::sqlValue(
      database_.url(),
      "UPDATE github_deliveries SET received_at = now() - interval '31 days' WHERE delivery_id = 'd-old'");
  std::string left;
  for (int i = 0; i < 600; ++i) {
    left = docs::test::sqlValue(database_.url(),
                                "SELECT string_agg(delivery_id, ',' ORDER BY delivery_id) FROM github_deliveries");
    if (left == "d-new") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(left, "d-new");
}

TEST_F(GithubFlow, InstallationEventsMoveAccess) {
  git_.createRepository("acme", "shop", shopFiles());
  start();
  auto created = createProject("shop");
  ASSERT_TRUE(created.status == 200 || created.status == 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  // The first run resolves the installation when the project has none; wait until it has
  // ended, or it may resolve it again (the fake GitHub still answers 77) after a webhook moved it.
  waitFor(id, [](const json& x) {
    return x.value("installation_id", json()).is_number() && x.value("status", "") == "DOC_SUCCESS";
  });
  auto removed = deliver("installation_repositories",
                         json{{"action", "removed"},
                              {"installation", {{"id", 77}}},
                              {"repositories_added", json::array()},
                              {"repositories_removed", {{{"full_name", "acme/shop"}}}}}
                             .dump(),
                         "d-removed");
  EXPECT_EQ(json::parse(removed.body)["projects"], 1) << removed.body;
  EXPECT_TRUE(get("/api/project?projectId=" + std::to_string(id))["installation_id"].is_null());
  auto added = deliver(
      "installation",
      json{{"action", "created"}, {"installation", {{"id", 88}}}, {"repositories", {{{"full_name", "acme/shop"}}}}}
          .dump(),
      "d-added");
  EXPECT_EQ(json::parse(added.body)["projects"], 1) << added.body;
  EXPECT_EQ(get("/api/project?projectId=" + std::to_string(id))["installation_id"], 88);
}

TEST_F(GithubFlow, PushesDuringASyncCoalesceAndAPushNoWebhookBroughtIsFoundLater) {
  auto first = git_.createRepository("acme", "shop", shopFiles());
  (void)first;
  start();
  auto created = createProject("shop");
  ASSERT_TRUE(created.status == 200 || created.status == 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  waitFor(id, [](const json& x) { return x.value("status", "") == "DOC_SUCCESS"; });
  auto statusCount = [&](const std::string& status) {
    int n = 0;
    json generation = get("/api/project/" + std::to_string(id) + "/generation");  // kept: the loop reads into it
    for (const auto& entry : generation["history"]) n += entry["status"] == status;
    return n;
  };

  // Slow syncs, so that pushes land while one runs.
  docsd_.reset();
  std::map<std::string, std::string> env = {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,generation,github"},
                                            {"DOCS_JOBS_POLL_MS", "200"},
                                            {"DOCS_GITHUB_URL", git_.url()},
                                            {"DOCS_GITHUB_API_URL", api_.apiUrl()},
                                            {"DOCS_GITHUB_APP_ID", "4242"},
                                            {"DOCS_GITHUB_PRIVATE_KEY_FILE", keyFile_},
                                            {"DOCS_GITHUB_WEBHOOK_SECRET", kSecret},
                                            {"DOCS_GENERATION_RECONCILE_SECONDS", "2"},
                                            {"DOCS_GENERATION_TEST_STAGE_DELAY_MS", "1500"}};
  docsd_ = std::make_unique<Docsd>(Docsd::Options{env, {"serve"}, dataDir_.path(), database_.url()});
  ASSERT_TRUE(docsd_->start()) << docsd_->log();
  int updatingBefore = statusCount("DOC_UPDATING");
  auto a =
      git_.commit("acme", "shop",
                  {{"reports/cleanup.py", "\"\"\"Removes old carts, weekly.\"\"\"\n\ndef sweep():\n    return 0\n"}});
  ASSERT_EQ(deliver("push", pushPayload("shop", a), "c-1").status, 200);
  waitFor(id, [](const json& x) { return x.value("status", "") == "DOC_UPDATING"; });
  auto b =
      git_.commit("acme", "shop",
                  {{"reports/cleanup.py", "\"\"\"Removes old carts, daily.\"\"\"\n\ndef sweep():\n    return 1\n"}});
  ASSERT_EQ(deliver("push", pushPayload("shop", b), "c-2").status, 200);
  auto c =
      git_.commit("acme", "shop",
                  {{"reports/cleanup.py", "\"\"\"Removes old carts, hourly.\"\"\"\n\ndef sweep():\n    return 2\n"}});
  ASSERT_EQ(deliver("push", pushPayload("shop", c), "c-3").status, 200);
  auto p = waitFor(
      id, [&](const json& x) { return x.value("commit_hash", "") == c && x.value("status", "") == "DOC_SUCCESS"; });
  ASSERT_EQ(p["commit_hash"], c);
  std::this_thread::sleep_for(std::chrono::seconds(4));  // nothing more runs
  int runs = statusCount("DOC_UPDATING") - updatingBefore;
  EXPECT_GE(runs, 1);
  EXPECT_LE(runs, 2) << "three pushes, at most the running sync and one more";
  EXPECT_NE(exportPage(pagesByName(p)["cleanup.py"]).find("Removes old carts, hourly."), std::string::npos);

  // A push whose webhook never came: the periodic comparison with the remote finds it.
  auto d = git_.commit("acme", "shop",
                       {{"reports/cleanup.py", "\"\"\"Removes old carts, now.\"\"\"\n\ndef sweep():\n    return 3\n"}});
  p = waitFor(
      id, [&](const json& x) { return x.value("commit_hash", "") == d && x.value("status", "") == "DOC_SUCCESS"; },
      120);
  EXPECT_EQ(p["commit_hash"], d);
}

TEST_F(GithubFlow, AnEditorOpenOnAPageSeesTheSyncRewriteArriveLive) {
  auto first = git_.createRepository("acme", "shop", shopFiles());
  start("auth,rbac,projects,pages,collab,generation,github");
  auto created = createProject("shop");
  ASSERT_TRUE(created.status == 200 || created.status == 201) << created.body;
  auto id = json::parse(created.body)["id"].get<std::int64_t>();
  auto p = waitFor(id, [](const json& x) { return x.value("status", "") == "DOC_SUCCESS"; });
  auto apiPage = pagesByName(p)["api.py"];
  ASSERT_GT(apiPage, 0);
  // A Hocuspocus client (the SPA's provider) holds the page open.
  std::string ready = scratch_.path() + "/ready";
  json spec = {{"scenario", "watchUntil"},
               {"url", "ws://127.0.0.1:" + std::to_string(docsd_->port()) + "/collaboration"},
               {"room", std::to_string(id) + "__" + std::to_string(apiPage)},
               {"tokens", {alice_.token}},
               {"text", "Every product on sale today."},
               {"readyFile", ready},
               {"timeoutMs", 60000}};
  auto watcher = std::async(std::launch::async, [spec] {
    return docs::test::runCommand({"node", docs::test::sourceDir() + "/tests/collab/scenario.cjs", spec.dump()});
  });
  for (int i = 0; i < 300 && !std::filesystem::exists(ready); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(std::filesystem::exists(ready)) << "the watcher never synced: " << watcher.get().second;
  auto second = git_.commit("acme", "shop",
                            {{"shop/api.py",
                              "\"\"\"HTTP handlers.\"\"\"\nfrom .models import Product\n\ndef list_products():\n    "
                              "\"\"\"Every product on sale today.\"\"\"\n    return [Product()]\n"}});
  ASSERT_EQ(deliver("push", pushPayload("shop", second), "live-1").status, 200);
  auto [code, output] = watcher.get();
  ASSERT_EQ(code, 0) << output;
  auto seen = json::parse(output.substr(output.find('{')), nullptr, false);
  ASSERT_TRUE(seen.is_object()) << output;
  EXPECT_EQ(seen["seen"], true) << seen.dump().substr(0, 1500);
  EXPECT_EQ(seen["connects"], 1) << "the text came over the open connection, not by reconnecting";

  // The page's history names both runs: the version generation wrote (also what the page
  // was before the sync) and the one the sync wrote, each labelled with its commit.
  // The editor sees the text before the sync has labelled its version: wait for the sync
  // to finish, then for the labelled version (the state, not a time).
  waitFor(id, [&](const json& x) {
    return x.value("commit_hash", "") == second && x.value("status", "") == "DOC_SUCCESS";
  });
  std::string history = "/api/page/" + std::to_string(apiPage) + "/history";
  std::string generated = "Generated from " + first.substr(0, 12), synced = "Sync to " + second.substr(0, 12);
  std::map<std::string, std::int64_t> byLabel;
  json listed;
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
       std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(std::chrono::milliseconds(100))) {
    listed = get(history);  // named: a range-for over get(...)["versions"] would dangle
    byLabel.clear();
    for (const auto& version : listed["versions"])
      if (version["label"].is_string())
        byLabel[version["label"].get<std::string>()] = version["id"].get<std::int64_t>();
    if (byLabel.count(generated) && byLabel.count(synced)) break;
  }
  ASSERT_TRUE(byLabel.count(generated) && byLabel.count(synced))
      << generated << ", " << synced << ": " << listed.dump();
  auto md = [&](std::int64_t version) {
    return httpRequest(docsd_->port(), "GET", history + "/" + std::to_string(version) + "?format=md", "", auth()).body;
  };
  EXPECT_EQ(md(byLabel[generated]).find("Every product on sale today."), std::string::npos);
  EXPECT_NE(md(byLabel[synced]).find("Every product on sale today."), std::string::npos);
  auto changes =
      get(history + "/" + std::to_string(byLabel[synced]) + "/diff?against=" + std::to_string(byLabel[generated]));
  EXPECT_GT(changes["added"].get<int>() + changes["changed"].get<int>(), 0) << changes.dump().substr(0, 800);
}

// The App's key file is read when docsd starts serving, not when the plugins configure:
// `docsd plugins` and the commands work without it, and an unreadable one stops the start
// with its name.
TEST_F(GithubFlow, TheKeyFileIsReadWhenServingNotByTheCommands) {
  std::string missing = scratch_.path() + "/missing.pem";
  std::map<std::string, std::string> env = {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,github"},
                                            {"DOCS_GITHUB_APP_ID", "4242"},
                                            {"DOCS_GITHUB_PRIVATE_KEY_FILE", missing}};
  auto [code, out] = docs::test::runCommand({docs::test::buildDir() + "/bin/docsd", "plugins"}, env);
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out.find("refused to configure"), std::string::npos) << out;

  Docsd serving(Docsd::Options{env, {"serve"}, dataDir_.path(), database_.url()});
  EXPECT_FALSE(serving.start());
  EXPECT_NE(serving.log().find("cannot read github.private_key_file " + missing), std::string::npos) << serving.log();
}
