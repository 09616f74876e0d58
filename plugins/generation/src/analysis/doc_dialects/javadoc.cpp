#include "analysis/doc_dialects/javadoc.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

namespace {

using doc_text::Field;
using doc_text::Sections;

constexpr std::size_t kMaxCommentBytes = 200000;  // a longer comment is read to here
constexpr int kMaxInlineDepth = 3;                // {@link A {@link B ...}}: deeper labels stay text
constexpr std::size_t kMaxListDepth = 8;
constexpr std::size_t kMaxOpenMarks = 16;
constexpr std::size_t kMaxTagBytes = 1024;  // an HTML tag longer than this is text
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool isUrl(std::string_view target) {
  return target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:");
}

std::size_t longestRun(std::string_view s, char c) {
  std::size_t longest = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// The comment's lines without `/**`, `*/` and each line's leading `*`s (javadoc strips
// them so), their common indentation removed.
std::string commentText(std::string_view comment) {
  if (comment.size() > kMaxCommentBytes) comment = comment.substr(0, kMaxCommentBytes);
  if (comment.starts_with("/**")) comment.remove_prefix(3);
  else if (comment.starts_with("/*")) comment.remove_prefix(2);
  if (comment.ends_with("*/")) comment.remove_suffix(2);
  std::string out = "\n";  // so the first line's indentation counts like the others'
  std::size_t at = 0;
  while (at <= comment.size()) {
    auto end = comment.find('\n', at);
    if (end == std::string_view::npos) end = comment.size();
    std::string_view line = comment.substr(at, end - at);
    auto first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] == '*') {
      line.remove_prefix(first);
      while (!line.empty() && line.front() == '*') line.remove_prefix(1);
    }
    out.append(line);
    out += '\n';
    at = end + 1;
  }
  return doc_text::cleanIndentation(out);
}

// For each '{' the position of its matching '}' (kNone when unmatched), in one pass.
std::vector<std::uint32_t> matchBraces(std::string_view text) {
  std::vector<std::uint32_t> closing(text.size(), static_cast<std::uint32_t>(kNone));
  std::vector<std::uint32_t> open;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') open.push_back(static_cast<std::uint32_t>(i));
    if (text[i] == '}' && !open.empty()) {
      closing[open.back()] = static_cast<std::uint32_t>(i);
      open.pop_back();
    }
  }
  return closing;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
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

// An HTML entity at `text`'s start (&lt; &#64; &#x40;): its length (0: none), and what it stands for.
std::size_t entityAt(std::string_view text, std::string& decoded) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 26> kNamed = {{
      {"lt", "<"},         {"gt", ">"},          {"amp", "&"},         {"quot", "\""},      {"apos", "'"},
      {"nbsp", " "},       {"commat", "@"},      {"lbrace", "{"},      {"rbrace", "}"},     {"mdash", "\u2014"},
      {"ndash", "\u2013"}, {"hellip", "\u2026"}, {"copy", "\u00a9"},   {"reg", "\u00ae"},   {"trade", "\u2122"},
      {"laquo", "\u00ab"}, {"raquo", "\u00bb"},  {"middot", "\u00b7"}, {"times", "\u00d7"}, {"rarr", "\u2192"},
      {"larr", "\u2190"},  {"le", "\u2264"},     {"ge", "\u2265"},     {"ne", "\u2260"},    {"sect", "\u00a7"},
      {"deg", "\u00b0"},
  }};
  auto semi = text.substr(0, 12).find(';');
  if (text.size() < 3 || text[0] != '&' || semi == std::string_view::npos || semi < 2) return 0;
  std::string_view name = text.substr(1, semi - 1);
  decoded.clear();
  if (name[0] == '#') {
    bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
    std::string_view digits = name.substr(hex ? 2 : 1);
    std::uint32_t cp = 0;
    for (char c : digits) {
      int value = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : hex && std::isxdigit(static_cast<unsigned char>(c))
                      ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                      : -1;
      if (value < 0) return 0;
      cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(value);
      if (cp > 0x10FFFF) return 0;
    }
    if (digits.empty() || cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    appendUtf8(decoded, cp);
    return semi + 1;
  }
  for (const auto& [entity, value] : kNamed) {
    if (entity != name) continue;
    decoded = value;
    return semi + 1;
  }
  return 0;
}

// HTML elements javadoc comments use; any other `<word>` (List<String>) is text.
bool knownElement(std::string_view name) {
  static const std::set<std::string, std::less<>> kElements = {
      "a",      "abbr", "address", "article",    "aside",    "b",       "big",    "blockquote", "br",    "caption",
      "center", "cite", "code",    "col",        "colgroup", "dd",      "del",    "details",    "dfn",   "div",
      "dl",     "dt",   "em",      "figcaption", "figure",   "font",    "footer", "h1",         "h2",    "h3",
      "h4",     "h5",   "h6",      "header",     "hr",       "i",       "img",    "ins",        "kbd",   "li",
      "main",   "mark", "nav",     "ol",         "p",        "pre",     "q",      "s",          "samp",  "section",
      "small",  "span", "strike",  "strong",     "sub",      "summary", "sup",    "table",      "tbody", "td",
      "tfoot",  "th",   "thead",   "tr",         "tt",       "u",       "ul",     "var",        "wbr"};
  return kElements.count(name) > 0;
}

struct HtmlTag {
  std::string name;  // lower case
  bool closing = false;
  std::string_view attributes;
  std::size_t length = 0;  // 0: no tag here
};

