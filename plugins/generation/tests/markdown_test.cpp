// A repository's Markdown as page nodes: what renders, what goes, and that any input
// gives nodes the editor's schema accepts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "analysis/analysis.hpp"
#include "writing/markdown_blocks.hpp"
#include "writing/myst_markdown.hpp"
#include "writing/rst_markdown.hpp"

using namespace docs_generation;
using docs::ydoc::Json;

namespace {

// The content rules of core/ydoc/schema.json the converter must keep: known node and
// mark types, block containers holding blocks, list items opening with a paragraph,
// tables of rows of cells, no empty text. Returns the first problem ("" when none).
std::string schemaProblem(const Json& node, const std::string& parent = "doc") {
  static const std::set<std::string> blocks = {"paragraph", "heading",    "bulletList",    "orderedList",
                                               "taskList",  "blockquote", "codeBlock",     "alert",
                                               "table",     "image",      "horizontalRule"};
  static const std::set<std::string> marks = {"link", "bold", "italic", "underline", "strike", "code"};
  std::string type = node.value("type", "");
  const Json content = node.value("content", Json::array());
  auto childrenMust = [&](const std::set<std::string>& allowed) -> std::string {
    for (const auto& child : content)
      if (!allowed.count(child.value("type", ""))) return type + " holds " + child.value("type", "?");
    return "";
  };
  std::string problem;
  if (type == "doc" || type == "blockquote" || type == "alert" || type == "tableCell" || type == "tableHeader") {
    if (content.empty()) return type + " is empty";
    problem = childrenMust(blocks);
  } else if (type == "listItem" || type == "taskItem") {
    if (content.empty() || content[0].value("type", "") != "paragraph") return type + " does not open with a paragraph";
    problem = childrenMust(blocks);
  } else if (type == "bulletList" || type == "orderedList") {
    if (content.empty()) return type + " is empty";
    problem = childrenMust({"listItem"});
  } else if (type == "taskList") {
    if (content.empty()) return type + " is empty";
    problem = childrenMust({"taskItem"});
  } else if (type == "table") {
    if (content.empty()) return "table without rows";
    problem = childrenMust({"tableRow"});
  } else if (type == "tableRow") {
    problem = childrenMust({"tableCell", "tableHeader"});
  } else if (type == "paragraph" || type == "heading") {
    problem = childrenMust({"text", "hardBreak"});
    if (type == "heading") {
      int level = node["attrs"].value("level", 0);
      if (level < 1 || level > 3) return "heading level " + std::to_string(level);
    }
  } else if (type == "codeBlock") {
    problem = childrenMust({"text"});
    for (const auto& child : content)
      if (child.contains("marks")) return "marked text in a code block";
  } else if (type == "text") {
    if (node.value("text", "").empty()) return "empty text";
    for (const auto& mark : node.value("marks", Json::array()))
      if (!marks.count(mark.value("type", ""))) return "unknown mark " + mark.value("type", "");
  } else if (type == "image") {
    if (!node["attrs"]["src"].is_string()) return "image without src";
  } else if (type != "hardBreak" && type != "horizontalRule") {
    return "unknown node " + type + " in " + parent;
  }
  if (!problem.empty()) return problem;
  for (const auto& child : content)
    if (auto p = schemaProblem(child, type); !p.empty()) return p;
  return "";
}

Json docOf(const std::string& markdown, const MarkdownOptions& options = {}) {
  return {{"type", "doc"}, {"content", markdownBlocks(markdown, options)}};
}

std::size_t depthOf(const Json& node) {
  std::size_t deepest = 0;
  if (node.is_structured())
    for (const auto& child : node) deepest = std::max(deepest, depthOf(child));
  return deepest + 1;
}

std::string types(const Json& blocks) {
  std::string out;
  for (const auto& b : blocks) out += (out.empty() ? "" : " ") + b.value("type", "");
  return out;
}

}  // namespace

