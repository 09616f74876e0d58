#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/prosemirror.hpp"
#include "docs/ydoc/schema.hpp"
#include "docs/ydoc/types.hpp"
#include "docs/ydoc/xml.hpp"
#include "test_util.hpp"

#ifndef YDOC_TEST_DATA_DIR
#error "YDOC_TEST_DATA_DIR must point at tests/ydoc"
#endif

namespace docs::ydoc {
namespace {

Json loadAllNodes() {
  std::ifstream f(std::string(YDOC_TEST_DATA_DIR) + "/all_nodes.json");
  return Json::parse(std::string(std::istreambuf_iterator<char>(f), {}));
}

Json roundTrip(const Json& pm) {
  Doc doc(1);
  doc.applyUpdate(proseMirrorJsonToUpdate(pm, 42));
  return toProseMirrorJson(doc);
}

TEST(Schema, HasEverySpecNodeAndMark) {
  const EditorSchema& s = EditorSchema::instance();
  for (const char* n :
       {"doc",       "paragraph",  "heading",   "bulletList", "orderedList",    "taskList",  "taskItem",
        "listItem",  "blockquote", "codeBlock", "alert",      "table",          "tableRow",  "tableHeader",
        "tableCell", "image",      "video",     "drawing",    "horizontalRule", "hardBreak", "text"}) {
    EXPECT_NE(s.node(n), nullptr) << n;
  }
  for (const char* m : {"bold", "italic", "underline", "strike", "code", "link"}) EXPECT_NE(s.mark(m), nullptr) << m;
  EXPECT_EQ(s.node("alert")->attrs.at(0).defaultValue, "info");
  EXPECT_EQ(s.node("codeBlock")->attrs.at(1).name, "git_url");
  EXPECT_EQ(s.fragmentName(), "default");
}

TEST(Conversion, ProseMirrorJsonRoundTrip) {
  const Json pm = loadAllNodes();
  EXPECT_EQ(roundTrip(pm).dump(), normalizeProseMirrorJson(pm).dump());
}

TEST(Conversion, DefaultsAreFilledLikeGetJson) {
  const Json pm = Json::parse(R"({"type":"doc","content":[{"type":"alert","content":[{"type":"paragraph"}]},
        {"type":"codeBlock","content":[{"type":"text","text":"x"}]}]})");
  EXPECT_EQ(
      roundTrip(pm).dump(),
      R"({"type":"doc","content":[{"type":"alert","attrs":{"type":"info"},"content":[{"type":"paragraph"}]},)"
      R"({"type":"codeBlock","attrs":{"language":null,"git_url":null},"content":[{"type":"text","text":"x"}]}]})");
}

TEST(Conversion, GoldenParagraphReadsAsTiptapJson) {
  Doc doc(1);
  doc.applyUpdate(test::fromHex("0103010007010764656661756c74030970617261677261706807000100060400010102486900"));
  EXPECT_EQ(toProseMirrorJson(doc).dump(),
            R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Hi"}]}]})");
}

// Number attributes out of int's range (the decode fuzzer found -1.9e37) are clamped,
// never converted with undefined behaviour.
TEST(Conversion, MarkdownClampsNumbersOutOfRange) {
  const Json pm = Json::parse(R"({"type":"doc","content":[
        {"type":"heading","attrs":{"level":1e300},"content":[{"type":"text","text":"H"}]},
        {"type":"heading","attrs":{"level":-1.906e37},"content":[{"type":"text","text":"L"}]},
        {"type":"orderedList","attrs":{"start":-1.906e37},"content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"a"}]}]}]},
        {"type":"orderedList","attrs":{"start":3e20},"content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"b"}]}]}]},
        {"type":"orderedList","attrs":{"start":2.5},"content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"c"}]}]}]}]})");
  const std::string md = toMarkdown(pm);
  EXPECT_NE(md.find("###### H\n"), std::string::npos) << md;
  EXPECT_NE(md.find("# L\n"), std::string::npos) << md;
  EXPECT_NE(md.find("0. a"), std::string::npos) << md;
  EXPECT_NE(md.find("999999999. b"), std::string::npos) << md;
  EXPECT_NE(md.find("2. c"), std::string::npos) << md;
}

TEST(Conversion, Markdown) {
  Doc doc(1);
  applyProseMirrorJson(doc, loadAllNodes());
  const std::string md = toMarkdown(toProseMirrorJson(doc));
  EXPECT_EQ(md,
            "## Title \\<x\\>\n\n"
            "plain **bold** and *it* ``a`b``\\\n[bad link](#) <u>~~gone~~</u>\n\n"
            "- one\n\n  3. three\n\n"
            "- [x] done\n- [ ] todo\n\n"
            "````cpp\nint main() {}\n```\n````\n\n"
            "> quoted\n\n"
            "> [!WARNING]\n> careful\n\n"
            "| a\\|b | c |\n| --- | --- |\n| 1 | 2 |\n\n"
            "![pic](https://e.com/a%20b.png \"T\")\n\n"
            "---\n\n"
            "[Video](https://e.com/v.mp4)\n\n"
            "\\# not a heading\n");
}

TEST(Conversion, HtmlIsEscapedAndSafe) {
  Doc doc(1);
  applyProseMirrorJson(doc, loadAllNodes());
  const std::string html = toHtml(toProseMirrorJson(doc));
  EXPECT_NE(html.find("<h2>Title &lt;x&gt;</h2>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#\""), std::string::npos);  // javascript: link neutralised
  EXPECT_EQ(html.find("javascript"), std::string::npos);
  EXPECT_NE(html.find("<ol start=\"3\">"), std::string::npos);
  EXPECT_NE(html.find("<pre><code class=\"language-cpp\">int main() {}\n```</code></pre>"), std::string::npos);
  EXPECT_NE(html.find("<th><p>a|b</p></th>"), std::string::npos);
  EXPECT_NE(html.find("<div class=\"alert alert-warning\""), std::string::npos);
  EXPECT_NE(html.find("<input type=\"checkbox\" disabled checked>"), std::string::npos);
}

TEST(Conversion, PlainText) {
  const Json pm = Json::parse(
      R"({"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"A"}]},
        {"type":"paragraph","content":[{"type":"text","text":"b"},{"type":"hardBreak"},{"type":"text","marks":[{"type":"bold"}],"text":"c"}]},
        {"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"d"}]}]}]}]})");
  EXPECT_EQ(toPlainText(roundTrip(pm)), "A\nb\nc\nd\n");
}

TEST(Conversion, FromJsonMatchesYTiptapBytes) {
  // y-tiptap prosemirrorToYXmlFragment with clientID 7 for <h1>Hi <b>there</b></h1> (captured from yjs 13.6.33)
  const Json pm = Json::parse(R"({"type":"doc","content":[{"type":"heading","attrs":{"level":1},
        "content":[{"type":"text","text":"Hi "},{"type":"text","marks":[{"type":"bold"}],"text":"there"}]}]})");
  EXPECT_EQ(test::toHex(proseMirrorJsonToUpdate(pm, 7)),
            "0107070007010764656661756c74030768656164696e67070007000604000701034869208607"
            "0404626f6c64027b7d84070505746865726586070a04626f6c64046e756c6c28000700056c6576656c017d0100");
}

