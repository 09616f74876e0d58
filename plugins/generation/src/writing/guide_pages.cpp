#include "writing/guide_pages.hpp"

#include <algorithm>
#include <vector>

#include "writing/api_entries.hpp"
#include "writing/markdown_blocks.hpp"
#include "writing/page_nodes.hpp"
#include "writing/rst_markdown.hpp"

namespace docs_generation {

using docs::ydoc::Json;

namespace {

std::string folderOf(const std::string& path) {
  return path.rfind('/') == std::string::npos ? "" : path.substr(0, path.rfind('/'));
}

// "a/b" + "../c/./d.md" -> "a/c/d.md"; "" when it climbs out of the tree.
std::string joinPath(const std::string& folder, const std::string& relative) {
  std::vector<std::string> parts;
  std::string combined =
      relative.rfind('/', 0) == 0 ? relative.substr(1) : (folder.empty() ? relative : folder + "/" + relative);
  for (std::size_t at = 0; at <= combined.size();) {
    auto end = combined.find('/', at);
    std::string part = combined.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (part == "..") {
      if (parts.empty()) return "";
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

bool hasScheme(const std::string& href) {
  auto colon = href.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (!std::isalnum(static_cast<unsigned char>(href[i])) && href[i] != '+' && href[i] != '-' && href[i] != '.')
      return false;
  return true;
}

const Guide* findGuide(const Plan& plan, const std::string& path) {
  for (const auto& guide : plan.guides)
    if (guide.path == path) return &guide;
  return nullptr;
}

// An image beside the document, shown from the repository host at the commit when the
// host serves raw files (GitHub); elsewhere it is left out.
std::string imageAddress(const std::string& fromPath, const std::string& src, const WriterContext& ctx) {
  if (src.rfind("https://", 0) == 0 || src.rfind("http://", 0) == 0) return src;
  if (hasScheme(src) || src.rfind("//", 0) == 0) return "";  // data:, javascript:, protocol-relative
  std::string path = joinPath(folderOf(fromPath), src.substr(0, src.find_first_of("?#")));
  if (path.empty() || !ctx.sourceUrl) return "";
  std::string blob = ctx.sourceUrl(path, 1, 1);
  const std::string github = "https://github.com/";
  auto marker = blob.find("/blob/");
  if (blob.rfind(github, 0) != 0 || marker == std::string::npos) return "";
  std::string ownerRepo = blob.substr(github.size(), marker - github.size());
  std::string rest = blob.substr(marker + 6);
  return "https://raw.githubusercontent.com/" + ownerRepo + "/" + rest.substr(0, rest.find('#'));
}

MarkdownOptions optionsFor(const std::string& fromPath, const Analysis& analysis, const Plan& plan,
                           const WriterContext& ctx) {
  MarkdownOptions options;
  options.link = [&, fromPath](const std::string& href) {
    return resolveDocumentLink(fromPath, href, analysis, plan, ctx);
  };
  options.image = [&, fromPath](const std::string& src) { return imageAddress(fromPath, src, ctx); };
  return options;
}

Json readmeBlocks(const Analysis& analysis, const Plan& plan, const WriterContext& ctx) {
  if (plan.readme.empty()) return Json::array();
  const auto* file = analysis.find(plan.readme);
  if (!file || (file->language != "markdown" && file->language != "rst")) return Json::array();
  return markdownBlocks(
      withApiEntries(documentAsMarkdown(plan.readme, readDocumentText(ctx.sourceRoot, plan.readme)), analysis),
      optionsFor(plan.readme, analysis, plan, ctx));
}

// The guides directly under `parentKey`, each with its file, as a bullet list (null when none).
Json childGuides(const Plan& plan, const std::string& parentKey, const WriterContext& ctx) {
  std::vector<Json> items;
  for (const auto& guide : plan.guides)
    if (guide.parentKey == parentKey)
      items.push_back(Json::array({linkText(guide.title, ctx.pageHref ? ctx.pageHref(guide.key) : ""), textNode(" ("),
                                   codeText(guide.path), textNode(")")}));
  return items.empty() ? Json() : bulletList(items);
}

int levelOf(const Json& block) { return block.value("type", "") == "heading" ? block["attrs"].value("level", 1) : 0; }

}  // namespace

std::string resolveDocumentLink(const std::string& fromPath, const std::string& href, const Analysis& analysis,
                                const Plan& plan, const WriterContext& ctx) {
  if (href.empty()) return "";
  if (hasScheme(href)) {
    std::string scheme = href.substr(0, href.find(':'));
    for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return scheme == "http" || scheme == "https" || scheme == "mailto" ? href : "";
  }
  if (href.rfind("//", 0) == 0) return "";
  std::string target = href.substr(0, href.find_first_of("?#"));
  if (target.empty()) return "";  // an anchor in the same document: the page has its own
  std::string path = joinPath(folderOf(fromPath), target);
  if (path.empty()) return "";
  std::vector<std::string> candidates = {path,
                                         path + ".md",
                                         path + ".rst",
                                         path + "/README.md",
                                         path + "/index.md",
                                         path + "/index.rst",
                                         path + "/readme.md"};
  if (path.size() > 5 && path.substr(path.size() - 5) == ".html")
    candidates.push_back(path.substr(0, path.size() - 5) + ".md");
  if (!path.empty() && path.back() == '/') candidates.push_back(path + "index.md");
  for (const auto& candidate : candidates) {
    std::string href2;
    if (findGuide(plan, candidate)) href2 = ctx.pageHref ? ctx.pageHref("guide:" + candidate) : "";
    else if (candidate == plan.readme) href2 = ctx.pageHref ? ctx.pageHref("overview") : "";
    else if (std::find(plan.filePages.begin(), plan.filePages.end(), candidate) != plan.filePages.end())
      href2 = ctx.pageHref ? ctx.pageHref("file:" + candidate) : "";
    if (href2.empty()) {
      if (const auto* f = analysis.find(candidate); f && ctx.sourceUrl)
        href2 = ctx.sourceUrl(candidate, 1, std::max<int>(1, static_cast<int>(f->lines)));
    }
    if (!href2.empty()) return href2;
  }
  return "";
}

void writeGuidesIndex(PageDraft& page, const Plan& plan, const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks =
      Json::array({heading(1, phrase(lang, "guides")),
                   paragraphText(fill(phrase(lang, "guides_intro"), {{"count", std::to_string(plan.guides.size())}}))});
  if (Json list = childGuides(plan, "guides", ctx); !list.is_null()) blocks.push_back(std::move(list));
  page.content = doc(blocks);
}

void writeGuide(PageDraft& page, const Guide& guide, const Analysis& analysis, const Plan& plan,
                const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = markdownBlocks(
      withApiEntries(documentAsMarkdown(guide.path, readDocumentText(ctx.sourceRoot, guide.path)), analysis),
      optionsFor(guide.path, analysis, plan, ctx));
  // The guide's own title heading opens the page (a first "## Title" becomes the page's
  // title heading); one is added when it has none.
  bool titled = !blocks.empty() && levelOf(blocks[0]) == 1;
  if (!titled && !blocks.empty() && levelOf(blocks[0]) > 1 && inlineText(blocks[0]) == guide.title) {
    blocks[0]["attrs"]["level"] = 1;
    titled = true;
  }
  if (!titled) blocks.insert(blocks.begin(), heading(1, guide.title));
  // Where it comes from, and the code it talks about.
  const auto* file = analysis.find(guide.path);
  int lines = file ? std::max<int>(1, static_cast<int>(file->lines)) : 1;
  Json source = Json::array({textNode(phrase(lang, "guide_source") + " "),
                             linkText(guide.path, ctx.sourceUrl ? ctx.sourceUrl(guide.path, 1, lines) : "", true)});
  if (!guide.topics.empty()) {
    source.push_back(textNode(". " + phrase(lang, "guide_code") + " "));
    for (std::size_t i = 0; i < guide.topics.size() && i < 5; ++i) {
      const Topic* topic = nullptr;
      for (const auto& t : plan.topics) {
        if (t.key == guide.topics[i]) topic = &t;
        for (const auto& sub : t.subtopics)
          if (sub.key == guide.topics[i]) topic = &sub;
      }
      if (!topic) continue;
      if (i) source.push_back(textNode(", "));
      std::string title = topic->title.empty() ? phrase(lang, "top_level") : topic->title;
      source.push_back(linkText(title, ctx.pageHref ? ctx.pageHref(topic->key) : ""));
    }
    source.push_back(textNode("."));
  }
  if (Json list = childGuides(plan, guide.key, ctx); !list.is_null()) {
    blocks.push_back(heading(2, phrase(lang, "in_this_section")));
    blocks.push_back(std::move(list));
  }
  blocks.push_back({{"type", "horizontalRule"}});
  blocks.push_back(paragraph(source));
  page.content = doc(blocks);
}

void writeGettingStarted(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = Json::array({heading(1, phrase(lang, "getting_started"))});
  Json readme = readmeBlocks(analysis, plan, ctx);
  bool any = false;
  for (const auto& title : plan.gettingStarted) {
    // The section: its heading and everything up to the next heading of its level or above.
    for (std::size_t i = 0; i < readme.size(); ++i) {
      int level = levelOf(readme[i]);
      if (!level || inlineText(readme[i]) != title) continue;
      if (!any) blocks.push_back(paragraphText(fill(phrase(lang, "getting_started_intro"), {{"name", analysis.name}})));
      any = true;
      Json head = readme[i];
      head["attrs"]["level"] = 2;
      blocks.push_back(head);
      for (std::size_t j = i + 1; j < readme.size(); ++j) {
        int inner = levelOf(readme[j]);
        if (inner && inner <= level) break;
        Json block = readme[j];
        if (inner) block["attrs"]["level"] = 3;
        blocks.push_back(block);
      }
      break;
    }
  }
  // The guides a newcomer reads next.
  std::vector<Json> next;
  for (const auto& guide : plan.guides)
    if (isGettingStartedTitle(guide.title) && next.size() < 6)
      next.push_back(Json::array({linkText(guide.title, ctx.pageHref ? ctx.pageHref(guide.key) : "")}));
  if (!next.empty()) {
    blocks.push_back(heading(2, phrase(lang, "read_next")));
    blocks.push_back(bulletList(next));
  }
  page.content = doc(blocks);
}

Json readmeOpeningBlocks(const Analysis& analysis, const Plan& plan, const WriterContext& ctx) {
  Json out = Json::array();
  bool started = false;
  for (const auto& block : readmeBlocks(analysis, plan, ctx)) {
    std::string type = block.value("type", "");
    if (type == "heading") {
      if (started) break;
      continue;  // the title, or a first section heading before any prose
    }
    if (type != "paragraph" && type != "bulletList" && type != "orderedList" && type != "blockquote" &&
        type != "alert") {
      if (started) break;
      continue;
    }
    started = true;
    out.push_back(block);
    if (out.size() >= 3) {
      // "X in three points:" announces the list after it: the two stay together.
      std::string last = inlineText(out.back());
      while (!last.empty() && last.back() == ' ') last.pop_back();
      bool announces = type == "paragraph" && !last.empty() && last.back() == ':';
      if (!announces || out.size() >= 5) break;
    }
  }
  return out;
}

Json guidesOfTopic(const Topic& topic, const Plan& plan, const WriterContext& ctx, std::size_t max) {
  std::vector<std::string> keys = {topic.key};
  for (const auto& sub : topic.subtopics) keys.push_back(sub.key);
  std::vector<Json> items;
  for (const auto& guide : plan.guides) {
    bool names = false;
    for (const auto& key : keys)
      names = names || std::find(guide.topics.begin(), guide.topics.end(), key) != guide.topics.end();
    if (names && items.size() < max)
      items.push_back(Json::array({linkText(guide.title, ctx.pageHref ? ctx.pageHref(guide.key) : "")}));
  }
  return items.empty() ? Json() : bulletList(items);
}

}  // namespace docs_generation