TEST(Markdown, ReadmeMarkupBecomesNodesNotEscapedText) {
  auto blocks =
      markdownBlocks("**[Gin 1.9.0](https://example.com/releases) is out!** Read the *notes* & `go get` it.\n");
  ASSERT_EQ(blocks.size(), 1u);
  const auto& inlines = blocks[0]["content"];
  EXPECT_EQ(inlineText(blocks[0]), "Gin 1.9.0 is out! Read the notes & go get it.");
  EXPECT_EQ(inlines[0]["text"], "Gin 1.9.0");
  EXPECT_EQ(inlines[0]["marks"].size(), 2u);  // bold and the link
  bool linked = false;
  for (const auto& m : inlines[0]["marks"])
    linked = linked || (m["type"] == "link" && m["attrs"]["href"] == "https://example.com/releases");
  EXPECT_TRUE(linked);
  EXPECT_EQ(inlines[1]["text"], " is out!");
  for (const auto& node : inlines) EXPECT_EQ(node.value("text", "").find('*'), std::string::npos);
}

TEST(Markdown, BlocksOfAGuide) {
  std::string guide =
      "---\ntitle: Quickstart\n---\n"
      "# Quickstart\n\nInstall it:\n\n```bash\npip install click\n```\n\n"
      "## Options\n\n#### Deep heading\n\n"
      "1. one\n2. two\n   - nested\n\n"
      "- [x] done\n- [ ] open\n\n"
      "| Name | Use |\n|---|---|\n| `--help` | shows help |\n| | |\n\n"
      "> [!WARNING]\n> Mind the gap.\n\n> A plain quote.\n\n---\n\n"
      "Line one  \nline two &copy; &#x263A; &bogus;\n\n"
      "<div align=\"center\">raw html</div>\n\n"
      "    indented code\n";
  auto doc = docOf(guide);
  EXPECT_EQ(schemaProblem(doc), "");
  const auto& b = doc["content"];
  EXPECT_EQ(types(b),
            "heading paragraph codeBlock heading heading orderedList taskList table alert blockquote horizontalRule "
            "paragraph codeBlock");
  EXPECT_EQ(b[2]["attrs"]["language"], "bash");
  EXPECT_EQ(b[2]["content"][0]["text"], "pip install click");
  EXPECT_EQ(b[4]["attrs"]["level"], 3);  // h4 kept as the deepest the editor has
  EXPECT_EQ(b[5]["attrs"]["start"], 1);
  EXPECT_EQ(b[5]["content"][1]["content"][1]["type"], "bulletList");
  EXPECT_EQ(b[6]["content"][0]["attrs"]["checked"], true);
  EXPECT_EQ(b[6]["content"][1]["attrs"]["checked"], false);
  EXPECT_EQ(b[7]["content"][0]["content"][0]["type"], "tableHeader");
  EXPECT_EQ(b[7]["content"][1]["content"][0]["content"][0]["content"][0]["marks"][0]["type"], "code");
  EXPECT_EQ(b[8]["attrs"]["type"], "warning");
  EXPECT_EQ(inlineText(b[8]["content"][0]), "Mind the gap.");
  EXPECT_EQ(b[11]["content"][1]["type"], "hardBreak");
  EXPECT_EQ(inlineText(b[11]), "Line one line two \u00A9 \u263A &bogus;");
  EXPECT_EQ(b[12]["attrs"]["language"], nullptr);
  // Fence names as the editor registers them.
  auto fences = markdownBlocks(
      "```tsx\nx\n```\n```console\n$ x\n```\n```yml\na: 1\n```\n```mermaid\ngraph TD\n```\n```toml\na=1\n```\n");
  std::vector<Json> languages;
  for (const auto& block : fences) languages.push_back(block["attrs"]["language"]);
  EXPECT_EQ(languages, (std::vector<Json>{"typescript", "bash", "yaml", "mermaid", nullptr}));
  EXPECT_EQ(markdownTitle(guide), "Quickstart");
  EXPECT_EQ(markdownTitle("Intro\n\n## The *real* title\n"), "The real title");
}

TEST(Markdown, AdmonitionsOfMkDocsAndDocusaurusAreCallouts) {
  auto doc = docOf(
      "!!! tip \"Fast path\"\n    Use `run()`.\n\n    Twice.\n\nAfter.\n\n"
      ":::danger[Careful]\nThis deletes data.\n```\n:::\n```\n:::\n\n"
      "```\n!!! note\n    in code\n```\n");
  EXPECT_EQ(schemaProblem(doc), "");
  const auto& b = doc["content"];
  ASSERT_EQ(types(b), "alert paragraph alert codeBlock");
  EXPECT_EQ(b[0]["attrs"]["type"], "success");
  EXPECT_EQ(inlineText(b[0]["content"][0]), "Fast path");
  EXPECT_EQ(inlineText(b[0]["content"][2]), "Twice.");
  EXPECT_EQ(b[2]["attrs"]["type"], "error");
  EXPECT_EQ(b[2]["content"][2]["content"][0]["text"], ":::");  // a fence inside keeps its :::
  EXPECT_EQ(b[3]["content"][0]["text"], "!!! note\n    in code");
}