// An HTML tag at `text`'s start. A scan stops at the next '<', so failed scans never
// overlap and reading stays linear.
HtmlTag tagAt(std::string_view text) {
  HtmlTag tag;
  std::size_t i = 1;
  if (i < text.size() && text[i] == '/') {
    tag.closing = true;
    ++i;
  }
  std::size_t nameStart = i;
  while (i < text.size() && i - nameStart < 12 && isAlnum(text[i])) ++i;
  if (i == nameStart || !isAlpha(text[nameStart])) return {};
  if (i < text.size() && !isSpace(text[i]) && text[i] != '>' && text[i] != '/') return {};
  std::string name = lower(text.substr(nameStart, i - nameStart));
  if (!knownElement(name)) return {};
  std::size_t attributesStart = i;
  char quote = 0;
  for (; i < text.size() && i < kMaxTagBytes; ++i) {
    char c = text[i];
    if (c == '<') return {};
    if (quote) {
      if (c == quote) quote = 0;
    } else if ((c == '"' || c == '\'') && i > 0 && (text[i - 1] == '=' || isSpace(text[i - 1]))) {
      quote = c;
    } else if (c == '>') {
      tag.name = std::move(name);
      tag.attributes = text.substr(attributesStart, i - attributesStart);
      tag.length = i + 1;
      return tag;
    }
  }
  return {};
}

// An attribute's value (href="x", href='x', href=x), or "".
std::string attribute(std::string_view attributes, std::string_view name) {
  std::string lowered = lower(attributes);
  std::size_t at = 0;
  while ((at = lowered.find(name, at)) != std::string::npos) {
    std::size_t after = at + name.size();
    bool starts = at == 0 || isSpace(lowered[at - 1]);
    while (after < lowered.size() && isSpace(lowered[after])) ++after;
    if (!starts || after >= lowered.size() || lowered[after] != '=') {
      at += name.size();
      continue;
    }
    ++after;
    while (after < attributes.size() && isSpace(attributes[after])) ++after;
    if (after >= attributes.size()) return {};
    char quote = attributes[after];
    if (quote == '"' || quote == '\'') {
      auto end = attributes.find(quote, after + 1);
      if (end == std::string_view::npos) return {};
      return std::string(attributes.substr(after + 1, end - after - 1));
    }
    std::size_t end = after;
    while (end < attributes.size() && !isSpace(attributes[end]) && attributes[end] != '/') ++end;
    return std::string(attributes.substr(after, end - after));
  }
  return {};
}

// java.util.Map.Entry -> Map.Entry: a reference reads without its package (the segments
// before the first capitalised one) and its module (java.base/).
std::string simpleName(std::string_view name) {
  name = trim(name);
  auto slash = name.find('/');
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  std::size_t at = 0;
  while (at < name.size()) {
    if (isUpper(name[at])) return std::string(name.substr(at));
    auto dot = name.find('.', at);
    if (dot == std::string_view::npos) break;
    at = dot + 1;
  }
  return std::string(name);
}

// {@link Class#member(Type)} as javadoc names it: Class.member(Type); #member(Type) as member(Type).
std::string readableReference(std::string_view reference) {
  reference = trim(reference);
  auto hash = reference.find('#');
  std::string owner = simpleName(reference.substr(0, hash));
  if (hash == std::string_view::npos) return owner;
  std::string_view member = reference.substr(hash + 1);
  auto open = member.find('(');
  std::string out(member.substr(0, open));
  if (open != std::string_view::npos) {
    auto close = member.rfind(')');
    if (close == std::string_view::npos || close < open) close = member.size();
    std::string_view parameters = member.substr(open + 1, close - open - 1);
    out += '(';
    std::size_t at = 0;
    while (!trim(parameters).empty() && at <= parameters.size()) {
      auto comma = parameters.find(',', at);
      if (comma == std::string_view::npos) comma = parameters.size();
      if (at > 0) out += ", ";
      out += simpleName(parameters.substr(at, comma - at));
      at = comma + 1;
    }
    out += ')';
  }
  return owner.empty() ? out : owner + "." + out;
}

// Markdown written from javadoc's HTML: prose with its whitespace collapsed, code spans and
// <pre> blocks gathered whole, lists indented, tables row by row.
class MarkdownWriter {
 public:
  // A character of the source, where it stands: in a <pre> block, a code span, or prose.
  void character(char c) {
    if (preOpen_) {
      pre_ += c;
    } else if (codeDepth_ > 0) {
      appendCode(std::string_view(&c, 1));
    } else if (isSpace(c)) {
      pendingSpace_ = true;
    } else {
      put(c == '|' && tableDepth_ > 0 ? std::string_view("\\|") : std::string_view(&c, 1));
    }
  }

  // Text shown as is ({@literal}, a reference's name): Markdown's marks in it are escaped.
  void literal(std::string_view text) {
    if (preOpen_ || codeDepth_ > 0) {
      for (char c : text) character(c);
      return;
    }
    for (char c : text) {
      if (c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '<' || c == '\\') put(std::string("\\") + c);
      else character(c);
    }
  }

  // A '<' that opens no tag.
  void lessThan() {
    if (preOpen_ || codeDepth_ > 0) character('<');
    else put("\\<");
  }

  void entity(std::string_view written, const std::string& decoded) {
    if (preOpen_ || codeDepth_ > 0) {
      for (char c : decoded) character(c);
    } else if (decoded == " ") {
      pendingSpace_ = true;
    } else if (written == "&lt;" || written == "&gt;" || written == "&amp;") {
      put(written);  // Markdown reads these entities too, and a bare '<' could open HTML
    } else if (decoded.size() == 1 && std::string_view("*_`[]\\<>#|").find(decoded[0]) != std::string_view::npos) {
      put("\\" + decoded);
    } else {
      put(decoded);
    }
  }

