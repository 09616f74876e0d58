// The MCP server in the real docsd: the Streamable HTTP transport (initialize, sessions,
// notifications, batches under 2025-03-26, GET 405, DELETE), malformed JSON-RPC, every
// tool, authorization exactly as the REST API (a stranger's token, anonymous callers, a
// revoked token), the limits; then the official TypeScript SDK's client
// (tests/client/sdk_client.mjs) against the same server.
#include <gtest/gtest.h>

#include <docs/ydoc/prosemirror.hpp>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "test_support.hpp"

using docs::test::base64;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using nlohmann::json;

namespace {

using Headers = std::map<std::string, std::string>;

class McpFlow : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {}
  void SetUp() override {
    Docsd::Options options;
    // github.url where nothing listens: a repository project's clone fails at once, offline.
    options.env = {{"DOCS_PLUGINS_ENABLED", "all"},
                   {"DOCS_RAG_USER_REQUESTS_PER_MINUTE", "1000"},
                   {"DOCS_RAG_ADDRESS_REQUESTS_PER_MINUTE", "1000"},
                   {"DOCS_GITHUB_URL", "http://127.0.0.1:9"},
                   {"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"}};
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
    bob_ = docs::test::signInByEmail(*docsd_, "bob@example.com");
    privateProject_ = createProject("Secret Ledger", true);
    publicProject_ = createProject("Open Handbook", false);
    overview_ = rootPage(privateProject_);
    ASSERT_EQ(rename(overview_, "Overview").status, 200);
    ASSERT_EQ(setText(overview_, "The warehouse ledger counts pallets of turnips.").status, 200);
    auto child = call("POST", "/api/project/" + std::to_string(privateProject_) + "/page", alice_.bearer(),
                      {{"parent_page_id", overview_}, {"name", "Details"}});
    ASSERT_EQ(child.status, 201) << child.body;
    details_ = json::parse(child.body)["id"];
    ASSERT_EQ(setText(details_, "Each pallet carries a barcode label.").status, 200);
    ASSERT_EQ(setText(rootPage(publicProject_), "The public handbook explains bicycles.").status, 200);
    aliceToken_ = token(alice_, "agent");
    bobToken_ = token(bob_, "stranger");
  }