TEST(Markdown, BadgesBannersAndHtmlGoImagesAmongProseStay) {
  MarkdownOptions options;
  options.image = [](const std::string& src) {
    return src.rfind("data:", 0) == 0 ? "" : src.rfind("http", 0) == 0 ? src : "https://raw.example/" + src;
  };
  options.link = [](const std::string& href) { return href.rfind("docs/", 0) == 0 ? "/page/" + href.substr(5) : href; };
  auto doc = docOf(
      "<p align=\"center\"><img src=\"logo.png\"></p>\n\n![left out](data:image/png;base64,AAAA)\n\n"
      "[![Build](https://github.com/o/r/actions/workflows/ci.yml/badge.svg)](https://github.com/o/r/actions) "
      "[![PyPI](https://img.shields.io/pypi/v/x.svg)](https://pypi.org/x)\n\n"
      "![banner](banner.png)\n\n"
      "See the diagram ![flow](docs/flow.png) and the [guide](docs/guide.md).\n",
      options);
  EXPECT_EQ(schemaProblem(doc), "");
  const auto& b = doc["content"];
  ASSERT_EQ(types(b), "paragraph image paragraph");
  EXPECT_EQ(b[1]["attrs"]["src"], "https://raw.example/docs/flow.png");
  EXPECT_EQ(b[1]["attrs"]["alt"], "flow");
  EXPECT_EQ(b[2]["content"][1]["marks"][0]["attrs"]["href"], "/page/guide.md");
}

TEST(Markdown, HostileInputStaysShallowAndFitsTheSchema) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += std::string(static_cast<std::size_t>(i % 40), ' ') + "- item\n";
  std::string quotes(20000, '>');
  quotes += " deep\n";
  std::string brackets(50000, '[');
  for (const auto& input :
       {deep, quotes, brackets, std::string("* \n*\n\n|a|\n|-|\n"), std::string("```\n"), std::string("\0\0x", 3),
        std::string("- ```\n  code\n- > quote\n  - [ ] t\n"), std::string("\xff\xfe not utf8 **bold**")}) {
    auto doc = docOf(input);
    EXPECT_EQ(schemaProblem(doc.value("content", Json::array()).empty()
                                ? Json{{"type", "doc"}, {"content", {{{"type", "paragraph"}}}}}
                                : doc),
              "")
        << input.substr(0, 40);
    std::size_t depth = depthOf(doc);
    EXPECT_LT(depth, 120u) << input.substr(0, 40);
  }
}

TEST(Markdown, TextThatIsNotUtf8IsReplacedStrictly) {
  // Overlong forms, surrogates and bytes past U+10FFFF are replaced like any broken byte:
  // JSON writers refuse them (found by docs_fuzz_markdown).
  const std::string replacement = "\xEF\xBF\xBD";
  EXPECT_EQ(validUtf8("a\xC0\x9B"
                      "b"),
            "a" + replacement + replacement + "b");
  EXPECT_EQ(validUtf8("\xED\xA0\x80"), replacement + replacement + replacement);
  EXPECT_EQ(validUtf8("\xF4\x90\x80\x80"), replacement + replacement + replacement + replacement);
  EXPECT_EQ(validUtf8("\xE0\x80\x80"), replacement + replacement + replacement);
  EXPECT_EQ(validUtf8("caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82\xAC"), "caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82\xAC");
  auto blocks = markdownBlocks("[)](y) <br> &#x1F600; \xD6\xC0\x9B e\n");
  EXPECT_NO_THROW((void)blocks.dump());
}