  void codeSpan(std::string_view code) {
    if (preOpen_) pre_.append(code);
    else if (codeDepth_ > 0) appendCode(code);
    else emitCodeSpan(code);
  }

  void openCode() {
    if (preOpen_) return;
    if (codeDepth_++ == 0) code_.clear();
  }

  void closeCode() {
    if (preOpen_ || codeDepth_ == 0) return;
    if (--codeDepth_ == 0) emitCodeSpan(code_);
  }

  void openPre() {
    flushCode();
    if (preOpen_) return;
    if (tableDepth_ > 0) {  // a table row is one line: its code stays a span
      openCode();
      return;
    }
    preOpen_ = true;
    pre_.clear();
  }

  void closePre() {
    if (!preOpen_) {
      if (tableDepth_ > 0) closeCode();
      return;
    }
    preOpen_ = false;
    codeBlock(pre_, "java");
  }

  bool inPre() const { return preOpen_; }

  // A fenced block: its lines dedented, inside the current list item.
  void codeBlock(std::string_view code, std::string_view language) {
    flushCode();
    if (tableDepth_ > 0 || preOpen_) {
      codeSpan(code);
      return;
    }
    std::string content = doc_text::cleanIndentation("\n" + std::string(code));
    if (content.empty()) return;
    std::string fence(std::max<std::size_t>(3, longestRun(content, '`') + 1), '`');
    endLine(true);
    out_ += indent_ + fence + std::string(language) + "\n";
    std::size_t at = 0;
    while (at <= content.size()) {
      auto end = content.find('\n', at);
      if (end == std::string::npos) end = content.size();
      if (end > at) out_ += indent_ + content.substr(at, end - at);
      out_ += '\n';
      at = end + 1;
    }
    out_ += indent_ + fence;
    endLine(true);
  }

  void paragraph() { lineBreak(true); }

  // A break in prose (<p>, <br>); a table row stays one line, and right after "- " or "## "
  // the text still comes on that line.
  void lineBreak(bool blank) {
    flushCode();
    if (preOpen_) {
      pre_ += '\n';
      return;
    }
    if (tableDepth_ > 0) {
      pendingSpace_ = true;
      return;
    }
    if (out_.size() == markerEnd_) return;
    endLine(blank);
  }

  void openMark(const char* mark) {
    if (preOpen_ || codeDepth_ > 0 || marks_.size() >= kMaxOpenMarks) return;
    put(mark);
    marks_.emplace_back(mark, out_.size());
    lastOpenEnd_ = out_.size();
  }

  void closeMark(std::string_view mark) {
    if (preOpen_ || codeDepth_ > 0) return;
    for (std::size_t i = marks_.size(); i-- > 0;) {
      if (marks_[i].first != mark) continue;
      // Marks opened inside it close first, as HTML would.
      while (marks_.size() > i) closeLastMark();
      return;
    }
  }

  void openLink(const std::string& url) {
    if (preOpen_ || codeDepth_ > 0 || !isUrl(url) || linkOpen_) {
      ++ignoredLinks_;
      return;
    }
    put("[");
    linkStart_ = lastOpenEnd_ = out_.size();
    linkUrl_ = url;
    linkOpen_ = true;
  }

  void closeLink() {
    if (ignoredLinks_ > 0) {
      --ignoredLinks_;
      return;
    }
    if (!linkOpen_) return;
    flushCode();
    closeMarks();
    linkOpen_ = false;
    if (out_.size() == linkStart_) {  // no text: the address is the text
      out_.resize(linkStart_ - 1);
      put(linkUrl_);
      return;
    }
    bool plain = linkUrl_.find_first_of(" ()<>") == std::string::npos;
    out_ += plain ? "](" + linkUrl_ + ")" : "](<" + linkUrl_ + ">)";
  }

  void openList(bool ordered) {
    flushCode();
    if (preOpen_) return;
    if (tableDepth_ > 0 || lists_.size() >= kMaxListDepth) {
      ++ignoredLists_;
      pendingSpace_ = true;
      return;
    }
    endLine(lists_.empty());
    lists_.push_back({ordered, 1, 0});
  }

  void closeList() {
    flushCode();
    if (preOpen_) return;
    if (ignoredLists_ > 0) {
      --ignoredLists_;
      return;
    }
    if (lists_.empty()) return;
    lists_.pop_back();
    indent_ = indentOf(lists_.size());
    endLine(lists_.empty());
  }

  void item() {
    flushCode();
    if (preOpen_) return;
    if (tableDepth_ > 0) {
      pendingSpace_ = true;
      return;
    }
    if (lists_.empty()) openList(false);
    endLine(false);
    List& list = lists_.back();
    std::string marker = list.ordered ? std::to_string(list.next++) + ". " : "- ";
    list.width = marker.size();
    indent_ = indentOf(lists_.size() - 1);
    put(marker);
    markerEnd_ = lastOpenEnd_ = out_.size();
    indent_ = indentOf(lists_.size());
  }

  void heading(int level) {
    flushCode();
    if (preOpen_ || tableDepth_ > 0) return;
    endLine(true);
    put(std::string(static_cast<std::size_t>(level), '#') + " ");
    markerEnd_ = lastOpenEnd_ = out_.size();
  }

