// The permission matrix: every route x {anonymous, stranger, read, write, admin, removed
// member} x {public, private project}, generated from one table, each cell asserting the
// exact status. Plus object ids taken from another project.
#include <docs/ydoc/ydoc.hpp>

#include <functional>
#include <set>

#include "rest_fixture.hpp"

using namespace docs::rest_test;
using docs::test::SignedIn;

namespace {

enum class Need { Read, Write, Admin, Member };
enum class Actor { Anonymous, Stranger, Reader, Writer, Admin, Removed };
const Actor kActors[] = {Actor::Anonymous, Actor::Stranger, Actor::Reader, Actor::Writer, Actor::Admin, Actor::Removed};

const char* actorName(Actor a) {
  switch (a) {
    case Actor::Anonymous: return "anonymous";
    case Actor::Stranger: return "stranger";
    case Actor::Reader: return "read";
    case Actor::Writer: return "write";
    case Actor::Admin: return "admin";
    case Actor::Removed: return "removed";
  }
  return "?";
}

// The rule, written out longhand from the spec and docs/api.md.
int expectedStatus(Need need, Actor actor, bool isPublic, int success) {
  int granted = actor == Actor::Reader ? 1 : actor == Actor::Writer ? 2 : actor == Actor::Admin ? 3 : 0;
  bool signedIn = actor != Actor::Anonymous;
  int needed = need == Need::Write ? 2 : need == Need::Admin ? 3 : 1;
  if (need == Need::Member) {
    if (granted > 0) return success;
    if (!isPublic) return 404;
    return signedIn ? 403 : 401;
  }
  int has = std::max(granted, isPublic ? 1 : 0);
  if (has >= needed) return success;
  if (has == 0) return 404;
  return signedIn ? 403 : 401;
}

std::string yjsDocument(const std::string& text) {
  docs::ydoc::Json pm = {{"type", "doc"},
                         {"content", {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}}}}};
  auto bytes = docs::ydoc::proseMirrorJsonToUpdate(pm, 42);
  return base64(std::string(bytes.begin(), bytes.end()));
}

struct Project {
  std::int64_t id = 0;
  bool isPublic = false;
  std::int64_t page = 0;  // a page with content and an image
  std::string image;      // that image's name
};

class PermissionMatrix;

struct RouteCase {
  std::string name;
  Need need;
  int success;
  // Performs the call as `who` on project p (setting up anything it consumes first).
  std::function<HttpResponse(PermissionMatrix&, const Headers& who, const Project&)> run;
};

class PermissionMatrix : public RestTest {
 protected:
  void SetUp() override {
    startServer();
    admin_ = signIn("alice@example.com");
    writer_ = signIn("bob@example.com");
    reader_ = signIn("carol@example.com");
    removed_ = signIn("dave@example.com");
    stranger_ = signIn("eve@example.com");
    for (bool isPublic : {true, false}) projects_.push_back(makeProject(isPublic));
  }

  Project makeProject(bool isPublic) {
    Project p;
    p.isPublic = isPublic;
    p.id = createProject(admin_, isPublic ? "Public" : "Private", !isPublic)["id"];
    // A repository URL too, so the lookup by URL is in the matrix (cloning is not).
    sql("UPDATE projects SET git_url = 'https://github.com/matrix/p" + std::to_string(p.id) +
        "' WHERE id = " + std::to_string(p.id));
    grant(admin_, p.id, writer_.email, "write");
    grant(admin_, p.id, reader_.email, "read");
    grant(admin_, p.id, removed_.email, "write");
    grant(admin_, p.id, "frank@example.com", "read");
    auto removal =
        call("DELETE", "/api/rbac/project", json{{"project_id", p.id}, {"email", removed_.email}}, as(admin_));
    EXPECT_EQ(removal.status, 200) << removal.body;
    p.page = createPage(admin_, p.id)["id"];
    auto put = call("PUT", page(p.page) + "/content", json{{"content_bytea", yjsDocument("hello")}}, as(admin_));
    EXPECT_EQ(put.status, 200) << put.body;
    auto upload = call("POST", imagePath(p.id, p.page) + "upload", pngBytes(),
                       {{"Content-Type", "image/png"}, {"Authorization", "Bearer " + admin_.token}});
    EXPECT_EQ(upload.status, 200) << upload.body;
    std::string url = parse(upload)["url"];
    p.image = url.substr(url.rfind('/') + 1);
    return p;
  }