TEST(Conversion, BadJsonIsAConversionError) {
  EXPECT_THROW(proseMirrorJsonToUpdate(Json::parse(R"({"content":[]})"), 1), ConversionError);
  EXPECT_THROW(proseMirrorJsonToUpdate(Json::parse(R"({"type":"doc","content":[{"type":"text"}]})"), 1),
               ConversionError);
  Json deep = Json::parse(R"({"type":"paragraph"})");
  for (int i = 0; i < 1000; ++i) deep = Json{{"type", "blockquote"}, {"content", Json::array({deep})}};
  EXPECT_THROW(proseMirrorJsonToUpdate(Json{{"type", "doc"}, {"content", Json::array({deep})}}, 1), ConversionError);
}

TEST(Conversion, ReplaceKeepsOneDocument) {
  Doc doc(5);
  applyProseMirrorJson(
      doc, Json::parse(R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"old"}]}]})"));
  applyProseMirrorJson(
      doc, Json::parse(R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"new"}]}]})"));
  EXPECT_EQ(toPlainText(toProseMirrorJson(doc)), "new\n");
}

TEST(LocalEdits, TextInsertFormatAndDelete) {
  Doc doc(3);
  doc.transact([&](Transaction& tr) {
    YType& root = doc.root("default");
    YType* p = insertElement(doc, tr, root, 0, "paragraph");
    YType* t = insertXmlText(doc, tr, *p, 0);
    insertText(doc, tr, *t, 0, {{u"Hello world", {}}});
    insertText(doc, tr, *t, 5, {{u",", {{"bold", Json::object()}}}});
  });
  Doc remote(4);
  remote.applyUpdate(doc.encodeStateAsUpdate());
  EXPECT_EQ(toMarkdown(toProseMirrorJson(remote)), "Hello**,** world\n");
  doc.transact([&](Transaction& tr) {
    YType* t = const_cast<YType*>(xmlChildren(*xmlChildren(doc.root("default"))[0])[0]);
    deleteText(doc, tr, *t, 0, 1);
  });
  EXPECT_EQ(toPlainText(toProseMirrorJson(doc)), "ello, world\n");
}

}  // namespace
}  // namespace docs::ydoc

namespace docs::ydoc {
namespace {

TEST(SharedTypes, MapArrayTextRoundTrip) {
  Doc doc(11);
  doc.transact([&](Transaction& tr) {
    YType& meta = doc.root("meta", TypeRef::Map);
    mapSet(doc, tr, meta, "title", "Intro");
    mapSet(doc, tr, meta, "n", 3);
    mapSet(doc, tr, meta, "n", Json::array({1, "x"}));
    YType& list = doc.root("list", TypeRef::Array);
    arrayInsert(doc, tr, list, 0, {1, "two"});
    arrayInsert(doc, tr, list, 1, {Json{{"k", true}}});
  });
  Doc remote(12);
  remote.applyUpdate(doc.encodeStateAsUpdate());
  EXPECT_EQ(mapToJson(*remote.findRoot("meta")).dump(), R"({"title":"Intro","n":[1,"x"]})");
  EXPECT_EQ(arrayToJson(*remote.findRoot("list")).dump(), R"([1,{"k":true},"two"])");
}

}  // namespace
}  // namespace docs::ydoc

namespace docs::ydoc {
namespace {

TEST(Conversion, AppendAfterLastBlockSyncsToOtherReplicas) {
  Doc server(21);
  applyProseMirrorJson(
      server, Json::parse(R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"a"}]},
        {"type":"paragraph","content":[{"type":"text","text":"gone"}]}]})"));
  server.transact([&](Transaction& tr) { server.deleteRange(tr, server.root("default"), 1, 1); });
  Doc editor(22);
  editor.applyUpdate(server.encodeStateAsUpdate());
  const Bytes before = server.encodeStateVector();
  appendProseMirrorJson(
      server,
      Json::parse(
          R"({"type":"doc","content":[{"type":"heading","attrs":{"level":2},"content":[{"type":"text","text":"b"}]}]})"));
  editor.applyUpdate(server.encodeStateAsUpdate(before));
  EXPECT_EQ(toMarkdown(toProseMirrorJson(editor)), "a\n\n## b\n");
}

}  // namespace
}  // namespace docs::ydoc
