#include "writing/markdown_blocks.hpp"

#include "analysis/analysis.hpp"
#include "analysis/inventory.hpp"
#include "writing/page_nodes.hpp"

#include <md4c.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace docs_generation {

using docs::ydoc::Json;

namespace {

// Lists and quotes nested deeper are flattened into the deepest kept one: the output
// stays shallow whatever the input (nlohmann recurses over nesting when it frees a value).
constexpr int kMaxContainerDepth = 12;
constexpr const char* kImagePlaceholder = "__image";

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trimmed(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

void appendUtf8(std::string& out, std::uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// `&amp;`, `&#233;`, `&#x1F600;` and the named entities READMEs use; others stay as written.
std::string decodeEntity(std::string_view entity) {
  static const std::array<std::pair<std::string_view, std::string_view>, 22> named = {{
      {"&amp;", "&"},        {"&lt;", "<"},         {"&gt;", ">"},          {"&quot;", "\""},
      {"&apos;", "'"},       {"&nbsp;", "\u00A0"},  {"&copy;", "\u00A9"},   {"&reg;", "\u00AE"},
      {"&trade;", "\u2122"}, {"&mdash;", "\u2014"}, {"&ndash;", "\u2013"},  {"&hellip;", "\u2026"},
      {"&rarr;", "\u2192"},  {"&larr;", "\u2190"},  {"&times;", "\u00D7"},  {"&middot;", "\u00B7"},
      {"&ensp;", "\u2002"},  {"&emsp;", "\u2003"},  {"&thinsp;", "\u2009"}, {"&ge;", "\u2265"},
      {"&le;", "\u2264"},    {"&ne;", "\u2260"},
  }};
  for (const auto& [name, value] : named)
    if (entity == name) return std::string(value);
  if (entity.size() > 3 && entity[1] == '#') {
    bool hex = entity[2] == 'x' || entity[2] == 'X';
    std::uint32_t cp = 0;
    for (std::size_t i = hex ? 3 : 2; i + 1 < entity.size(); ++i) {
      char c = entity[i];
      int digit = c >= '0' && c <= '9'          ? c - '0'
                  : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                : -1;
      if (digit < 0 || cp > 0x10FFFF) return std::string(entity);
      cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
    }
    std::string out;
    appendUtf8(out, cp);
    return out;
  }
  return std::string(entity);
}

std::string attributeText(const MD_ATTRIBUTE& attribute) {
  std::string out;
  if (!attribute.text || !attribute.substr_offsets) return out;
  for (int i = 0; attribute.substr_offsets[i] < attribute.size; ++i) {
    std::string_view part(attribute.text + attribute.substr_offsets[i],
                          attribute.substr_offsets[i + 1] - attribute.substr_offsets[i]);
    if (attribute.substr_types[i] == MD_TEXT_ENTITY) out += decodeEntity(part);
    else if (attribute.substr_types[i] == MD_TEXT_NULLCHAR) out += "\uFFFD";
    else out += part;
  }
  return out;
}

// A fence's language as the editor registers it (spec section 9): `tsx` is typescript,
// `console` bash, `yml` yaml; mermaid and openapi keep their views; others are left to
// the editor's detection.
std::string fenceLanguage(const std::string& info) {
  static const std::array<std::pair<std::string_view, std::string_view>, 34> aliases = {{
      {"js", "javascript"},     {"jsx", "javascript"},  {"mjs", "javascript"},
      {"cjs", "javascript"},    {"node", "javascript"}, {"ts", "typescript"},
      {"tsx", "typescript"},    {"mts", "typescript"},  {"cts", "typescript"},
      {"py", "python"},         {"python3", "python"},  {"pycon", "python"},
      {"console", "bash"},      {"zsh", "bash"},        {"shell-session", "bash"},
      {"shellsession", "bash"}, {"terminal", "bash"},   {"yml", "yaml"},
      {"rb", "ruby"},           {"rs", "rust"},         {"golang", "go"},
      {"cpp", "c++"},           {"cxx", "c++"},         {"cc", "c++"},
      {"hpp", "c++"},           {"cs", "csharp"},       {"c#", "csharp"},
      {"kt", "kotlin"},         {"htm", "html"},        {"md", "markdown"},
      {"docker", "dockerfile"}, {"jsonc", "json"},      {"json5", "json"},
      {"ps1", "powershell"},
  }};
  std::string name = lower(trimmed(info));
  name = name.substr(0, name.find_first_of(" {,"));  // "js {1,3}", "python title=x"
  for (const auto& [alias, language] : aliases)
    if (name == alias) return std::string(language);
  if (name == "mermaid" || name == "openapi") return name;
  return codeBlockLanguage(name);
}

// Shields and CI status images: decoration, not documentation.
bool isBadge(const std::string& src) {
  std::string s = lower(src);
  for (std::string_view host :
       {"shields.io", "badge.fury.io", "badgen.net", "travis-ci.", "circleci.com", "codecov.io", "coveralls.io",
        "goreportcard.com", "pkg.go.dev/badge", "godoc.org/", "readthedocs.org/projects", "app.fossa", "snyk.io",
        "bestpractices.", "/badge", "badge.svg", "badges/", "opencollective.com"})
    if (s.find(host) != std::string::npos) return true;
  return false;
}

bool isBlank(const Json& inline_) {
  if (inline_.value("type", "") == "hardBreak") return true;
  if (inline_.value("type", "") != "text") return false;
  // Spacing between badges (&ensp;, &emsp;, &nbsp;) is blank too once the badges are gone.
  std::string text = inline_.value("text", "");
  for (std::string_view space : {"\u2002", "\u2003", "\u00a0", "\u2009"})
    for (auto at = text.find(space); at != std::string::npos; at = text.find(space))
      text.replace(at, space.size(), " ");
  return trimmed(text).empty();
}

Json emptyParagraph() { return {{"type", "paragraph"}}; }

// Block nodes whose content is other blocks (inline text opens a paragraph in them).
bool holdsBlocks(const std::string& type) {
  return type == "doc" || type == "listItem" || type == "taskItem" || type == "blockquote" || type == "alert" ||
         type == "tableCell" || type == "tableHeader";
}

class Builder {
 public:
  explicit Builder(const MarkdownOptions& options) : options_(options) {
    stack_.push_back({{"type", "doc"}, {"content", Json::array()}});
  }

  Json finish() {
    while (stack_.size() > 1) closeTop();
    return std::move(stack_[0]["content"]);
  }

  void enterBlock(MD_BLOCKTYPE type, void* detail) {
    if (type != MD_BLOCK_DOC) closeImplicitParagraph();
    bool pushed = true;
    switch (type) {
      case MD_BLOCK_DOC: pushed = false; break;
      case MD_BLOCK_QUOTE: pushed = openContainer({{"type", "blockquote"}, {"content", Json::array()}}); break;
      case MD_BLOCK_UL: pushed = openContainer({{"type", "bulletList"}, {"content", Json::array()}}); break;
      case MD_BLOCK_OL: {
        auto* ol = static_cast<MD_BLOCK_OL_DETAIL*>(detail);
        Json list = {{"type", "orderedList"},
                     {"attrs", {{"start", ol ? static_cast<int>(std::min<unsigned>(ol->start, 1000000)) : 1}}},
                     {"content", Json::array()}};
        pushed = openContainer(std::move(list));
        break;
      }
      case MD_BLOCK_LI: {
        auto* li = static_cast<MD_BLOCK_LI_DETAIL*>(detail);
        if (!parentIsList()) {
          pushed = false;  // its list was flattened away
          break;
        }
        Json item = {{"type", "listItem"}, {"content", Json::array()}};
        if (li && li->is_task)
          item = {{"type", "taskItem"},
                  {"attrs", {{"checked", li->task_mark == 'x' || li->task_mark == 'X'}}},
                  {"content", Json::array()}};
        stack_.push_back(std::move(item));
        implicit_.push_back(false);
        break;
      }
      case MD_BLOCK_HR:
        append({{"type", "horizontalRule"}});
        pushed = false;
        break;
      case MD_BLOCK_H: {
        auto* h = static_cast<MD_BLOCK_H_DETAIL*>(detail);
        int level = h ? static_cast<int>(std::clamp<unsigned>(h->level, 1, 3)) : 1;
        push({{"type", "heading"}, {"attrs", {{"level", level}}}, {"content", Json::array()}});
        break;
      }
      case MD_BLOCK_CODE: {
        auto* code = static_cast<MD_BLOCK_CODE_DETAIL*>(detail);
        std::string language = code ? fenceLanguage(attributeText(code->lang)) : "";
        Json node = {
            {"type", "codeBlock"},
            {"attrs", {{"language", language.empty() ? Json(nullptr) : Json(language)}, {"git_url", nullptr}}}};
        node["content"] = Json::array();
        push(std::move(node));
        break;
      }
      case MD_BLOCK_HTML:
        pushed = false;  // raw HTML is left out
        break;
      case MD_BLOCK_P: push({{"type", "paragraph"}, {"content", Json::array()}}); break;
      case MD_BLOCK_TABLE: pushed = openContainer({{"type", "table"}, {"content", Json::array()}}); break;
      case MD_BLOCK_THEAD:
      case MD_BLOCK_TBODY: pushed = false; break;
      case MD_BLOCK_TR:
        pushed = topType() == "table";
        if (pushed) push({{"type", "tableRow"}, {"content", Json::array()}});
        break;
      case MD_BLOCK_TH:
      case MD_BLOCK_TD:
        pushed = topType() == "tableRow";
        if (pushed) push({{"type", type == MD_BLOCK_TH ? "tableHeader" : "tableCell"}, {"content", Json::array()}});
        break;
      default: pushed = false;
    }
    pushed_.push_back(pushed);
  }

  void leaveBlock(MD_BLOCKTYPE) {
    bool pushed = pushed_.empty() ? false : pushed_.back();
    if (!pushed_.empty()) pushed_.pop_back();
    if (!pushed) return;
    closeImplicitParagraph();
    closeTop();
  }

  void enterSpan(MD_SPANTYPE type, void* detail) {
    if (imageDepth_ > 0) {
      if (type == MD_SPAN_IMG) ++imageDepth_;
      return;
    }
    switch (type) {
      case MD_SPAN_EM: marks_.push_back({{"type", "italic"}}); break;
      case MD_SPAN_STRONG: marks_.push_back({{"type", "bold"}}); break;
      case MD_SPAN_DEL: marks_.push_back({{"type", "strike"}}); break;
      case MD_SPAN_U: marks_.push_back({{"type", "underline"}}); break;
      case MD_SPAN_CODE:
      case MD_SPAN_LATEXMATH:
      case MD_SPAN_LATEXMATH_DISPLAY: marks_.push_back({{"type", "code"}}); break;
      case MD_SPAN_A: {
        auto* a = static_cast<MD_SPAN_A_DETAIL*>(detail);
        std::string href = a ? attributeText(a->href) : "";
        if (options_.link) href = options_.link(href);
        marks_.push_back(href.empty() ? Json(nullptr) : Json{{"type", "link"}, {"attrs", {{"href", href}}}});
        break;
      }
      case MD_SPAN_IMG: {
        auto* img = static_cast<MD_SPAN_IMG_DETAIL*>(detail);
        imageDepth_ = 1;
        imageSrc_ = img ? attributeText(img->src) : "";
        imageTitle_ = img ? attributeText(img->title) : "";
        imageAlt_.clear();
        break;
      }
      default: marks_.push_back(nullptr);  // wiki links and the like: their text, unmarked
    }
  }

  void leaveSpan(MD_SPANTYPE type) {
    if (imageDepth_ > 0) {
      if (type == MD_SPAN_IMG && --imageDepth_ == 0) addImage();
      return;
    }
    if (!marks_.empty()) marks_.pop_back();
  }

  void text(MD_TEXTTYPE type, std::string_view text) {
    if (imageDepth_ > 0) {
      if (type != MD_TEXT_HTML) imageAlt_ += type == MD_TEXT_ENTITY ? decodeEntity(text) : std::string(text);
      return;
    }
    switch (type) {
      case MD_TEXT_HTML:
        // Inline tags are left out; a <br> still breaks the line.
        if (lower(std::string(text)).rfind("<br", 0) == 0) appendInline({{"type", "hardBreak"}});
        return;
      case MD_TEXT_BR:
        if (topType() == "codeBlock") appendText("\n");
        else appendInline({{"type", "hardBreak"}});
        return;
      case MD_TEXT_SOFTBR: appendText(topType() == "codeBlock" ? "\n" : " "); return;
      case MD_TEXT_NULLCHAR: appendText("\uFFFD"); return;
      case MD_TEXT_ENTITY: appendText(decodeEntity(text)); return;
      default: appendText(std::string(text));
    }
  }

 private:
  std::string topType() const { return stack_.back().value("type", ""); }

  bool parentIsList() const {
    auto type = topType();
    return type == "bulletList" || type == "orderedList";
  }

  int containerDepth() const {
    int depth = 0;
    for (const auto& node : stack_) {
      auto type = node.value("type", "");
      if (type == "bulletList" || type == "orderedList" || type == "blockquote" || type == "table") ++depth;
    }
    return depth;
  }

  bool openContainer(Json node) {
    if (containerDepth() >= kMaxContainerDepth) return false;
    // A list or table directly in a list: ProseMirror needs it inside an item.
    if (parentIsList() || topType() == "table" || topType() == "tableRow") return false;
    push(std::move(node));
    return true;
  }

  void push(Json node) {
    stack_.push_back(std::move(node));
    implicit_.push_back(false);
  }

  void append(Json node) {
    if (holdsBlocks(topType())) stack_.back()["content"].push_back(std::move(node));
  }

  void openImplicitParagraph() {
    push({{"type", "paragraph"}, {"content", Json::array()}});
    implicit_.back() = true;
  }

  void closeImplicitParagraph() {
    if (stack_.size() > 1 && implicit_.back()) closeTop();
  }

  // Where inline content goes: the open text block, or a paragraph opened for it.
  Json* inlineTarget() {
    auto type = topType();
    if (type == "paragraph" || type == "heading" || type == "codeBlock") return &stack_.back();
    if (holdsBlocks(type)) {
      openImplicitParagraph();
      return &stack_.back();
    }
    return nullptr;  // text between list items or table rows: md4c sends none
  }

  Json currentMarks() const {
    Json marks = Json::array();
    bool code = false;
    for (const auto& mark : marks_) {
      if (mark.is_null()) continue;
      if (mark["type"] == "code") {
        if (code) continue;
        code = true;
      }
      bool dup = false;
      for (const auto& m : marks)
        if (m["type"] == mark["type"]) dup = true;
      if (!dup) marks.push_back(mark);
    }
    return marks;
  }

  void appendText(const std::string& value) {
    if (value.empty()) return;
    Json* target = inlineTarget();
    if (!target) return;
    auto& content = (*target)["content"];
    if (target->value("type", "") == "codeBlock") {
      if (!content.empty()) content.back()["text"] = content.back()["text"].get<std::string>() + value;
      else content.push_back({{"type", "text"}, {"text", value}});
      return;
    }
    Json marks = currentMarks();
    if (!content.empty() && content.back().value("type", "") == "text" &&
        content.back().value("marks", Json::array()) == marks) {
      content.back()["text"] = content.back()["text"].get<std::string>() + value;
      return;
    }
    Json node = {{"type", "text"}, {"text", value}};
    if (!marks.empty()) node["marks"] = std::move(marks);
    content.push_back(std::move(node));
  }

  void appendInline(Json node) {
    Json* target = inlineTarget();
    if (!target || target->value("type", "") == "codeBlock") return;
    (*target)["content"].push_back(std::move(node));
  }

  void addImage() {
    std::string src = imageSrc_;
    if (isBadge(src)) return;
    if (options_.image) src = options_.image(src);
    if (src.empty()) return;
    Json placeholder = {{"type", kImagePlaceholder},
                        {"attrs", {{"src", src}, {"alt", trimmed(imageAlt_)}, {"title", imageTitle_}}}};
    appendInline(std::move(placeholder));
  }

  // A paragraph's images become image blocks beside it (images are blocks here); a
  // paragraph of nothing but images (a row of badges, a banner) goes.
  std::vector<Json> splitImages(Json paragraph) {
    auto& content = paragraph["content"];
    bool hasImage = false, onlyImages = true;
    for (const auto& node : content) {
      if (node.value("type", "") == kImagePlaceholder) hasImage = true;
      else if (!isBlank(node)) onlyImages = false;
    }
    // What is left of a row of badges or of an image left out (spaces, nothing) goes too.
    if (!hasImage && onlyImages) return {};
    if (!hasImage) return {std::move(paragraph)};
    std::vector<Json> out;
    Json current = Json::array();
    auto flush = [&]() {
      while (!current.empty() && isBlank(current.back())) current.erase(current.end() - 1);
      while (!current.empty() && isBlank(current.front())) current.erase(current.begin());
      if (!current.empty()) out.push_back({{"type", "paragraph"}, {"content", std::move(current)}});
      current = Json::array();
    };
    for (auto& node : content) {
      if (node.value("type", "") != kImagePlaceholder) {
        current.push_back(std::move(node));
        continue;
      }
      flush();
      Json attrs = {
          {"src", node["attrs"]["src"]},
          {"alt", node["attrs"]["alt"].get<std::string>().empty() ? Json(nullptr) : node["attrs"]["alt"]},
          {"title", node["attrs"]["title"].get<std::string>().empty() ? Json(nullptr) : node["attrs"]["title"]},
          {"width", nullptr},
          {"height", nullptr}};
      // A lone banner at a README's top is decoration too; images among prose are kept.
      if (!onlyImages) out.push_back({{"type", "image"}, {"attrs", std::move(attrs)}});
    }
    flush();
    return out;
  }

  // Closes the top block: fixes it to fit the schema, then adds it to its parent.
  void closeTop() {
    Json node = std::move(stack_.back());
    stack_.pop_back();
    implicit_.pop_back();
    std::string type = node.value("type", "");
    auto& content = node["content"];
    std::vector<Json> blocks;
    if (type == "paragraph") {
      blocks = splitImages(std::move(node));
    } else if (type == "heading") {
      Json kept = Json::array();
      for (auto& child : content)
        if (child.value("type", "") != kImagePlaceholder) kept.push_back(std::move(child));
      node["content"] = std::move(kept);
      blocks.push_back(std::move(node));
    } else if (type == "codeBlock") {
      if (!content.empty()) {
        std::string code = content[0]["text"].get<std::string>();
        if (!code.empty() && code.back() == '\n') code.pop_back();
        if (code.empty()) content.clear();
        else content[0]["text"] = code;
      }
      blocks.push_back(std::move(node));
    } else if (type == "listItem" || type == "taskItem") {
      if (content.empty() || content[0].value("type", "") != "paragraph")
        content.insert(content.begin(), emptyParagraph());
      blocks.push_back(std::move(node));
    } else if (type == "bulletList" || type == "orderedList") {
      bool tasks = false;
      for (const auto& item : content) tasks = tasks || item.value("type", "") == "taskItem";
      if (tasks) {
        node = {{"type", "taskList"}, {"content", std::move(content)}};
        for (auto& item : node["content"])
          if (item.value("type", "") == "listItem")
            item = {{"type", "taskItem"}, {"attrs", {{"checked", false}}}, {"content", std::move(item["content"])}};
      }
      if (!node["content"].empty()) blocks.push_back(std::move(node));
    } else if (type == "blockquote") {
      blocks.push_back(asAlert(std::move(node)));
    } else if (type == "tableCell" || type == "tableHeader") {
      if (content.empty()) content.push_back(emptyParagraph());
      blocks.push_back(std::move(node));
    } else if (type == "table") {
      if (!content.empty()) blocks.push_back(std::move(node));
    } else {
      blocks.push_back(std::move(node));
    }
    for (auto& block : blocks) {
      if (block.contains("content") && block["content"].empty() && block.value("type", "") != "paragraph" &&
          block.value("type", "") != "heading" && block.value("type", "") != "codeBlock")
        continue;
      if (block.contains("content") && block["content"].empty()) block.erase("content");
      stack_.back()["content"].push_back(std::move(block));
    }
  }

  // `> [!NOTE]` (GitHub's alerts) becomes a callout of the matching kind.
  static Json asAlert(Json quote) {
    auto& content = quote["content"];
    if (content.empty()) content.push_back(emptyParagraph());
    auto& first = content[0];
    if (first.value("type", "") != "paragraph" || !first.contains("content") || first["content"].empty() ||
        first["content"][0].value("type", "") != "text")
      return quote;
    std::string text = first["content"][0]["text"];
    static const std::array<std::pair<std::string_view, std::string_view>, 5> kinds = {{{"[!NOTE]", "info"},
                                                                                        {"[!TIP]", "success"},
                                                                                        {"[!IMPORTANT]", "info"},
                                                                                        {"[!WARNING]", "warning"},
                                                                                        {"[!CAUTION]", "error"}}};
    for (const auto& [marker, kind] : kinds) {
      if (text.rfind(marker, 0) != 0) continue;
      // Only the marker's own line goes: the space before what follows (`with `code``) stays.
      std::string rest = text.substr(marker.size());
      rest.erase(0, rest.find_first_not_of(" \t\r\n"));
      if (rest.find_first_not_of(" \t\r\n") == std::string::npos) rest.clear();
      auto& inlines = first["content"];
      if (rest.empty()) inlines.erase(inlines.begin());
      else inlines[0]["text"] = rest;
      while (!inlines.empty() && isBlank(inlines[0])) inlines.erase(inlines.begin());
      if (inlines.empty()) content.erase(content.begin());
      if (content.empty()) content.push_back(emptyParagraph());
      return {{"type", "alert"}, {"attrs", {{"type", std::string(kind)}}}, {"content", std::move(content)}};
    }
    return quote;
  }

  const MarkdownOptions& options_;
  std::vector<Json> stack_;
  std::vector<bool> implicit_{false};
  std::vector<bool> pushed_;
  std::vector<Json> marks_;
  int imageDepth_ = 0;
  std::string imageSrc_, imageTitle_, imageAlt_;
};

int onEnterBlock(MD_BLOCKTYPE type, void* detail, void* user) {
  static_cast<Builder*>(user)->enterBlock(type, detail);
  return 0;
}
int onLeaveBlock(MD_BLOCKTYPE type, void*, void* user) {
  static_cast<Builder*>(user)->leaveBlock(type);
  return 0;
}
int onEnterSpan(MD_SPANTYPE type, void* detail, void* user) {
  static_cast<Builder*>(user)->enterSpan(type, detail);
  return 0;
}
int onLeaveSpan(MD_SPANTYPE type, void*, void* user) {
  static_cast<Builder*>(user)->leaveSpan(type);
  return 0;
}
int onText(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
  static_cast<Builder*>(user)->text(type, std::string_view(text, size));
  return 0;
}

// YAML front matter (`---` ... `---` at the very top): its end, or 0 when there is none.
std::size_t frontMatterEnd(std::string_view text) {
  if (text.rfind("---\n", 0) != 0 && text.rfind("---\r\n", 0) != 0) return 0;
  for (std::size_t at = text.find('\n') + 1; at < text.size();) {
    auto end = text.find('\n', at);
    std::string line = trimmed(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (line == "---" || line == "...") return end == std::string_view::npos ? text.size() : end + 1;
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return 0;
}

std::string_view cut(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  auto end = text.rfind('\n', maxBytes);
  return text.substr(0, end == std::string_view::npos ? maxBytes : end);
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at <= text.size();) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) {
      if (at < text.size()) out.push_back(text.substr(at));
      break;
    }
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string alertKind(std::string word) {
  word = lower(word);
  for (std::string_view w : {"tip", "hint", "success", "check", "done", "example"})
    if (word == w) return "TIP";
  if (word == "important") return "IMPORTANT";
  for (std::string_view w : {"warning", "caution", "attention"})
    if (word == w) return "WARNING";
  for (std::string_view w : {"danger", "error", "failure", "fail", "missing", "bug"})
    if (word == w) return "CAUTION";
  return "NOTE";
}

bool isFence(std::string_view line) {
  auto t = trimmed(line);
  return t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0;
}

}  // namespace

std::string normaliseAdmonitions(std::string_view markdown) {
  auto lines = splitLines(markdown);
  std::string out;
  out.reserve(markdown.size() + 64);
  bool inFence = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (isFence(line)) inFence = !inFence;
    bool mkdocs = !inFence && (line.rfind("!!! ", 0) == 0 || line.rfind("??? ", 0) == 0 || line.rfind("???+ ", 0) == 0);
    bool docusaurus =
        !inFence && line.rfind(":::", 0) == 0 && line.size() > 3 && std::isalpha(static_cast<unsigned char>(line[3]));
    if (!mkdocs && !docusaurus) {
      out.append(line);
      out += '\n';
      continue;
    }
    // The kind word, then an optional title ("Title" for MkDocs, the rest or [Title] for Docusaurus).
    std::string rest = trimmed(line.substr(mkdocs ? line.find(' ') + 1 : 3));
    auto space = rest.find_first_of(" [");
    std::string kind = rest.substr(0, space);
    std::string title = space == std::string::npos ? "" : trimmed(rest.substr(space));
    if (!title.empty() && (title.front() == '"' || title.front() == '[')) title = title.substr(1);
    if (!title.empty() && (title.back() == '"' || title.back() == ']')) title.pop_back();
    if (kind.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") != std::string::npos) {
      out.append(line);
      out += '\n';
      continue;
    }
    out += "> [!" + alertKind(kind) + "]\n";
    if (!title.empty()) out += "> **" + title + "**\n>\n";
    std::size_t j = i + 1;
    bool bodyFence = false;
    if (mkdocs) {
      // The body: lines indented by four spaces or a tab, blank lines between them.
      for (; j < lines.size(); ++j) {
        std::string_view body = lines[j];
        if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
        if (trimmed(body).empty()) {
          std::size_t next = j + 1;
          while (next < lines.size() && trimmed(lines[next]).empty()) ++next;
          if (next >= lines.size() || !(lines[next].rfind("    ", 0) == 0 || lines[next].rfind('\t', 0) == 0)) break;
          out += ">\n";
          continue;
        }
        if (body.rfind("    ", 0) == 0) body.remove_prefix(4);
        else if (body.rfind('\t', 0) == 0) body.remove_prefix(1);
        else break;
        out += "> ";
        out.append(body);
        out += '\n';
      }
    } else {
      int depth = 1;
      for (; j < lines.size(); ++j) {
        std::string_view body = lines[j];
        if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
        if (isFence(body)) bodyFence = !bodyFence;
        if (!bodyFence && body.rfind(":::", 0) == 0) {
          if (trimmed(body) == ":::") {
            if (--depth == 0) {
              ++j;
              break;
            }
          } else {
            ++depth;
          }
        }
        out += "> ";
        out.append(body);
        out += '\n';
      }
    }
    out += '\n';
    i = j - 1;
  }
  return out;
}

Json markdownBlocks(std::string_view markdown, const MarkdownOptions& options) {
  markdown = cut(markdown, options.maxBytes);
  markdown.remove_prefix(frontMatterEnd(markdown));
  std::string text = normaliseAdmonitions(validUtf8(std::string(markdown)));
  Builder builder(options);
  MD_PARSER parser{};
  parser.abi_version = 0;
  parser.flags = MD_DIALECT_GITHUB;
  parser.enter_block = onEnterBlock;
  parser.leave_block = onLeaveBlock;
  parser.enter_span = onEnterSpan;
  parser.leave_span = onLeaveSpan;
  parser.text = onText;
  md_parse(text.data(), static_cast<MD_SIZE>(text.size()), &parser, &builder);
  return builder.finish();
}

namespace {

bool identifierLike(std::string_view text) {
  if (text.empty() || text.size() > 80) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '*' && c != '$') return false;
  return true;
}

// {@link Name}, {@link Name text}, {@linkcode Name}, {@link Name | text} -> `Name` or text.
std::string withoutJsDocLinks(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto open = text.find("{@link", at);
    if (open == std::string::npos) break;
    auto close = text.find('}', open);
    if (close == std::string::npos) break;
    out.append(text, at, open - at);
    std::string inner = text.substr(open + 2, close - open - 2);
    inner = inner.substr(inner.find_first_of(" \t") == std::string::npos ? inner.size() : inner.find_first_of(" \t"));
    inner = trimmed(inner);
    auto bar = inner.find('|');
    std::string target = trimmed(bar == std::string::npos ? inner.substr(0, inner.find(' ')) : inner.substr(0, bar));
    std::string label = bar != std::string::npos               ? trimmed(inner.substr(bar + 1))
                        : inner.find(' ') != std::string::npos ? trimmed(inner.substr(inner.find(' ') + 1))
                                                               : "";
    if (!label.empty()) out += label;
    else if (!target.empty()) out += "`" + target + "`";
    at = close + 1;
  }
  out.append(text, at, std::string::npos);
  return out;
}

// Go doc links: [Context] and [net/http.Handler] read as code.
std::string goDocLinks(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto open = text.find('[', at);
    if (open == std::string::npos) break;
    auto close = text.find(']', open);
    if (close == std::string::npos) break;
    std::string inner = text.substr(open + 1, close - open - 1);
    bool link = identifierLike(inner.substr(inner.rfind('/') == std::string::npos ? 0 : inner.rfind('/') + 1)) &&
                (close + 1 >= text.size() || text[close + 1] != '(');
    out.append(text, at, open - at);
    out += link ? "`" + inner + "`" : text.substr(open, close - open + 1);
    at = close + 1;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace

Json docCommentInlines(const std::string& text, const std::string& language) {
  if (language == "go") return inlineWithCode(goDocLinks(text));
  if (language != "javascript" && language != "typescript" && language != "rust" && language != "markdown")
    return inlineWithCode(text);
  MarkdownOptions options;
  options.link = [](const std::string& href) {
    return href.rfind("https://", 0) == 0 || href.rfind("http://", 0) == 0 ? href : std::string();
  };
  options.image = [](const std::string&) { return std::string(); };
  Json out = Json::array();
  for (auto& block : markdownBlocks(withoutJsDocLinks(text), options)) {
    // Prose of any block (a list, a quote) joins into one line; code blocks stay out.
    std::vector<Json*> pending = {&block};
    while (!pending.empty()) {
      Json* node = pending.back();
      pending.pop_back();
      std::string type = node->value("type", "");
      if (type == "codeBlock") continue;
      if (type == "paragraph" || type == "heading") {
        if (!node->contains("content")) continue;
        if (!out.empty()) out.push_back({{"type", "text"}, {"text", " "}});
        for (auto& child : (*node)["content"])
          if (child.value("type", "") == "text") out.push_back(std::move(child));
        continue;
      }
      if (node->contains("content"))
        for (auto it = (*node)["content"].rbegin(); it != (*node)["content"].rend(); ++it) pending.push_back(&*it);
    }
  }
  return out;
}

std::string inlineText(const Json& node) {
  std::string out;
  if (!node.contains("content")) return out;
  for (const auto& child : node["content"]) {
    if (child.value("type", "") == "text") out += child.value("text", "");
    else if (child.value("type", "") == "hardBreak") out += ' ';
  }
  return out;
}

std::string markdownTitle(std::string_view markdown) {
  markdown = cut(markdown, 1 << 20);
  if (auto end = frontMatterEnd(markdown)) {
    for (auto line : splitLines(markdown.substr(0, end))) {
      std::string t = trimmed(line);
      if (t.rfind("title:", 0) != 0) continue;
      std::string title = trimmed(t.substr(6));
      if (title.size() >= 2 && (title.front() == '"' || title.front() == '\'') && title.back() == title.front())
        title = title.substr(1, title.size() - 2);
      if (!title.empty()) return title;
    }
  }
  for (const auto& block : markdownBlocks(markdown, {}))
    if (block.value("type", "") == "heading") return trimmed(inlineText(block));
  return "";
}

}  // namespace docs_generation