  void openTable() {
    flushCode();
    if (preOpen_ || tableDepth_++ > 0) return;
    endLine(true);
    rows_ = 0;
  }

  void row() {
    if (tableDepth_ != 1) return;
    endRow();
    endLine(rows_ == 0);  // a table needs a blank line before it
    put("|");
    inRow_ = true;
    cells_ = 0;
  }

  void cell() {
    if (tableDepth_ != 1) return;
    if (!inRow_) row();
    endCell();
    out_ += ' ';
    lastOpenEnd_ = out_.size();
    pendingSpace_ = false;
    cellOpen_ = true;
    ++cells_;
  }

  void endCell() {
    if (!cellOpen_) return;
    flushCode();
    closeMarks();
    pendingSpace_ = false;
    out_ += " |";
    cellOpen_ = false;
  }

  void endRow() {
    if (!inRow_) return;
    endCell();
    inRow_ = false;
    if (cells_ == 0) {  // <tr></tr>: no row
      out_.pop_back();
      return;
    }
    if (rows_++ > 0) return;
    out_ += "\n" + indent_ + "|";  // GFM takes the first row for the header
    for (int i = 0; i < cells_; ++i) out_ += " --- |";
  }

  void closeTable() {
    if (tableDepth_ == 0) return;
    if (--tableDepth_ > 0) return;
    endRow();
    endLine(true);
  }

  std::string finish() {
    flushCode();
    closePre();
    while (tableDepth_ > 0) closeTable();
    closeMarks();
    if (linkOpen_) closeLink();
    std::string_view text = out_;
    while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
    while (!text.empty() && text.front() == '\n') text.remove_prefix(1);
    return std::string(text);
  }

 private:
  struct List {
    bool ordered;
    int next;
    std::size_t width;  // of its current item's marker
  };

  // Visible prose: the list's indentation at a line's start, a collapsed space before.
  void put(std::string_view text) {
    bool lineStart = out_.empty() || out_.back() == '\n';
    if (lineStart) out_ += indent_;
    else if (pendingSpace_ && out_.size() != lastOpenEnd_) out_ += ' ';
    pendingSpace_ = false;
    out_.append(text);
  }

  void appendCode(std::string_view text) {
    for (char c : text) {
      if (isSpace(c)) {
        if (!code_.empty() && code_.back() != ' ') code_ += ' ';
      } else {
        code_ += c;
      }
    }
  }

  // An unclosed <code> ends where a block starts, so it cannot swallow the rest.
  void flushCode() {
    if (codeDepth_ == 0) return;
    codeDepth_ = 0;
    emitCodeSpan(code_);
  }

  void emitCodeSpan(std::string_view code) {
    std::string text;
    for (char c : code) {
      if (isSpace(c)) {
        if (!text.empty() && text.back() != ' ') text += ' ';
      } else if (c == '|' && tableDepth_ > 0) {
        text += "\\|";
      } else {
        text += c;
      }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    if (text.empty()) return;
    std::string ticks(longestRun(text, '`') + 1, '`');
    bool pad = text.front() == '`' || text.back() == '`';
    put(ticks + (pad ? " " : "") + text + (pad ? " " : "") + ticks);
  }

  void closeLastMark() {
    auto [mark, end] = marks_.back();
    marks_.pop_back();
    if (out_.size() == end) out_.resize(end - mark.size());  // <b></b>: nothing to mark
    else out_ += mark;
  }

  void closeMarks() {
    while (!marks_.empty()) closeLastMark();
  }

  void endLine(bool blank) {
    closeMarks();
    if (linkOpen_) closeLink();
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    pendingSpace_ = false;
    if (out_.empty()) return;
    if (out_.back() != '\n') out_ += '\n';
    if (blank && !out_.ends_with("\n\n")) out_ += '\n';
  }

  std::string indentOf(std::size_t lists) const {
    std::size_t width = 0;
    for (std::size_t i = 0; i < lists && i < lists_.size(); ++i) width += lists_[i].width;
    return std::string(width, ' ');
  }

  std::string out_;
  bool pendingSpace_ = false;
  std::size_t lastOpenEnd_ = kNone;  // no space right after an opening mark
  std::size_t markerEnd_ = kNone;
  std::string indent_;
  std::vector<List> lists_;
  int ignoredLists_ = 0;
  bool preOpen_ = false;
  std::string pre_;
  int codeDepth_ = 0;
  std::string code_;
  std::vector<std::pair<std::string, std::size_t>> marks_;
  bool linkOpen_ = false;
  std::size_t linkStart_ = 0;
  std::string linkUrl_;
  int ignoredLinks_ = 0;
  int tableDepth_ = 0;
  bool inRow_ = false;
  bool cellOpen_ = false;
  int cells_ = 0;
  int rows_ = 0;
};

// Javadoc's HTML with inline tags, a range at a time (the main description, each block tag's text).
class JavadocRenderer {
 public:
  explicit JavadocRenderer(const std::string& text) : text_(text), closing_(matchBraces(text)) {}

  std::string render(std::size_t from, std::size_t to) {
    MarkdownWriter writer;
    renderInto(writer, from, std::min(to, text_.size()), 0);
    return writer.finish();
  }

  // Where the inline tag opened at `at` closes, or kNone.
  std::size_t closingOf(std::size_t at) const {
    return at < closing_.size() && closing_[at] != static_cast<std::uint32_t>(kNone) ? closing_[at] : kNone;
  }

 private:
  std::string_view range(std::size_t from, std::size_t to) const {
    return std::string_view(text_).substr(from, to > from ? to - from : 0);
  }