TEST(RestructuredText, ASphinxPageBecomesTheSameNodes) {
  std::string rst =
      "==========\nQuickstart\n==========\n\n"
      ".. _quickstart:\n\n"
      "Install it with ``pip``::\n\n    $ pip install click\n\n"
      "Basic concepts\n--------------\n\n"
      "Click uses :func:`~click.command` and :class:`click.Group`; see `the docs "
      "<https://click.palletsprojects.com/>`_\n"
      "and :doc:`options <options>`.\n\n"
      ".. code-block:: python\n   :linenos:\n\n   @click.command()\n   def hello():\n       pass\n\n"
      ".. note::\n   Use ``--help``.\n\n   Always.\n\n"
      ".. versionadded:: 8.0\n\n"
      "* one item\n  continued\n* two\n\n  - nested\n\n"
      "#. first\n#. second\n\n"
      ">>> hello()\n'hi'\n\n"
      ".. toctree::\n   :maxdepth: 2\n\n   options\n\n"
      "Nested\n~~~~~~\n\n"
      "term\n    Its definition.\n\n"
      "=====  =====\nA      B\n=====  =====\n";
  std::string markdown = restructuredTextToMarkdown(rst);
  MarkdownOptions options;
  options.link = [](const std::string& href) { return "/to/" + href; };
  Json doc = {{"type", "doc"}, {"content", markdownBlocks(markdown, options)}};
  EXPECT_EQ(schemaProblem(doc), "") << markdown;
  const auto& b = doc["content"];
  EXPECT_EQ(types(b),
            "heading paragraph codeBlock heading paragraph codeBlock alert alert bulletList orderedList codeBlock "
            "heading paragraph paragraph "
            "codeBlock")
      << markdown;
  EXPECT_EQ(inlineText(b[0]), "Quickstart");
  EXPECT_EQ(b[0]["attrs"]["level"], 1);
  EXPECT_EQ(inlineText(b[1]), "Install it with pip:");
  EXPECT_EQ(b[2]["content"][0]["text"], "$ pip install click");
  EXPECT_EQ(b[3]["attrs"]["level"], 2);
  EXPECT_EQ(inlineText(b[4]), "Click uses command and click.Group; see the docs and options.");
  EXPECT_EQ(b[4]["content"][1]["marks"][0]["type"], "code");
  EXPECT_EQ(b[5]["attrs"]["language"], "python");
  EXPECT_EQ(b[5]["content"][0]["text"], "@click.command()\ndef hello():\n    pass");
  EXPECT_EQ(b[6]["attrs"]["type"], "info");
  EXPECT_EQ(b[6]["content"].size(), 2u);
  EXPECT_EQ(inlineText(b[7]["content"][0]), "New in version 8.0.");
  EXPECT_EQ(inlineText(b[8]["content"][0]["content"][0]), "one item continued");
  EXPECT_EQ(b[8]["content"][1]["content"][1]["type"], "bulletList");
  EXPECT_EQ(b[9]["content"].size(), 2u);
  EXPECT_EQ(b[10]["attrs"]["language"], "python");
  EXPECT_EQ(b[11]["attrs"]["level"], 3);
  EXPECT_EQ(inlineText(b[12]), "term");
  EXPECT_EQ(b[12]["content"][0]["marks"][0]["type"], "bold");
  EXPECT_EQ(b[14]["attrs"]["language"], nullptr);  // preformatted, no registered language
  std::string links;
  for (const auto& node : b[4]["content"])
    for (const auto& mark : node.value("marks", Json::array()))
      if (mark["type"] == "link") links += mark["attrs"]["href"].get<std::string>() + " ";
  EXPECT_EQ(links, "/to/https://click.palletsprojects.com/ /to/options ");
  EXPECT_EQ(documentAsMarkdown("docs/x.md", "``a``"), "``a``");
  EXPECT_EQ(documentAsMarkdown("docs/x.RST", "``a``"), "`a`\n\n");
}

TEST(RestructuredText, HostileInputConvertsInLinearTime) {
  std::string nested;
  for (int i = 0; i < 3000; ++i) nested += std::string(static_cast<std::size_t>(i), ' ') + "- item\n";
  std::string roles(100000, ':');
  std::string ticks(100000, '`');
  std::string directives;
  for (int i = 0; i < 2000; ++i) directives += std::string(static_cast<std::size_t>(i * 3), ' ') + ".. note::\n";
  for (const auto& input :
       {nested, roles, ticks, directives, std::string("====\n"), std::string("::\n"), std::string("a\n=\n")}) {
    Json doc = {{"type", "doc"}, {"content", markdownBlocks(restructuredTextToMarkdown(input))}};
    EXPECT_LT(depthOf(doc), 120u);
    EXPECT_NO_THROW((void)doc.dump());
  }
}