  static std::string page(std::int64_t id) { return "/api/page/" + std::to_string(id); }
  static std::string project(std::int64_t id) { return "/api/project/" + std::to_string(id); }
  static std::string imagePath(std::int64_t projectId, std::int64_t pageId) {
    return project(projectId) + "/page/" + std::to_string(pageId) + "/";
  }

  Headers headersOf(Actor actor) {
    switch (actor) {
      case Actor::Anonymous: return {};
      case Actor::Stranger: return as(stranger_);
      case Actor::Reader: return as(reader_);
      case Actor::Writer: return as(writer_);
      case Actor::Admin: return as(admin_);
      case Actor::Removed: return as(removed_);
    }
    return {};
  }

  SignedIn admin_, writer_, reader_, removed_, stranger_;
  std::vector<Project> projects_;
  int counter_ = 0;

  std::vector<RouteCase> routes();
};

std::vector<RouteCase> PermissionMatrix::routes() {
  using P = const Project&;
  using H = const Headers&;
  std::vector<RouteCase> table;
  auto add = [&](std::string name, Need need, int success, auto run) {
    table.push_back(
        {std::move(name), need, success, [run](PermissionMatrix& self, H who, P p) { return run(self, who, p); }});
  };
  add("GET project", Need::Read, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("GET", "/api/project?projectId=" + std::to_string(p.id), "", who);
  });
  add("GET project by gitUrl", Need::Read, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("GET", "/api/project?gitUrl=github.com%2Fmatrix%2Fp" + std::to_string(p.id), "", who);
  });
  add("PATCH project name", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", project(p.id), json{{"name", "Renamed"}}, who);
  });
  add("PATCH project description", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", project(p.id), json{{"description", "About"}}, who);
  });
  add("PATCH project visibility", Need::Admin, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", project(p.id), json{{"visibility", p.isPublic ? "public" : "private"}}, who);
  });
  add("DELETE project", Need::Admin, 200, [](PermissionMatrix& t, H who, P p) {
    Project fresh = t.makeProject(p.isPublic);
    return t.call("DELETE", project(fresh.id), "", who);
  });
  add("POST upload-zip", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("POST", project(p.id) + "/upload-zip",
                  multipartBody("b0undary", "file", "code.zip", "application/zip", emptyZip()),
                  multipartHeaders(who, "b0undary"));
  });
  add("GET rbac list", Need::Member, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("GET", "/api/rbac/project/" + std::to_string(p.id), "", who);
  });
  add("POST rbac add", Need::Admin, 201, [](PermissionMatrix& t, H who, P p) {
    std::string email = "new" + std::to_string(++t.counter_) + "@example.com";
    return t.call("POST", "/api/rbac/project", json{{"project_id", p.id}, {"email", email}, {"role", "read"}}, who);
  });
  add("PATCH rbac role", Need::Admin, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", "/api/rbac/project",
                  json{{"project_id", p.id}, {"email", "frank@example.com"}, {"new_role", "write"}}, who);
  });
  add("DELETE rbac user", Need::Admin, 200, [](PermissionMatrix& t, H who, P p) {
    std::string email = "gone" + std::to_string(++t.counter_) + "@example.com";
    t.grant(t.admin_, p.id, email, "read");
    return t.call("DELETE", "/api/rbac/project", json{{"project_id", p.id}, {"email", email}}, who);
  });
  add("POST page", Need::Write, 201, [](PermissionMatrix& t, H who, P p) {
    return t.call("POST", project(p.id) + "/page", json{{"parent_page_id", p.page}}, who);
  });
  add("GET page", Need::Read, 200,
      [](PermissionMatrix& t, H who, P p) { return t.call("GET", page(p.page), "", who); });
  add("PATCH page name", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", page(p.page), json{{"name", "Intro"}}, who);
  });
  add("PATCH page move", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PATCH", page(p.page), json{{"parent_id", 0}}, who);
  });
  add("DELETE page", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    std::int64_t fresh = t.createPage(t.admin_, p.id)["id"];
    return t.call("DELETE", page(fresh), "", who);
  });
  add("GET page content", Need::Read, 200,
      [](PermissionMatrix& t, H who, P p) { return t.call("GET", page(p.page) + "/content", "", who); });
  add("PUT page content", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("PUT", page(p.page) + "/content", json{{"content_bytea", yjsDocument("hello")}}, who);
  });
  add("GET page export", Need::Read, 200,
      [](PermissionMatrix& t, H who, P p) { return t.call("GET", page(p.page) + "/export?format=md", "", who); });
  add("POST image", Need::Write, 200, [](PermissionMatrix& t, H who, P p) {
    Headers headers = who;
    headers["Content-Type"] = "image/png";
    return t.call("POST", imagePath(p.id, p.page) + "upload", pngBytes(), headers);
  });
  add("GET image", Need::Read, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("GET", imagePath(p.id, p.page) + "image/" + p.image, "", who);
  });
  add("GET signed image URL", Need::Read, 200, [](PermissionMatrix& t, H who, P p) {
    return t.call("GET", imagePath(p.id, p.page) + "image/" + p.image + "/signed", "", who);
  });
  return table;
}

}  // namespace