  void renderInto(MarkdownWriter& w, std::size_t from, std::size_t to, int depth) {
    for (std::size_t i = from; i < to;) {
      char c = text_[i];
      if (c == '{' && i + 1 < to && text_[i + 1] == '@' && closingOf(i) < to) {
        i = inlineTag(w, i, depth);
      } else if (c == '<') {
        i = markup(w, i, to);
      } else if (c == '&') {
        std::string decoded;
        std::size_t length = entityAt(range(i, to), decoded);
        if (length == 0) {
          w.character(c);
          ++i;
        } else {
          w.entity(range(i, i + length), decoded);
          i += length;
        }
      } else {
        w.character(c);
        ++i;
      }
    }
  }

  // An HTML comment or tag at `at`, or a '<' of text; the position after it.
  std::size_t markup(MarkdownWriter& w, std::size_t at, std::size_t to) {
    if (range(at, to).starts_with("<!--")) {
      // The last search is remembered, so many unclosed comments cost one.
      if (!commentEndSearched_ || (commentEnd_ != kNone && commentEnd_ < at)) {
        auto end = text_.find("-->", at + 4);
        commentEnd_ = end == std::string::npos ? kNone : end;
        commentEndSearched_ = true;
      }
      if (commentEnd_ != kNone && commentEnd_ + 3 <= to) return commentEnd_ + 3;
    }
    HtmlTag tag = tagAt(range(at, to));
    if (tag.length == 0) {
      w.lessThan();
      return at + 1;
    }
    element(w, tag);
    return at + tag.length;
  }

  void element(MarkdownWriter& w, const HtmlTag& tag) {
    const std::string& n = tag.name;
    bool close = tag.closing;
    if (w.inPre() && n != "pre" && n != "br") return;  // formatting inside a code block is not shown
    if (n == "pre") {
      close ? w.closePre() : w.openPre();
    } else if (n == "code" || n == "tt" || n == "kbd" || n == "samp") {
      close ? w.closeCode() : w.openCode();
    } else if (n == "b" || n == "strong") {
      close ? w.closeMark("**") : w.openMark("**");
    } else if (n == "i" || n == "em" || n == "cite" || n == "dfn" || n == "var") {
      close ? w.closeMark("*") : w.openMark("*");
    } else if (n == "a") {
      close ? w.closeLink() : w.openLink(attribute(tag.attributes, "href"));
    } else if (n == "ul" || n == "ol") {
      close ? w.closeList() : w.openList(n == "ol");
    } else if (n == "li") {
      if (!close) w.item();
    } else if (n.size() == 2 && n[0] == 'h' && n[1] >= '1' && n[1] <= '6') {
      close ? w.paragraph() : w.heading(n[1] - '0');
    } else if (n == "table") {
      close ? w.closeTable() : w.openTable();
    } else if (n == "tr") {
      close ? w.endRow() : w.row();
    } else if (n == "td" || n == "th") {
      close ? w.endCell() : w.cell();
    } else if (n == "br") {
      w.lineBreak(false);
    } else if (n == "dt") {
      // A definition's term in bold, its description a paragraph below.
      if (close) {
        w.closeMark("**");
      } else {
        w.paragraph();
        w.openMark("**");
      }
    } else if (n == "dd") {
      w.closeMark("**");
      w.paragraph();
    } else if (n == "p" || n == "div" || n == "dl" || n == "hr" || n == "blockquote" || n == "center" ||
               n == "section" || n == "article" || n == "header" || n == "footer" || n == "nav" || n == "main" ||
               n == "aside" || n == "figure" || n == "address" || n == "details" || n == "caption") {
      w.paragraph();
    }
    // Any other element (span, sup, font, ...) is dropped; its text stays.
  }

  // {@name content}; the position after its '}'.
  std::size_t inlineTag(MarkdownWriter& w, std::size_t at, int depth) {
    std::size_t close = closingOf(at);
    std::size_t nameEnd = at + 2;
    while (nameEnd < close && (isAlnum(text_[nameEnd]) || text_[nameEnd] == '.' || text_[nameEnd] == '-')) ++nameEnd;
    std::string name(range(at + 2, nameEnd));
    if (name.empty()) {
      w.character('{');
      return at + 1;
    }
    // Code starts after the blanks that follow the name and one line break (the lines below
    // keep their indentation); other content after all whitespace.
    std::size_t codeFrom = nameEnd;
    while (codeFrom < close && (text_[codeFrom] == ' ' || text_[codeFrom] == '\t')) ++codeFrom;
    if (codeFrom < close && text_[codeFrom] == '\n') ++codeFrom;
    std::size_t from = nameEnd;
    while (from < close && isSpace(text_[from])) ++from;
    std::string_view content = range(from, close);
    if (name == "code") {
      w.codeSpan(range(codeFrom, close));
    } else if (name == "literal") {
      w.literal(range(codeFrom, close));
    } else if (name == "link" || name == "linkplain") {
      link(w, from, close, name == "link", depth);
    } else if (name == "value") {
      if (!trim(content).empty()) w.codeSpan(readableReference(content));
    } else if (name == "inheritDoc" || name == "docRoot") {
      // Nothing to show: the inherited doc is the overridden method's.
    } else if (name == "return") {
      w.literal("Returns ");
      text(w, from, close, depth);
    } else if (name == "systemProperty") {
      w.codeSpan(trim(content));
    } else if (name == "snippet") {
      snippet(w, content);
    } else {
      text(w, from, close, depth);  // {@summary}, {@index}, tags of other doclets: their text
    }
    return close + 1;
  }