  HttpResponse call(const std::string& method, const std::string& path, const Headers& headers,
                    const json& body = nullptr) {
    Headers all = headers;
    if (!body.is_null()) all["Content-Type"] = "application/json";
    return httpRequest(docsd_->port(), method, path, body.is_null() ? "" : body.dump(), all);
  }
  std::int64_t createProject(const std::string& name, bool isPrivate) {
    auto r = call("POST", "/api/project", alice_.bearer(), {{"name", name}, {"is_private", isPrivate}});
    EXPECT_EQ(r.status, 201) << r.body;
    return json::parse(r.body)["id"];
  }
  std::int64_t rootPage(std::int64_t project) {
    auto r = call("GET", "/api/project?projectId=" + std::to_string(project), alice_.bearer());
    return json::parse(r.body)["default_page_id"];
  }
  HttpResponse rename(std::int64_t page, const std::string& name) {
    return call("PATCH", "/api/page/" + std::to_string(page), alice_.bearer(), {{"name", name}});
  }
  HttpResponse setText(std::int64_t page, const std::string& text) {
    json pm = {{"type", "doc"},
               {"content", {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}}}}};
    return call("PUT", "/api/page/" + std::to_string(page) + "/content", alice_.bearer(),
                {{"content_bytea", base64(docs::ydoc::proseMirrorJsonToUpdate(pm, 4242))}});
  }
  std::string token(const docs::test::SignedIn& who, const std::string& name) {
    auto r = call("POST", "/api/tokens", who.bearer(), {{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return json::parse(r.body)["token"];
  }

  // One POST /mcp. `auth` is a bearer value ("" for none); `session` an Mcp-Session-Id.
  HttpResponse mcp(const std::string& body, const std::string& auth = "", const std::string& session = "",
                   const Headers& extra = {}) {
    Headers headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
    if (!auth.empty()) headers["Authorization"] = "Bearer " + auth;
    if (!session.empty()) headers["Mcp-Session-Id"] = session;
    for (const auto& [name, value] : extra) headers[name] = value;
    return httpRequest(docsd_->port(), "POST", "/mcp", body, headers);
  }
  std::string initialize(const std::string& auth = "", const std::string& version = "2025-11-25") {
    json request = {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "initialize"},
                    {"params",
                     {{"protocolVersion", version},
                      {"capabilities", json::object()},
                      {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}};
    auto r = mcp(request.dump(), auth);
    EXPECT_EQ(r.status, 200) << r.body;
    std::string session = r.header("mcp-session-id");
    EXPECT_FALSE(session.empty());
    EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(), auth, session).status, 202);
    return session;
  }
  // A tools/call's result, or the JSON-RPC error object.
  json tool(const std::string& name, const json& arguments, const std::string& auth, const std::string& session) {
    json request = {{"jsonrpc", "2.0"},
                    {"id", 7},
                    {"method", "tools/call"},
                    {"params", {{"name", name}, {"arguments", arguments}}}};
    auto r = mcp(request.dump(), auth, session);
    EXPECT_EQ(r.status, 200) << r.body;
    json answer = json::parse(r.body, nullptr, false);
    EXPECT_EQ(answer.value("id", json()), 7) << r.body;
    return answer.contains("result") ? answer["result"] : answer.value("error", json());
  }
  static std::string text(const json& result) {
    return result.contains("content") ? result["content"][0].value("text", "") : result.dump();
  }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
  docs::test::SignedIn alice_, bob_;
  std::int64_t privateProject_ = 0, publicProject_ = 0, overview_ = 0, details_ = 0;
  std::string aliceToken_, bobToken_;
};

TEST_F(McpFlow, InitializeNegotiatesTheVersionAndSessionsAreBoundToTheirCaller) {
  json request = {{"jsonrpc", "2.0"},
                  {"id", "a"},
                  {"method", "initialize"},
                  {"params",
                   {{"protocolVersion", "2025-06-18"},
                    {"capabilities", json::object()},
                    {"clientInfo", {{"name", "raw"}, {"version", "0"}}}}}};
  auto r = mcp(request.dump(), aliceToken_);
  ASSERT_EQ(r.status, 200) << r.body;
  json answer = json::parse(r.body);
  EXPECT_EQ(answer["id"], "a");
  EXPECT_EQ(answer["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r.header("cache-control"), "no-store");
  EXPECT_EQ(answer["result"]["serverInfo"]["name"], "docsd");
  EXPECT_TRUE(answer["result"]["capabilities"].contains("tools"));
  std::string session = r.header("mcp-session-id");
  EXPECT_EQ(session.size(), 32u);
  // Every version the server speaks is kept; an unknown one gets the latest.
  for (const char* version : {"2025-11-25", "2025-03-26"}) {
    request["params"]["protocolVersion"] = version;
    EXPECT_EQ(json::parse(mcp(request.dump()).body)["result"]["protocolVersion"], version);
  }
  request["params"]["protocolVersion"] = "1999-01-01";
  EXPECT_EQ(json::parse(mcp(request.dump()).body)["result"]["protocolVersion"], "2025-11-25");
  // initialize without a protocolVersion is invalid params.
  EXPECT_EQ(
      json::parse(mcp(json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "initialize"}, {"params", json::object()}}.dump())
                      .body)["error"]["code"],
      -32602);

  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(), aliceToken_, session).status,
            202);
  auto ping = mcp(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}.dump(), aliceToken_, session);
  EXPECT_EQ(ping.status, 200);
  EXPECT_EQ(json::parse(ping.body)["result"], json::object());
  // No session, an unknown one, another caller's: 400, 404, 404.
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_).status, 400);
  EXPECT_EQ(
      mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_, std::string(32, 'a')).status,
      404);
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), bobToken_, session).status, 404);
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), "", session).status, 404);
  // An unsupported MCP-Protocol-Version header is a 400.
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_, session,
                {{"MCP-Protocol-Version", "1999-01-01"}})
                .status,
            400);
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_, session,
                {{"MCP-Protocol-Version", "2025-06-18"}})
                .status,
            200);
  // A browser page of another origin is refused (DNS rebinding); the public URL's is not.
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_, session,
                {{"Origin", "http://evil.example"}})
                .status,
            403);
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump(), aliceToken_, session,
                {{"Origin", "https://docs.example.com"}})
                .status,
            200);
  EXPECT_EQ(
      call("DELETE", "/mcp",
           {{"Authorization", "Bearer " + aliceToken_}, {"Mcp-Session-Id", session}, {"Origin", "http://evil.example"}})
          .status,
      403);
  // GET offers no stream; DELETE ends the session.
  EXPECT_EQ(call("GET", "/mcp", {{"Authorization", "Bearer " + aliceToken_}}).status, 405);
  EXPECT_EQ(call("DELETE", "/mcp", {{"Authorization", "Bearer " + bobToken_}, {"Mcp-Session-Id", session}}).status,
            404);
  EXPECT_EQ(call("DELETE", "/mcp", {{"Authorization", "Bearer " + aliceToken_}, {"Mcp-Session-Id", session}}).status,
            204);
  EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"}, {"id", 4}, {"method", "ping"}}.dump(), aliceToken_, session).status, 404);
}

