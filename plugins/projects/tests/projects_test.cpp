// The Projects calls against a real docsd: creation, listing order, validation, rename
// rules, delete, ZIP upload and bad input.
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "rest_fixture.hpp"

namespace fs = std::filesystem;
using namespace docs::rest_test;

namespace {
class Projects : public RestTest {
 protected:
  void SetUp() override {
    startServer();
    alice_ = signIn("alice@example.com");
  }
  std::string projectPath(std::int64_t id) { return "/api/project/" + std::to_string(id); }
  json getProject(std::int64_t id) {
    auto r = call("GET", "/api/project?projectId=" + std::to_string(id), "", as(alice_));
    EXPECT_EQ(r.status, 200) << r.body;
    return parse(r);
  }
  HttpResponse patch(std::int64_t id, const json& body) { return call("PATCH", projectPath(id), body, as(alice_)); }
  fs::path uploadDir(std::int64_t id) {
    return fs::path(docsd_->dataDir()) / "uploads" / "projects" / std::to_string(id);
  }
  std::vector<std::string> filesIn(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) names.push_back(entry.path().filename().string());
    return names;
  }

  docs::test::SignedIn alice_;
};
}  // namespace

TEST_F(Projects, EmptyProjectStartsReadyWithOnePage) {
  auto created = createProject(alice_, "  Handbook  ", false);
  EXPECT_EQ(created["name"], "Handbook");
  EXPECT_EQ(created["type"], "user");
  EXPECT_EQ(created["status"], "READY");
  EXPECT_EQ(created["visibility"], "public");
  EXPECT_EQ(created["rag_status"], "idle");
  EXPECT_EQ(created["description"], "No description");
  EXPECT_EQ(created["language"], "en");
  EXPECT_EQ(created["role"], "admin");
  auto project = getProject(created["id"]);
  ASSERT_EQ(project["pages"].size(), 1u);
  EXPECT_EQ(project["pages"][0]["name"], "Untitled");
  EXPECT_EQ(project["pages"][0]["parent_id"], 0);
  EXPECT_EQ(project["pages"][0]["type"], "generated");
  EXPECT_FALSE(project["pages"][0].contains("content_bytea"));
  EXPECT_EQ(project["default_page_id"], project["pages"][0]["id"]);
  // Private by default, language optional.
  auto other = call("POST", "/api/project", json{{"name", "Notes"}, {"language", "ru"}}, as(alice_));
  ASSERT_EQ(other.status, 201);
  EXPECT_EQ(parse(other)["visibility"], "private");
  EXPECT_EQ(parse(other)["language"], "ru");
}