  // A range shown as HTML, or as plain text once labels nest too deep.
  void text(MarkdownWriter& w, std::size_t from, std::size_t to, int depth) {
    if (depth < kMaxInlineDepth) renderInto(w, from, to, depth + 1);
    else w.literal(range(from, to));
  }

  // {@link Reference label}: the label, else the reference's readable name (in code for
  // {@link}, plain for {@linkplain}).
  void link(MarkdownWriter& w, std::size_t from, std::size_t to, bool code, int depth) {
    std::size_t end = from;
    int parentheses = 0;
    for (; end < to; ++end) {
      char c = text_[end];
      if (c == '(') ++parentheses;
      if (c == ')') --parentheses;
      if (isSpace(c) && parentheses <= 0) break;
    }
    std::size_t label = end;
    while (label < to && isSpace(text_[label])) ++label;
    if (label < to) {
      text(w, label, to, depth);
      return;
    }
    std::string name = readableReference(range(from, end));
    if (code) w.codeSpan(name);
    else w.literal(name);
  }

  // {@snippet lang=java : code}: the code after the ':' as a block (an external snippet
  // file is not read).
  void snippet(MarkdownWriter& w, std::string_view content) {
    auto colon = content.find(':');
    if (colon == std::string_view::npos) return;
    std::string language = attribute(content.substr(0, colon), "lang");
    w.codeBlock(content.substr(colon + 1), language.empty() ? "java" : language);
  }

  const std::string& text_;
  std::vector<std::uint32_t> closing_;
  std::size_t commentEnd_ = kNone;
  bool commentEndSearched_ = false;
};

struct BlockTag {
  std::string name;
  std::size_t from = 0;  // its text, after the name
  std::size_t to = 0;
};

// The block tags (@param ...): each starts a line, outside <pre> blocks and inline tags.
// Returns where the main description ends.
std::size_t splitBlockTags(const std::string& text, const JavadocRenderer& renderer, std::vector<BlockTag>& tags) {
  std::size_t bodyEnd = text.size();
  bool inPre = false;
  std::size_t inlineEnd = 0;  // the end of the outermost inline tag around here
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 0 || text[i - 1] == '\n') {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i + 1 < text.size() && text[i] == '@' && isAlpha(text[i + 1]) && !inPre && i >= inlineEnd) {
        std::size_t nameEnd = i + 1;
        while (nameEnd < text.size() && (isAlnum(text[nameEnd]) || text[nameEnd] == '.' || text[nameEnd] == '-'))
          ++nameEnd;
        if (tags.empty()) bodyEnd = i;
        else tags.back().to = i;
        tags.push_back({text.substr(i + 1, nameEnd - i - 1), nameEnd, text.size()});
        i = nameEnd;
      }
      if (i >= text.size()) break;
    }
    char c = text[i];
    if (i < inlineEnd) continue;
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '@' && renderer.closingOf(i) != kNone) {
      inlineEnd = renderer.closingOf(i) + 1;
    } else if (c == '<' && i + 4 < text.size()) {
      std::string head = lower(std::string_view(text).substr(i, 6));
      if (head.starts_with("<pre") && (head.size() < 5 || head[4] == '>' || isSpace(head[4]))) inPre = true;
      if (head.starts_with("</pre")) inPre = false;
    }
  }
  return bodyEnd;
}

std::size_t skipSpace(const std::string& text, std::size_t at, std::size_t to) {
  while (at < to && isSpace(text[at])) ++at;
  return at;
}

// The first word of a tag's text (a parameter's name, `<T>`, an exception's type), and
// where its description starts.
std::string firstWord(const std::string& text, std::size_t from, std::size_t to, std::size_t& rest) {
  std::size_t start = skipSpace(text, from, to);
  std::size_t end = start;
  if (end < to && text[end] == '<') {
    while (end < to && text[end] != '>' && !isSpace(text[end])) ++end;
    if (end < to && text[end] == '>') ++end;
  } else {
    while (end < to && !isSpace(text[end])) ++end;
  }
  rest = skipSpace(text, end, to);
  return text.substr(start, end - start);
}

// @see "A book", @see <a href="...">text</a>, @see Class#member label.
std::string seeAlso(const std::string& text, std::size_t from, std::size_t to, JavadocRenderer& renderer) {
  std::size_t start = skipSpace(text, from, to);
  if (start >= to) return {};
  if (text[start] == '"' || text[start] == '<') return renderer.render(start, to);
  std::size_t rest = 0;
  std::string reference = firstWord(text, start, to, rest);
  // A reference's parameters may hold spaces: Class#method(int, int) label.
  auto open = reference.find('(');
  if (open != std::string::npos && reference.find(')') == std::string::npos) {
    auto close = text.find(')', start);
    if (close != std::string::npos && close < to) {
      reference = text.substr(start, close + 1 - start);
      rest = skipSpace(text, close + 1, to);
    }
  }
  if (rest < to) return renderer.render(rest, to);
  return "`" + readableReference(reference) + "`";
}