TEST_F(McpFlow, MalformedMessagesAreJsonRpcErrors) {
  std::string session = initialize(aliceToken_, "2025-06-18");
  auto parse = mcp("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ", aliceToken_, session);
  EXPECT_EQ(parse.status, 400);
  EXPECT_EQ(json::parse(parse.body)["error"]["code"], -32700);
  for (const std::string& invalid : {std::string(R"({"jsonrpc": "1.0", "id": 1, "method": "ping"})"),
                                     std::string(R"({"jsonrpc": "2.0", "id": 1, "method": 5})"),
                                     std::string(R"({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"})"),
                                     std::string(R"({"id": 1, "method": "ping"})"), std::string("42"),
                                     std::string(R"([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])")}) {
    auto r = mcp(invalid, aliceToken_, session);
    EXPECT_EQ(r.status, 400) << invalid << ": " << r.body;
    EXPECT_EQ(json::parse(r.body, nullptr, false).value("error", json::object()).value("code", 0), -32600) << invalid;
  }
  auto unknown =
      json::parse(mcp(R"({"jsonrpc": "2.0", "id": 9, "method": "resources/list"})", aliceToken_, session).body);
  EXPECT_EQ(unknown["error"]["code"], -32601);
  EXPECT_EQ(json::parse(mcp(R"({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"arguments": {}}})",
                            aliceToken_, session)
                            .body)["error"]["code"],
            -32602);
  // Invalid and oversized arguments: a question past rag.max_query_chars, too many
  // projects, a project reference of 300 characters. Under 2025-06-18 JSON-RPC errors;
  // under 2025-11-25 tool results with isError. An unknown tool is -32602 under both.
  const std::vector<std::pair<std::string, json>> bad = {
      {"list_projects", {{"extra", 1}}},
      {"read_wiki_structure", json::object()},
      {"search", {{"project", publicProject_}, {"query", "x"}, {"kind", "images"}}},
      {"ask_question", {{"project", publicProject_}, {"question", std::string(2001, 'q')}}},
      {"search", {{"projects", json(std::vector<int>(101, 1))}, {"query", "x"}}},
      {"read_wiki_structure", {{"project", std::string(300, '1')}}}};
  std::string current = initialize(aliceToken_, "2025-11-25");
  for (const auto& [name, arguments] : bad) {
    EXPECT_EQ(tool(name, arguments, aliceToken_, session).value("code", 0), -32602) << name << arguments.dump();
    auto result = tool(name, arguments, aliceToken_, current);
    EXPECT_TRUE(result.value("isError", false)) << name << arguments.dump() << result.dump();
    EXPECT_EQ(text(result).rfind("Invalid arguments for " + name + ": ", 0), 0u) << text(result);
  }
  EXPECT_EQ(tool("no_such_tool", json::object(), aliceToken_, session)["code"], -32602);
  EXPECT_EQ(tool("no_such_tool", json::object(), aliceToken_, current)["code"], -32602);
  // A body past 64 KiB is refused before it is read.
  json huge = {{"jsonrpc", "2.0"},
               {"id", 1},
               {"method", "tools/call"},
               {"params", {{"name", "search"}, {"arguments", {{"query", std::string(70000, 'x')}}}}}};
  EXPECT_EQ(mcp(huge.dump(), aliceToken_, session).status, 413);

  // Batches only under 2025-03-26; initialize never inside one.
  std::string old = initialize(aliceToken_, "2025-03-26");
  auto batch =
      mcp(R"([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                       {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 3, "method": "initialize",
                       "params": {"protocolVersion": "2025-03-26"}}])",
          aliceToken_, old);
  ASSERT_EQ(batch.status, 200) << batch.body;
  json answers = json::parse(batch.body);
  ASSERT_EQ(answers.size(), 3u) << batch.body;
  EXPECT_EQ(answers[0]["id"], 1);
  EXPECT_EQ(answers[1]["result"]["tools"].size(), 5u);
  EXPECT_EQ(answers[2]["error"]["code"], -32600);
  EXPECT_EQ(mcp("[]", aliceToken_, old).status, 400);
}