TEST_F(PermissionMatrix, EveryRouteRoleAndVisibility) {
  int cells = 0;
  for (const auto& route : routes()) {
    for (const auto& p : projects_) {
      for (Actor actor : kActors) {
        int expected = expectedStatus(route.need, actor, p.isPublic, route.success);
        auto response = route.run(*this, headersOf(actor), p);
        EXPECT_EQ(response.status, expected) << route.name << " as " << actorName(actor) << " on a "
                                             << (p.isPublic ? "public" : "private") << " project: " << response.body;
        ++cells;
      }
    }
  }
  EXPECT_EQ(cells, 22 * 2 * 6);
}

TEST_F(PermissionMatrix, CallsWithoutAProject) {
  EXPECT_EQ(call("GET", "/api/projects").status, 401);
  EXPECT_EQ(call("POST", "/api/project", json{{"name", "x"}}, {}).status, 401);
  EXPECT_EQ(call("POST", "/api/project/zip", json{{"name", "x"}}, {}).status, 401);
  for (Actor actor : {Actor::Stranger, Actor::Reader, Actor::Writer, Actor::Admin, Actor::Removed}) {
    EXPECT_EQ(call("GET", "/api/projects", "", headersOf(actor)).status, 200) << actorName(actor);
    EXPECT_EQ(call("POST", "/api/project", json{{"name", "Mine"}}, headersOf(actor)).status, 201) << actorName(actor);
  }
  // The removed member no longer sees the projects; the reader does.
  auto listed = [&](Actor actor) {
    std::set<std::int64_t> ids;
    for (const auto& item : parse(call("GET", "/api/projects", "", headersOf(actor))))
      ids.insert(item["id"].get<std::int64_t>());
    return ids;
  };
  EXPECT_EQ(listed(Actor::Removed).count(projects_[0].id), 0u);
  EXPECT_EQ(listed(Actor::Reader).count(projects_[1].id), 1u);
}

TEST_F(PermissionMatrix, ObjectIdsFromAnotherProject) {
  // eve's private project B; alice is admin of A and tries B's objects through A's routes.
  Project b;
  b.id = createProject(stranger_, "B", true)["id"];
  b.page = createPage(stranger_, b.id)["id"];
  auto upload = call("POST", imagePath(b.id, b.page) + "upload", pngBytes(),
                     {{"Content-Type", "image/png"}, {"Authorization", "Bearer " + stranger_.token}});
  ASSERT_EQ(upload.status, 200) << upload.body;
  std::string bImage =
      parse(upload)["url"].get<std::string>().substr(parse(upload)["url"].get<std::string>().rfind('/') + 1);
  const Project& a = projects_[1];

  Headers png = as(admin_);
  png["Content-Type"] = "image/png";
  expectError(call("POST", imagePath(a.id, b.page) + "upload", pngBytes(), png), 404);
  expectError(call("GET", imagePath(a.id, b.page) + "image/" + bImage, "", as(admin_)), 404);
  expectError(call("POST", project(a.id) + "/page", json{{"parent_page_id", b.page}}, as(admin_)), 400,
              "The parent page is not a page of this project");
  expectError(call("PATCH", page(a.page), json{{"parent_id", b.page}}, as(admin_)), 400,
              "The new parent is not a page of this project");
  expectError(call("GET", page(b.page), "", as(admin_)), 404);
  expectError(call("DELETE", page(b.page), "", as(admin_)), 404);
  expectError(call("POST", "/api/rbac/project",
                   json{{"project_id", b.id}, {"email", "x@example.com"}, {"role", "read"}}, as(admin_)),
              404);
  // And the reverse: B's owner cannot reach A's private page through B.
  expectError(call("PATCH", page(b.page), json{{"parent_id", a.page}}, as(stranger_)), 400);
  expectError(call("GET", page(a.page) + "/content", "", as(stranger_)), 404);
  // Nothing moved.
  EXPECT_EQ(parse(call("GET", page(b.page), "", as(stranger_)))["parent_id"], 0);
}