void addJavadocTag(Sections& s, const std::string& text, const BlockTag& tag, JavadocRenderer& renderer,
                   std::vector<std::string>& seeAlsos) {
  const std::string& name = tag.name;
  std::size_t rest = 0;
  if (name == "param") {
    std::string parameter = firstWord(text, tag.from, tag.to, rest);
    if (!parameter.empty()) s.parameters.push_back({parameter, "", renderer.render(rest, tag.to), ""});
  } else if (name == "return" || name == "returns") {
    s.returns.push_back({"", "", renderer.render(tag.from, tag.to), ""});
  } else if (name == "throws" || name == "exception") {
    std::string type = firstWord(text, tag.from, tag.to, rest);
    if (!type.empty()) s.raises.push_back({"", type, renderer.render(rest, tag.to), ""});
  } else if (name == "see") {
    std::string see = seeAlso(text, tag.from, tag.to, renderer);
    if (!see.empty()) seeAlsos.push_back(std::move(see));
  } else {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kNotes = {{
        {"since", "Since"},
        {"deprecated", "Deprecated"},
        {"apiNote", "API Note"},
        {"implNote", "Implementation Note"},
        {"implSpec", "Implementation Requirements"},
        {"serialData", "Serial Data"},
    }};
    for (const auto& [tagName, title] : kNotes)
      if (name == tagName) s.notes.emplace_back(std::string(title), renderer.render(tag.from, tag.to));
    // @author, @version, @hidden, @serial and other doclets' tags are not shown.
  }
}

RenderedDoc assemble(Sections s, const std::vector<std::string>& seeAlsos) {
  if (!seeAlsos.empty()) {
    std::string joined;
    for (const auto& see : seeAlsos) joined += (joined.empty() ? "" : ", ") + see;
    s.notes.emplace_back("See also", joined);
  }
  RenderedDoc out;
  out.summary = doc_text::firstSentence(s.body);
  out.markdown = doc_text::toMarkdown(s);
  while (!out.markdown.empty() && isSpace(out.markdown.back())) out.markdown.pop_back();
  return out;
}

// ---- KDoc ----

using RefSet = std::set<std::string, std::less<>>;

// A line of KDoc prose: [Name] and [text][Name] links to declarations read as their text;
// links to addresses stay. Each search is remembered, so a line is read in linear time.
std::string kdocLinks(std::string_view line, const RefSet& urlRefs) {
  constexpr std::size_t kUnsearched = std::string_view::npos - 1;
  std::string out;
  std::size_t nextBracket = kUnsearched, nextParen = kUnsearched;  // the next ']' / ')' found; npos: none left
  std::array<bool, 9> noClosingTicks{};
  auto next = [&](std::size_t& cache, char c, std::size_t from) {
    if (cache == kUnsearched || (cache != std::string_view::npos && cache < from)) cache = line.find(c, from);
    return cache;
  };
  for (std::size_t i = 0; i < line.size();) {
    char c = line[i];
    if (c == '`') {  // a code span is copied as is
      std::size_t ticks = 0;
      while (i + ticks < line.size() && line[i + ticks] == '`') ++ticks;
      if (ticks < noClosingTicks.size() && !noClosingTicks[ticks]) {
        auto close = line.find(std::string(ticks, '`'), i + ticks);
        if (close != std::string_view::npos) {
          out.append(line.substr(i, close + ticks - i));
          i = close + ticks;
          continue;
        }
        noClosingTicks[ticks] = true;
      }
      out.append(line.substr(i, ticks));
      i += ticks;
      continue;
    }
    if (c != '[' || (i > 0 && (line[i - 1] == '\\' || line[i - 1] == '!'))) {
      out += c;
      ++i;
      continue;
    }
    std::size_t close = next(nextBracket, ']', i + 1);
    if (close == std::string_view::npos) {
      out.append(line.substr(i));
      break;
    }
    std::string_view text = line.substr(i + 1, close - i - 1);
    if (text.empty() || text.find('[') != std::string_view::npos) {  // [] or nested: the outer bracket is text
      out += c;
      ++i;
      continue;
    }
    std::size_t after = close + 1;
    if (after < line.size() && line[after] == '(') {
      std::size_t end = next(nextParen, ')', after);
      if (end != std::string_view::npos) {
        std::string_view target = trim(line.substr(after + 1, end - after - 1));
        if (isUrl(target) || target.starts_with('#') || target.find('/') != std::string_view::npos)
          out.append(line.substr(i, end + 1 - i));
        else out.append(text);
        i = end + 1;
        continue;
      }
    }
    if (after < line.size() && line[after] == '[') {
      std::size_t end = next(nextBracket, ']', after + 1);
      if (end != std::string_view::npos) {
        std::string_view ref = line.substr(after + 1, end - after - 1);
        if (urlRefs.count(ref.empty() ? text : ref)) out.append(line.substr(i, end + 1 - i));
        else out.append(text);
        i = end + 1;
        continue;
      }
    }
    if (urlRefs.count(text)) out.append(line.substr(i, after - i));
    else out.append(text);
    i = after;
  }
  return out;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool isFence(std::string_view line) {
  line = trim(line);
  return line.starts_with("```") || line.starts_with("~~~");
}

// KDoc's Markdown: links read, code blocks without a language are Kotlin (Dokka's default).
std::string kdocBody(const std::vector<std::string_view>& lines, const RefSet& urlRefs) {
  std::string out;
  bool inFence = false;
  std::string fence;
  for (std::string_view line : lines) {
    std::string_view t = trim(line);
    if (!inFence && isFence(line)) {
      std::size_t marks = 0;
      while (marks < t.size() && t[marks] == t[0]) ++marks;
      fence = std::string(t.substr(0, marks));
      std::string_view info = trim(t.substr(marks));
      out += std::string(line.substr(0, line.find_first_not_of(" \t"))) + fence +
             (info.empty() ? "kotlin" : std::string(info)) + "\n";
      inFence = true;
      continue;
    }
    if (inFence) {
      if (t.starts_with(fence) && trim(t.substr(fence.size())).empty()) inFence = false;
      out += std::string(line) + "\n";
      continue;
    }
    auto colon = t.find("]:");
    if (t.starts_with('[') && colon != std::string_view::npos) {  // a reference definition
      if (isUrl(trim(t.substr(colon + 2)))) out += std::string(line) + "\n";
      continue;
    }
    out += kdocLinks(line, urlRefs) + "\n";
  }
  if (inFence) out += fence + "\n";
  while (!out.empty() && isSpace(out.back())) out.pop_back();
  return out;
}

// A KDoc block tag's text: its first line's rest and the lines below, dedented, links read.
std::string kdocTagText(std::string_view first, const std::vector<std::string_view>& more, const RefSet& urlRefs) {
  std::string joined(first);
  for (std::string_view line : more) {
    joined += '\n';
    joined.append(line);
  }
  std::string dedented = doc_text::cleanIndentation(joined);
  return kdocBody(splitLines(dedented), urlRefs);
}

void addKdocTag(Sections& s, const std::string& name, std::string_view first, const std::vector<std::string_view>& more,
                const RefSet& urlRefs, std::vector<std::string>& seeAlsos) {
  // "@param name text" or "@param[name] text": the subject, then the text.
  std::string subject;
  std::string_view rest = trim(first);
  bool takesSubject = name == "param" || name == "property" || name == "throws" || name == "exception" ||
                      name == "see" || name == "sample";
  if (takesSubject) {
    std::size_t end = 0;
    if (rest.starts_with('[')) {
      auto close = rest.find(']');
      if (close == std::string_view::npos) close = rest.size();
      subject = std::string(trim(rest.substr(1, close - 1)));
      end = std::min(rest.size(), close + 1);
    } else {
      while (end < rest.size() && !isSpace(rest[end])) ++end;
      subject = std::string(rest.substr(0, end));
    }
    rest = trim(rest.substr(end));
  }
  std::string text = kdocTagText(rest, more, urlRefs);
  if (name == "param" && !subject.empty()) {
    s.parameters.push_back({subject, "", text, ""});
  } else if (name == "return") {
    s.returns.push_back({"", "", text, ""});
  } else if ((name == "throws" || name == "exception") && !subject.empty()) {
    s.raises.push_back({"", subject, text, ""});
  } else if (name == "property" && !subject.empty()) {
    s.notes.emplace_back("Property `" + subject + "`", text);
  } else if (name == "constructor") {
    s.notes.emplace_back("Constructor", text);
  } else if (name == "receiver") {
    s.notes.emplace_back("Receiver", text);
  } else if (name == "since") {
    s.notes.emplace_back("Since", text);
  } else if (name == "sample" && !subject.empty()) {
    s.notes.emplace_back("Sample", "`" + subject + "`");
  } else if (name == "see" && !subject.empty()) {
    std::string see = "`" + subject + "`";
    if (!text.empty()) see += " " + text;
    seeAlsos.push_back(std::move(see));
  }
  // @author and @suppress are not shown.
}

}  // namespace