TEST_F(McpFlow, ToolsReadWhatTheCallerMayReadAndNothingElse) {
  std::string session = initialize(aliceToken_);
  auto tools = json::parse(mcp(R"({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})", aliceToken_, session).body);
  std::set<std::string> names;
  for (const auto& t : tools["result"]["tools"]) {
    names.insert(t["name"].get<std::string>());
    EXPECT_EQ(t["inputSchema"]["type"], "object");
  }
  EXPECT_EQ(names, (std::set<std::string>{"list_projects", "read_wiki_structure", "read_wiki_contents", "ask_question",
                                          "search"}));

  std::string listed = text(tool("list_projects", json::object(), aliceToken_, session));
  EXPECT_NE(listed.find("Secret Ledger"), std::string::npos) << listed;
  EXPECT_NE(listed.find("Open Handbook"), std::string::npos) << listed;

  std::string tree = text(tool("read_wiki_structure", {{"project", privateProject_}}, aliceToken_, session));
  EXPECT_NE(tree.find("- " + std::to_string(overview_) + ": Overview"), std::string::npos) << tree;
  EXPECT_NE(tree.find("  - " + std::to_string(details_) + ": Details"), std::string::npos) << tree;
  // One page, by id as a number or a string; the whole wiki.
  std::string page = text(tool("read_wiki_contents", {{"project", std::to_string(privateProject_)}, {"page", details_}},
                               aliceToken_, session));
  EXPECT_NE(page.find("Each pallet carries a barcode label."), std::string::npos) << page;
  EXPECT_EQ(page.find("turnips"), std::string::npos);
  std::string wiki = text(tool("read_wiki_contents", {{"project", privateProject_}}, aliceToken_, session));
  EXPECT_NE(wiki.find("turnips"), std::string::npos) << wiki;
  EXPECT_NE(wiki.find("barcode"), std::string::npos) << wiki;
  EXPECT_LT(wiki.find("turnips"), wiki.find("barcode")) << "parents before their children";
  // A repository project by owner/name (github.url is this test's), listed with it.
  auto repo = call("POST", "/api/project/github", bob_.bearer(),
                   {{"repo_owner", "octo"},
                    {"repo_name", "hello"},
                    {"name", "Hello Repo"},
                    {"language", "en"},
                    {"is_private", false}});
  ASSERT_EQ(repo.status, 201) << repo.body;
  std::int64_t repoId = json::parse(repo.body)["id"];
  std::string byName = text(tool("read_wiki_structure", {{"project", "OCTO/hello"}}, aliceToken_, session));
  EXPECT_EQ(byName.rfind("# Hello Repo (project " + std::to_string(repoId) + ")", 0), 0u) << byName;
  EXPECT_NE(text(tool("list_projects", json::object(), aliceToken_, session))
                .find(std::to_string(repoId) + " (octo/hello): Hello Repo"),
            std::string::npos);
  EXPECT_EQ(text(tool("read_wiki_structure", {{"project", "octo/absent"}}, aliceToken_, session)),
            "Project not found: octo/absent");
  // A page of another project is not found through this one.
  auto foreign = tool("read_wiki_contents", {{"project", publicProject_}, {"page", details_}}, aliceToken_, session);
  EXPECT_TRUE(foreign["isError"].get<bool>());

  // search and ask_question go through the rag index (pages are indexed shortly after an edit).
  std::string found;
  for (int i = 0; i < 300 && found.find("barcode") == std::string::npos; ++i) {
    found = text(tool("search", {{"project", privateProject_}, {"query", "barcode label"}, {"kind", "docs"}},
                      aliceToken_, session));
    if (found.find("barcode") == std::string::npos) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(found.find("barcode"), std::string::npos) << found;
  std::string answer =
      text(tool("ask_question", {{"projects", {privateProject_}}, {"question", "What does each pallet carry?"}},
                aliceToken_, session));
  EXPECT_NE(answer.find("barcode"), std::string::npos) << answer;
  EXPECT_EQ(
      text(tool("search", {{"project", privateProject_}, {"query", "barcode"}, {"kind", "code"}}, aliceToken_, session))
          .find("barcode label"),
      std::string::npos);
  // The tools' questions count as the rag plugin's, by way of its Search service (docs/metrics.md).
  auto metrics = httpRequest(docsd_->port(), "GET", "/metrics", "", {});
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("docsd_rag_queries_total{via=\"service\",outcome=\"answered\"} "), std::string::npos)
      << metrics.body.substr(0, 4000);
  EXPECT_EQ(metrics.body.find("docsd_rag_queries_total{via=\"http\""), std::string::npos);
}