TEST_F(Projects, ListIsSortedByStatusOrderThenName) {
  std::map<std::string, std::string> statuses = {
      {"zeta", "READY"},        {"alpha", "DOC_FAILURE"},         {"Beta", "IDLE"},    {"gamma", "DOC_UPDATING"},
      {"delta", "DOC_SUCCESS"}, {"eps", "DOC_FILE_PAGES_FAILED"}, {"Omega", "CLONING"}};
  for (const auto& [name, status] : statuses) {
    std::int64_t id = createProject(alice_, name, true)["id"];
    sql("UPDATE projects SET status = '" + status + "' WHERE id = " + std::to_string(id));
  }
  std::vector<std::string> names;
  for (const auto& p : parse(call("GET", "/api/projects", "", as(alice_)))) names.push_back(p["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"delta", "zeta", "gamma", "Beta", "Omega", "eps", "alpha"}));
  // Another user sees none of them.
  auto bob = signIn("bob@example.com");
  EXPECT_EQ(parse(call("GET", "/api/projects", "", as(bob))), json::array());
}

TEST_F(Projects, RenameDescriptionAndVisibilityRules) {
  std::int64_t id = createProject(alice_, "Original", true)["id"];
  EXPECT_EQ(parse(patch(id, json{{"name", "   "}}))["name"], "Original");  // empty after trimming: ignored
  EXPECT_EQ(parse(patch(id, json{{"name", " New   name "}}))["name"], "New name");
  EXPECT_EQ(parse(patch(id, json{{"description", "Docs for  it"}}))["description"], "Docs for it");
  EXPECT_EQ(parse(patch(id, json{{"description", ""}}))["description"], "No description");
  EXPECT_EQ(parse(patch(id, json{{"visibility", "public"}}))["visibility"], "public");
  expectError(patch(id, json{{"name", std::string(121, 'n')}}), 400, "Project name must be at most 120 characters");
  expectError(patch(id, json{{"description", std::string(1001, 'd')}}), 400,
              "Description must be at most 1000 characters");
  expectError(patch(id, json{{"visibility", "secret"}}), 400, "'visibility' must be public or private");
  expectError(patch(id, json{{"name", 5}}), 400, "'name' must be a string");
  expectError(patch(id, json{{"owner", "me"}}), 400, "Unknown field 'owner'");
  expectError(patch(id, json::object()), 400, "Send at least one of name, description, visibility");
  expectError(call("POST", "/api/project", json{{"name", ""}}, as(alice_)), 400, "Project name is required");
  expectError(call("POST", "/api/project", json{{"is_private", true}}, as(alice_)), 400, "Project name is required");
  expectError(call("POST", "/api/project", json{{"name", "x"}, {"is_private", "yes"}}, as(alice_)), 400,
              "'is_private' must be true or false");
  expectError(call("POST", "/api/project", json{{"name", "x"}, {"language", "fr"}}, as(alice_)), 400,
              "'language' must be en, ru or de");
  EXPECT_EQ(getProject(id)["name"], "New name");
}

TEST_F(Projects, BadIdsAndHugeBodies) {
  for (const char* id : {"abc", "-1", "0", "99999999999999999999", "1.5"}) {
    expectError(call("GET", std::string("/api/project?projectId=") + id, "", as(alice_)), 400);
    expectError(call("PATCH", std::string("/api/project/") + id, json{{"name", "x"}}, as(alice_)), 400);
    expectError(call("DELETE", std::string("/api/project/") + id, "", as(alice_)), 400);
  }
  expectError(call("GET", "/api/project?projectId=987654321", "", as(alice_)), 404, "Project not found");
  expectError(call("GET", "/api/project", "", as(alice_)), 400);
  std::string tenMegabytes(10 << 20, 'n');
  expectError(call("POST", "/api/project", json{{"name", tenMegabytes}}, as(alice_)), 413);
  std::int64_t id = createProject(alice_, "Small", true)["id"];
  expectError(patch(id, json{{"name", tenMegabytes}}), 413);
  expectError(call("POST", "/api/project", "{\"name\": ", as(alice_)), 400);
  EXPECT_EQ(getProject(id)["name"], "Small");
}

TEST_F(Projects, GithubProjectsAndLookupByUrl) {
  json body = {
      {"repo_owner", "octo"}, {"repo_name", "hello"}, {"name", "Hello"}, {"language", "de"}, {"is_private", false}};
  auto created = call("POST", "/api/project/github", body, as(alice_));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(parse(created)["type"], "github");
  EXPECT_EQ(parse(created)["git_url"], "https://github.com/octo/hello");
  EXPECT_EQ(parse(created)["status"], "REQUEST_TO_CLONE");
  expectError(call("POST", "/api/project/github", body, as(alice_)), 409, "Project already exists");
  body["repo_owner"] = "OCTO";
  expectError(call("POST", "/api/project/github", body, as(alice_)), 409, "Project already exists");
  for (const char* field : {"repo_owner", "repo_name", "name", "language"}) {
    json missing = body;
    missing[field] = "";
    expectError(call("POST", "/api/project/github", missing, as(alice_)), 400,
                "Project creation info is missing or invalid");
  }
  auto byUrl = call("GET", "/api/project?gitUrl=github.com%2Focto%2Fhello.git", "");  // public: anonymous may read
  ASSERT_EQ(byUrl.status, 200) << byUrl.body;
  EXPECT_EQ(parse(byUrl)["id"], parse(created)["id"]);
  EXPECT_EQ(parse(byUrl)["pages"], json::array());
  expectError(call("GET", "/api/project?gitUrl=https%3A%2F%2Fgitlab.com%2Fa%2Fb", ""), 400, "Invalid GitHub URL");
  expectError(call("GET", "/api/project?gitUrl=github.com%2Fnobody%2Fnothing", ""), 404);
}

TEST_F(Projects, DeleteRemovesPagesPermissionsAndFiles) {
  std::int64_t id = createProject(alice_, "Doomed", true)["id"];
  auto page = createPage(alice_, id);
  grant(alice_, id, "bob@example.com", "read");
  auto upload =
      call("POST", projectPath(id) + "/upload-zip",
           multipartBody("bnd", "file", "a.zip", "application/zip", emptyZip()), multipartHeaders(as(alice_), "bnd"));
  ASSERT_EQ(upload.status, 200) << upload.body;
  Headers png = as(alice_);
  png["Content-Type"] = "image/png";
  ASSERT_EQ(call("POST", projectPath(id) + "/page/" + std::to_string(page["id"].get<std::int64_t>()) + "/upload",
                 pngBytes(), png)
                .status,
            200);
  ASSERT_TRUE(fs::exists(uploadDir(id) / "source.zip"));
  ASSERT_TRUE(fs::exists(fs::path(docsd_->dataDir()) / "images" / std::to_string(id)));
  auto deleted = call("DELETE", projectPath(id), "", as(alice_));
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(call("GET", "/api/project?projectId=" + std::to_string(id), "", as(alice_)).status, 404);
  EXPECT_EQ(call("GET", "/api/page/" + std::to_string(page["id"].get<std::int64_t>()), "", as(alice_)).status, 404);
  EXPECT_EQ(sql("SELECT count(*) FROM pages WHERE project_id = " + std::to_string(id)), "0");
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE project_id = " + std::to_string(id)), "0");
  EXPECT_FALSE(fs::exists(uploadDir(id)));
  EXPECT_FALSE(fs::exists(fs::path(docsd_->dataDir()) / "images" / std::to_string(id)));
  EXPECT_EQ(call("DELETE", projectPath(id), "", as(alice_)).status, 404);
}

TEST_F(Projects, ZipUploadAcceptsZipsByNameOrType) {
  auto zip = call("POST", "/api/project/zip", json{{"name", "Archive"}, {"is_private", true}}, as(alice_));
  ASSERT_EQ(zip.status, 201) << zip.body;
  std::int64_t id = parse(zip)["id"];
  EXPECT_EQ(parse(zip)["status"], "IDLE");
  EXPECT_EQ(getProject(id)["pages"], json::array());
  auto headers = multipartHeaders(as(alice_), "----x");
  // A .zip name is enough, even when the bytes are not a ZIP (the unpacker refuses it later).
  auto notZip = call("POST", projectPath(id) + "/upload-zip",
                     multipartBody("----x", "file", "fake.ZIP", "text/plain", "hello"), headers);
  ASSERT_EQ(notZip.status, 200) << notZip.body;
  EXPECT_EQ(parse(notZip)["size"], 5);
  EXPECT_EQ(parse(notZip)["status"], "IDLE");
  // So is a ZIP content type.
  ASSERT_EQ(call("POST", projectPath(id) + "/upload-zip",
                 multipartBody("----x", "file", "code", "application/zip", emptyZip()), headers)
                .status,
            200);
  std::ifstream stored(uploadDir(id) / "source.zip", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(stored), {}), emptyZip());
  expectError(call("POST", projectPath(id) + "/upload-zip",
                   multipartBody("----x", "file", "notes.txt", "text/plain", "x"), headers),
              400, "Please select a ZIP file");
  expectError(call("POST", projectPath(id) + "/upload-zip",
                   multipartBody("----x", "other", "a.zip", "application/zip", "x"), headers),
              400, "The multipart field 'file' is missing");
  expectError(call("POST", projectPath(id) + "/upload-zip", "raw bytes",
                   {{"Content-Type", "application/zip"}, {"Authorization", "Bearer " + alice_.token}}),
              400, "Send the file as multipart/form-data in the field 'file'");
  expectError(call("POST", projectPath(id) + "/upload-zip",
                   multipartBody("----x", "file", "a.zip", "application/zip", "x"), multipartHeaders({}, "----x")),
              404);
  EXPECT_EQ(filesIn(uploadDir(id)), std::vector<std::string>{"source.zip"});
}

TEST_F(Projects, ZipOverTheLimitIs413) {
  std::int64_t id = createProject(alice_, "Big", true)["id"];
  // Declared too large: refused before a byte is read.
  std::string request = "POST " + projectPath(id) + "/upload-zip HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                        alice_.token +
                        "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 200000000\r\n\r\n";
  auto answer = docs::test::rawExchange(port(), request, std::chrono::seconds(10));
  EXPECT_NE(answer.find(" 413 "), std::string::npos) << answer.substr(0, 200);
  // Exactly 100 MB of file content (the body itself is within the route's limit): 413 while streaming.
  std::string body =
      multipartBody("b", "file", "big.zip", "application/zip",
                    std::string(104857600, 'z'));  // NOLINT(bugprone-string-constructor): 100 MB on purpose
  auto streamed = call("POST", projectPath(id) + "/upload-zip", body, multipartHeaders(as(alice_), "b"));
  expectError(streamed, 413, "File size must be less than 100MB");
  EXPECT_TRUE(filesIn(uploadDir(id)).empty());
}

TEST_F(Projects, UploadCutHalfwayLeavesNothing) {
  std::int64_t id = createProject(alice_, "Cut", true)["id"];
  auto headers = multipartHeaders(as(alice_), "b");
  ASSERT_EQ(call("POST", projectPath(id) + "/upload-zip",
                 multipartBody("b", "file", "good.zip", "application/zip", emptyZip()), headers)
                .status,
            200);
  std::string body = multipartBody("b", "file", "next.zip", "application/zip", std::string(4 << 20, 'q'));
  std::string head =
      "POST " + projectPath(id) + "/upload-zip HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + alice_.token +
      "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\n\r\n";
  int fd = docs::test::connectTo(port());
  ASSERT_GE(fd, 0);
  std::string half = head + body.substr(0, body.size() / 2);
  ASSERT_EQ(::send(fd, half.data(), half.size(), MSG_NOSIGNAL), static_cast<ssize_t>(half.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::close(fd);
  // The handler notices the end of the stream and removes its temporary file.
  std::vector<std::string> files;
  for (int i = 0; i < 100; ++i) {
    files = filesIn(uploadDir(id));
    if (files == std::vector<std::string>{"source.zip"}) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(files, std::vector<std::string>{"source.zip"});
  std::ifstream stored(uploadDir(id) / "source.zip", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(stored), {}), emptyZip()) << "the earlier upload is intact";
  EXPECT_EQ(getProject(id)["name"], "Cut");
}

namespace {
class ProjectQuotas : public RestTest {
 protected:
  void SetUp() override {
    startServer({{"DOCS_PROJECTS_MAX_PER_USER", "2"}, {"DOCS_PROJECTS_MAX_UPLOAD_MB_PER_USER", "1"}});
    alice_ = signIn("alice@example.com");
    bob_ = signIn("bob@example.com");
  }
  HttpResponse upload(std::int64_t id, std::size_t bytes) {
    std::string zip = std::string("PK\x03\x04", 4) + std::string(bytes, '\0');
    return call("POST", "/api/project/" + std::to_string(id) + "/upload-zip",
                multipartBody("bnd", "file", "a.zip", "application/zip", zip), multipartHeaders(as(alice_), "bnd"));
  }
  docs::test::SignedIn alice_, bob_;
};
}  // namespace

// One person's projects and the bytes their uploads hold are bounded; others are not
// affected, and deleting makes room again.
TEST_F(ProjectQuotas, ProjectsAndUploadBytesPerPerson) {
  std::int64_t first = createProject(alice_, "One", true)["id"];
  std::int64_t second = createProject(alice_, "Two", true)["id"];
  auto third = call("POST", "/api/project", json{{"name", "Three"}, {"is_private", true}}, as(alice_));
  expectError(third, 403, "You have reached the limit of 2 projects. Delete one to create another.");
  EXPECT_EQ(parse(third)["error"]["code"], "quota_exceeded");
  EXPECT_EQ(call("POST", "/api/project/zip", json{{"name", "Three"}, {"is_private", true}}, as(alice_)).status, 403);
  createProject(bob_, "Bob's", true);  // bob has his own quota

  ASSERT_EQ(upload(first, 600 << 10).status, 200);
  auto over = upload(second, 600 << 10);  // 1.2 MB together: over 1 MB
  EXPECT_EQ(over.status, 413) << over.body;
  EXPECT_EQ(parse(over)["error"]["code"], "quota_exceeded");
  EXPECT_EQ(upload(first, 700 << 10).status, 200);   // replacing the same project's upload
  EXPECT_EQ(upload(second, 200 << 10).status, 200);  // what is left

  ASSERT_EQ(call("DELETE", "/api/project/" + std::to_string(first), "", as(alice_)).status, 200);
  EXPECT_EQ(call("POST", "/api/project", json{{"name", "Three"}, {"is_private", true}}, as(alice_)).status, 201);
}