RenderedDoc renderJavadoc(std::string_view comment) {
  std::string text = commentText(comment);
  JavadocRenderer renderer(text);
  std::vector<BlockTag> tags;
  std::size_t bodyEnd = splitBlockTags(text, renderer, tags);
  Sections s;
  s.body = renderer.render(0, bodyEnd);
  std::vector<std::string> seeAlsos;
  for (const auto& tag : tags) addJavadocTag(s, text, tag, renderer, seeAlsos);
  return assemble(std::move(s), seeAlsos);
}

RenderedDoc renderKdoc(std::string_view comment) {
  std::string text = commentText(comment);
  std::vector<std::string_view> lines = splitLines(text);
  // Reference definitions to addresses keep their links.
  RefSet urlRefs;
  bool inFence = false;
  for (std::string_view line : lines) {
    if (isFence(line)) inFence = !inFence;
    std::string_view t = trim(line);
    auto colon = t.find("]:");
    if (!inFence && t.starts_with('[') && colon != std::string_view::npos && isUrl(trim(t.substr(colon + 2))))
      urlRefs.insert(std::string(t.substr(1, colon - 1)));
  }
  // The body runs to the first line starting with a block tag (outside code blocks).
  Sections s;
  std::vector<std::string> seeAlsos;
  std::vector<std::string_view> body;
  std::string tag;
  std::string_view tagFirst;
  std::vector<std::string_view> tagMore;
  inFence = false;
  auto flushTag = [&] {
    if (!tag.empty()) addKdocTag(s, tag, tagFirst, tagMore, urlRefs, seeAlsos);
    tagMore.clear();
  };
  for (std::string_view line : lines) {
    if (isFence(line)) inFence = !inFence;
    std::string_view t = trim(line);
    if (!inFence && t.size() > 1 && t[0] == '@' && isAlpha(t[1])) {
      flushTag();
      std::size_t end = 1;
      while (end < t.size() && isAlnum(t[end])) ++end;
      tag = std::string(t.substr(1, end - 1));
      tagFirst = t.substr(end);
      continue;
    }
    if (tag.empty()) body.push_back(line);
    else tagMore.push_back(line);
  }
  flushTag();
  s.body = kdocBody(body, urlRefs);
  return assemble(std::move(s), seeAlsos);
}

std::string javadocMarkdown(std::string_view comment) { return renderJavadoc(comment).markdown; }

std::string kdocMarkdown(std::string_view comment) { return renderKdoc(comment).markdown; }

}  // namespace docs_generation