TEST_F(McpFlow, StrangersAndAnonymousCallersNeverSeeAPrivateProject) {
  std::string bob = initialize(bobToken_);
  std::string listed = text(tool("list_projects", json::object(), bobToken_, bob));
  EXPECT_EQ(listed.find("Secret Ledger"), std::string::npos) << listed;
  EXPECT_NE(listed.find("Open Handbook"), std::string::npos) << listed;
  // The same answer as for a project that does not exist, for every tool.
  std::string missing = "999999";
  for (std::string name : {"read_wiki_structure", "read_wiki_contents", "ask_question", "search"}) {
    json args = {{"project", privateProject_}, {"question", "pallets?"}, {"query", "pallets"}};
    json none = {{"project", 999999}, {"question", "pallets?"}, {"query", "pallets"}};
    if (name == "read_wiki_structure" || name == "read_wiki_contents") {
      args.erase("question"), args.erase("query"), none.erase("question"), none.erase("query");
    }
    if (name == "ask_question") args.erase("query"), none.erase("query");
    if (name == "search") args.erase("question"), none.erase("question");
    auto hidden = tool(name, args, bobToken_, bob);
    auto absent = tool(name, none, bobToken_, bob);
    EXPECT_TRUE(hidden.value("isError", false)) << name << hidden.dump();
    EXPECT_EQ(text(hidden), "Project not found: " + std::to_string(privateProject_)) << name;
    EXPECT_EQ(text(absent), "Project not found: " + missing) << name;
  }
  // Anonymous: public projects only.
  std::string anonymous = initialize();
  listed = text(tool("list_projects", json::object(), "", anonymous));
  EXPECT_EQ(listed.find("Secret Ledger"), std::string::npos) << listed;
  EXPECT_NE(listed.find("Open Handbook"), std::string::npos) << listed;
  EXPECT_TRUE(tool("read_wiki_contents", {{"project", privateProject_}}, "", anonymous)["isError"].get<bool>());
  EXPECT_FALSE(tool("read_wiki_contents", {{"project", publicProject_}}, "", anonymous)["isError"].get<bool>());
}

TEST_F(McpFlow, RevokedMalformedAndUnknownTokensAre401) {
  std::string session = initialize(aliceToken_);
  auto tokens = json::parse(call("GET", "/api/tokens", alice_.bearer()).body)["tokens"];
  ASSERT_EQ(call("DELETE", "/api/tokens/" + tokens[0]["id"].get<std::string>(), alice_.bearer()).status, 204);
  for (const std::string& bad :
       {aliceToken_, std::string("docs_pat_nope"), "docs_pat_" + std::string(43, 'Z'), std::string("not-a-jwt")}) {
    auto r = mcp(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}.dump(), bad, session);
    EXPECT_EQ(r.status, 401) << bad << ": " << r.body;
    EXPECT_EQ(json::parse(r.body, nullptr, false).value("error", json::object()).value("code", ""), "invalid_token");
    EXPECT_EQ(mcp(json{{"jsonrpc", "2.0"},
                       {"id", 1},
                       {"method", "initialize"},
                       {"params", {{"protocolVersion", "2025-06-18"}}}}
                      .dump(),
                  bad)
                  .status,
              401);
  }
  // A session's JWT works as well as a token.
  std::string viaJwt = initialize(alice_.token);
  EXPECT_NE(text(tool("list_projects", json::object(), alice_.token, viaJwt)).find("Secret Ledger"), std::string::npos);
}

TEST_F(McpFlow, TheOfficialTypeScriptClientUsesEveryTool) {
  std::string dir = docs::test::sourceDir() + "/plugins/mcp/tests/client";
  ASSERT_TRUE(std::filesystem::exists(dir + "/node_modules/@modelcontextprotocol/sdk"))
      << "run scripts/npm-deps.sh (npm ci in plugins/mcp/tests/client)";
  // The stranger's token is revoked halfway by the script's caller: pass a second one for that.
  std::string doomed = token(alice_, "doomed");
  auto tokens = json::parse(call("GET", "/api/tokens", alice_.bearer()).body)["tokens"];
  std::string doomedId;
  for (const auto& t : tokens)
    if (t["name"] == "doomed") doomedId = t["id"];
  ASSERT_EQ(call("DELETE", "/api/tokens/" + doomedId, alice_.bearer()).status, 204);
  json spec = {{"url", "http://127.0.0.1:" + std::to_string(docsd_->port()) + "/mcp"},
               {"token", aliceToken_},
               {"strangerToken", bobToken_},
               {"revokedToken", doomed},
               {"privateProject", privateProject_},
               {"publicProject", publicProject_},
               {"pageId", details_}};
  auto [code, output] = docs::test::runCommand({"node", dir + "/sdk_client.mjs", spec.dump()});
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find("sdk client: all checks passed"), std::string::npos) << output;
}

}  // namespace