TEST(DocComments, EachLanguagesMarkupBecomesMarksNotEscapedText) {
  auto js = docCommentInlines(
      "Renders a [`<link>`](https://developer.mozilla.org/x) for **each** {@link RouteObject}; see [the "
      "guide](../how-to/x).",
      "typescript");
  std::string text;
  for (const auto& node : js) text += node.value("text", "");
  EXPECT_EQ(text, "Renders a <link> for each RouteObject; see the guide.");
  EXPECT_EQ(js[1]["marks"].size(), 2u);  // code and the absolute link
  bool relativeLinked = false;
  for (const auto& node : js)
    for (const auto& mark : node.value("marks", Json::array()))
      relativeLinked = relativeLinked || (mark["type"] == "link" &&
                                          mark["attrs"]["href"].get<std::string>().find("how-to") != std::string::npos);
  EXPECT_FALSE(relativeLinked);
  auto go = docCommentInlines("New returns an [Engine] that serves [net/http.Handler] values [sic].", "go");
  EXPECT_EQ(go[1]["text"], "Engine");
  EXPECT_EQ(go[1]["marks"][0]["type"], "code");
  EXPECT_EQ(go[3]["text"], "net/http.Handler");
  // Python docstrings are not Markdown: __init__ stays as written.
  auto py = docCommentInlines("Calls __init__ with `x` * 2.", "python");
  EXPECT_EQ(py[0]["text"], "Calls __init__ with ");
  EXPECT_EQ(py[1]["text"], "x");
}

// MyST (Sphinx's Markdown) and the site containers read as their sites render them.
TEST(Markdown, MystDirectivesRolesAndTargets) {
  std::string md = mystToMarkdown(
      "(install)=\n# Install\n\nCall {py:func}`pkg.run`, {class}`~pkg.mod.Thing`, {ref}`the guide <guide>`, "
      "`{not} a role`.\n\n````{tab-set}\n```{tab-item} pip\n:sync: pip\n\n    pip install pkg\n```\n````\n\n"
      "::::{important}\n:class: big\nOuter.\n:::{tip}\nInner.\n:::\n::::\n\n```{eval-rst}\n.. note:: From rST.\n```\n\n"
      "```{code-block} python\n:caption: example.py\n:linenos:\nprint({x})\n```\n\n```{toctree}\nintro\n```\n\n"
      "```{autoclass} pkg.mod.Thing\n:members:\n```\n\n::: warning "
      "Careful\nVitePress.\n:::\n\n```\n(kept)=\n{func}`kept`\n```\n");
  EXPECT_EQ(md.find("(install)="), std::string::npos) << md;
  EXPECT_NE(md.find("Call `pkg.run`, `Thing`, the guide, `{not} a role`."), std::string::npos) << md;
  EXPECT_NE(md.find("**pip**"), std::string::npos) << md;
  EXPECT_NE(md.find("    pip install pkg"), std::string::npos) << md;
  EXPECT_EQ(md.find(":sync:"), std::string::npos) << md;
  EXPECT_NE(md.find("> [!IMPORTANT]\n> Outer.\n> > [!TIP]\n> > Inner."), std::string::npos) << md;
  EXPECT_NE(md.find("[!NOTE]"), std::string::npos) << md;
  EXPECT_NE(md.find("From rST."), std::string::npos) << md;
  EXPECT_NE(md.find("```python\nprint({x})\n```"), std::string::npos) << md;
  EXPECT_EQ(md.find("caption"), std::string::npos) << md;
  EXPECT_EQ(md.find("intro"), std::string::npos) << md;
  EXPECT_NE(md.find(apiMarker("pkg.mod.Thing")), std::string::npos) << md;
  EXPECT_EQ(apiMarkerName(apiMarker("pkg.mod.Thing")), "pkg.mod.Thing");
  EXPECT_NE(md.find(":::warning Careful\nVitePress.\n:::"), std::string::npos) << md;
  EXPECT_NE(md.find("```\n(kept)=\n{func}`kept`\n```"), std::string::npos) << md;  // code is code
  // A fence never closed ends with the document, and deep nesting stops at a bound.
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += std::string(static_cast<std::size_t>(3 + 200 - i), ':') + "{note}\n";
  EXPECT_NO_THROW(mystToMarkdown(deep + "```{code-block}\nnever closed\n"));
}

TEST(Markdown, AnAlertKeepsTheSpaceBeforeItsFirstCodeSpan) {
  auto blocks = markdownBlocks("> [!NOTE]\n> A note with `code` here.\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]["type"], "alert");
  EXPECT_EQ(blocks[0]["content"][0]["content"][0]["text"], "A note with ");
}
