#include "analysis/doc_dialects/go_doc.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace docs_generation {

namespace {

// ---------------------------------------------------------------------------------------
// Unicode, as much of it as Go names and doc links need.

constexpr char32_t kInvalid = 0xFFFD;

// The code point starting at `at` and its length in bytes; kInvalid (one byte long) for a
// byte that does not start valid UTF-8.
char32_t decodeAt(std::string_view s, std::size_t at, std::size_t& length) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  length = 1;
  unsigned char lead = byte(at);
  if (lead < 0x80) return lead;
  std::size_t extra = lead >= 0xC2 && lead <= 0xDF   ? 1
                      : lead >= 0xE0 && lead <= 0xEF ? 2
                      : lead >= 0xF0 && lead <= 0xF4 ? 3
                                                     : 0;
  if (extra == 0) return kInvalid;
  char32_t c = lead & (0x3F >> extra);
  for (std::size_t i = 1; i <= extra; ++i) {
    if (at + i >= s.size() || (byte(at + i) & 0xC0) != 0x80) return kInvalid;
    c = (c << 6) | (byte(at + i) & 0x3F);
  }
  if ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
    return kInvalid;
  length = extra + 1;
  return c;
}

// The code point that ends just before `end`.
char32_t decodeBefore(std::string_view s, std::size_t end) {
  std::size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
  std::size_t length = 0;
  char32_t c = decodeAt(s, start, length);
  return start + length == end ? c : kInvalid;
}

// Upper-case letters (Unicode's Lu) of the scripts Go code is written in: ranges, every
// `stride`th code point of which is upper case (Latin and Cyrillic alternate with lower case).
struct CaseRange {
  char32_t first, last, stride;
};
constexpr CaseRange kUpperCase[] = {
    {0x41, 0x5A, 1},     {0xC0, 0xD6, 1},     {0xD8, 0xDE, 1},       {0x100, 0x136, 2},     {0x139, 0x147, 2},
    {0x14A, 0x176, 2},   {0x178, 0x179, 1},   {0x17B, 0x17D, 2},     {0x181, 0x182, 1},     {0x184, 0x186, 2},
    {0x187, 0x187, 1},   {0x189, 0x18B, 1},   {0x18E, 0x191, 1},     {0x193, 0x194, 1},     {0x196, 0x198, 1},
    {0x19C, 0x19D, 1},   {0x19F, 0x1A0, 1},   {0x1A2, 0x1A4, 2},     {0x1A6, 0x1A7, 1},     {0x1A9, 0x1AC, 3},
    {0x1AE, 0x1AF, 1},   {0x1B1, 0x1B3, 1},   {0x1B5, 0x1B7, 2},     {0x1B8, 0x1BC, 4},     {0x1C4, 0x1CA, 3},
    {0x1CD, 0x1DB, 2},   {0x1DE, 0x1EE, 2},   {0x1F1, 0x1F4, 3},     {0x1F6, 0x1F8, 1},     {0x1FA, 0x232, 2},
    {0x23A, 0x23B, 1},   {0x23D, 0x23E, 1},   {0x241, 0x241, 1},     {0x243, 0x246, 1},     {0x248, 0x24E, 2},
    {0x370, 0x372, 2},   {0x376, 0x37F, 9},   {0x386, 0x386, 1},     {0x388, 0x38A, 1},     {0x38C, 0x38C, 1},
    {0x38E, 0x38F, 1},   {0x391, 0x3A1, 1},   {0x3A3, 0x3AB, 1},     {0x3CF, 0x3CF, 1},     {0x3D2, 0x3D4, 1},
    {0x3D8, 0x3EE, 2},   {0x3F4, 0x3F7, 3},   {0x3F9, 0x3FA, 1},     {0x3FD, 0x42F, 1},     {0x460, 0x480, 2},
    {0x48A, 0x4BE, 2},   {0x4C0, 0x4C1, 1},   {0x4C3, 0x4CD, 2},     {0x4D0, 0x52E, 2},     {0x531, 0x556, 1},
    {0x10A0, 0x10C5, 1}, {0x10C7, 0x10CD, 6}, {0x13A0, 0x13F5, 1},   {0x1C90, 0x1CBA, 1},   {0x1CBD, 0x1CBF, 1},
    {0x1E00, 0x1E94, 2}, {0x1E9E, 0x1E9E, 1}, {0x1EA0, 0x1EFE, 2},   {0x1F08, 0x1F0F, 1},   {0x1F18, 0x1F1D, 1},
    {0x1F28, 0x1F2F, 1}, {0x1F38, 0x1F3F, 1}, {0x1F48, 0x1F4D, 1},   {0x1F59, 0x1F5F, 2},   {0x1F68, 0x1F6F, 1},
    {0x1FB8, 0x1FBB, 1}, {0x1FC8, 0x1FCB, 1}, {0x1FD8, 0x1FDB, 1},   {0x1FE8, 0x1FEC, 1},   {0x1FF8, 0x1FFB, 1},
    {0x2C00, 0x2C2F, 1}, {0xFF21, 0xFF3A, 1}, {0x10400, 0x10427, 1}, {0x104B0, 0x104D3, 1}, {0x1E900, 0x1E921, 1},
};

bool isUpperLetter(char32_t c) {
  for (const auto& range : kUpperCase)
    if (c >= range.first && c <= range.last) return (c - range.first) % range.stride == 0;
  return false;
}

// Letters, roughly: past ASCII, whatever is not punctuation, a symbol or a space.
bool isLetter(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  if (c == kInvalid || c == 0xD7 || c == 0xF7) return false;
  if (c < 0xC0) return c == 0xAA || c == 0xB5 || c == 0xBA;
  return !(c >= 0x2000 && c <= 0x2BFF) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xFE30 && c <= 0xFE4F) &&
         !(c >= 0xFF00 && c <= 0xFF20);
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Unicode's punctuation (P*): ASCII's, Latin-1's and the General Punctuation block.
bool isPunctuation(char32_t c) {
  if (c < 0x80) {
    static constexpr std::string_view kAscii = "!\"#%&'()*,-./:;?@[\\]_{}";
    return kAscii.find(static_cast<char>(c)) != std::string_view::npos;
  }
  return c == 0xA1 || c == 0xA7 || c == 0xAB || c == 0xB6 || c == 0xB7 || c == 0xBB || c == 0xBF ||
         (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205E) || (c >= 0x3001 && c <= 0x3003) ||
         (c >= 0x3008 && c <= 0x3011);
}

// Go's identifier: a letter or '_', then letters, digits and '_'.
bool isName(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t length = 0;
    char32_t c = decodeAt(s, i, length);
    if (!(isLetter(c) || c == '_' || (i > 0 && c < 0x80 && isDigit(static_cast<char>(c))))) return false;
    i += length;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Lines, as go/doc/comment reads them.

using Lines = std::vector<std::string>;

bool isSpaceOrTab(char c) { return c == ' ' || c == '\t'; }
bool indented(std::string_view line) { return !line.empty() && isSpaceOrTab(line[0]); }

std::string_view trimSpace(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view leadingSpace(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && isSpaceOrTab(line[n])) ++n;
  return line.substr(0, n);
}

// The lines without their common leading white space (compared as text, as Go does), and
// without blank lines at either end; blank lines become empty.
Lines unindent(const std::vector<std::string_view>& lines) {
  std::size_t first = 0, last = lines.size();
  while (first < last && trimSpace(lines[first]).empty()) ++first;
  while (last > first && trimSpace(lines[last - 1]).empty()) --last;
  if (first == last) return {};
  std::string_view prefix = leadingSpace(lines[first]);
  for (std::size_t i = first + 1; i < last; ++i) {
    if (trimSpace(lines[i]).empty()) continue;
    std::string_view space = leadingSpace(lines[i]);
    std::size_t common = 0;
    while (common < prefix.size() && common < space.size() && prefix[common] == space[common]) ++common;
    prefix = prefix.substr(0, common);
  }
  Lines out;
  out.reserve(last - first);
  for (std::size_t i = first; i < last; ++i)
    out.emplace_back(trimSpace(lines[i]).empty() ? std::string_view() : lines[i].substr(prefix.size()));
  return out;
}

struct ListMarker {
  std::string number;  // empty: a bullet
  std::string_view rest;
};

// "- text", "* text", "+ text", "• text", "1. text" or "1) text" (marker then a space).
std::optional<ListMarker> listMarker(std::string_view line) {
  line = trimSpace(line);
  if (line.empty()) return std::nullopt;
  ListMarker marker;
  if (line.starts_with("\xE2\x80\xA2")) {
    marker.rest = line.substr(3);
  } else if (line[0] == '*' || line[0] == '+' || line[0] == '-') {
    marker.rest = line.substr(1);
  } else if (isDigit(line[0])) {
    std::size_t n = 1;
    while (n < line.size() && isDigit(line[n])) ++n;
    if (n >= line.size() || (line[n] != '.' && line[n] != ')')) return std::nullopt;
    marker.number = std::string(line.substr(0, n));
    marker.rest = line.substr(n + 1);
  } else {
    return std::nullopt;
  }
  if (!indented(marker.rest) || trimSpace(marker.rest).empty()) return std::nullopt;
  return marker;
}

bool isList(std::string_view line) { return listMarker(line).has_value(); }

bool isHeading(std::string_view line) {
  return line.size() >= 2 && line[0] == '#' && isSpaceOrTab(line[1]) && trimSpace(line) != "#";
}

// Before Go 1.19 a heading was a lone line between blank lines, followed by unindented
// text, starting with an upper-case letter, ending with a letter or digit, with no
// punctuation but "(),", a possessive "'s" and dots inside words. Go still reads them.
bool isOldHeading(const Lines& lines, std::size_t at) {
  if (at == 0 || !lines[at - 1].empty() || at + 2 >= lines.size() || !lines[at + 1].empty() ||
      !leadingSpace(lines[at + 2]).empty())
    return false;
  std::string_view line = trimSpace(lines[at]);
  std::size_t length = 0;
  if (line.empty() || !isUpperLetter(decodeAt(line, 0, length))) return false;
  char32_t last = decodeBefore(line, line.size());
  if (!isLetter(last) && !(last < 0x80 && isDigit(static_cast<char>(last)))) return false;
  if (line.find_first_of(";:!?+*/=[]{}_^&~%#@<\">\\") != std::string_view::npos) return false;
  if (line.find("\xC2\xB0") != std::string_view::npos || line.find("\xC2\xA7") != std::string_view::npos)
    return false;  // ° and §
  for (std::size_t i = 0; i < line.size(); ++i) {
    std::string_view after = line.substr(i + 1);
    if (line[i] == '\'' && after != "s" && !after.starts_with("s ")) return false;
    if (line[i] == '.' && (after.empty() || after[0] == ' ')) return false;
  }
  return true;
}

enum class SpanKind { Paragraph, Heading, OldHeading, Code, List };

struct Span {
  std::size_t start, end;
  SpanKind kind;
};

// go/doc/comment's block structure: unindented runs of lines are paragraphs (or headings),
// indented runs (blank lines inside them included) are code blocks, or lists when their
// first line has a list marker. Its repairs of badly indented code and lists are kept:
// they decide where a paragraph ends.
std::vector<Span> parseSpans(const Lines& lines) {
  std::vector<Span> spans;
  const std::size_t n = lines.size();
  std::size_t i = 0, forceIndent = 0;
  std::size_t watchdog = 2 * n + 2;  // each line is read at most twice
  while (watchdog-- > 0) {
    while (i < n && lines[i].empty()) ++i;
    if (i >= n) break;
    std::size_t start = i, end = i;
    SpanKind kind = SpanKind::Paragraph;
    if (i < forceIndent || indented(lines[i])) {
      // Runs until the next unindented line (unindented list items too, when a list was
      // forced here, up to a blank line).
      bool unindentedListOk = isList(lines[i]) && i < forceIndent;
      ++i;
      while (i < n &&
             (lines[i].empty() || i < forceIndent || indented(lines[i]) || (unindentedListOk && isList(lines[i])))) {
        if (lines[i].empty()) unindentedListOk = false;
        ++i;
      }
      end = i;
      while (end > start && lines[end - 1].empty()) --end;
      // Unindented code's closing brace right after it belongs to it.
      if (end < n && lines[end].starts_with('}')) ++end;
      kind = isList(lines[start]) ? SpanKind::List : SpanKind::Code;
    } else {
      ++i;
      while (i < n && !lines[i].empty() && !indented(lines[i])) ++i;
      end = i;
      // Unindented lines running into indented ones: trailing list items, or a line ending
      // in '{' or '\', start the indented block instead.
      if (i < n && !lines[i].empty() && !isList(lines[i])) {
        if (isList(lines[i - 1])) {
          forceIndent = end;
          --end;
          while (end > start && isList(lines[end - 1])) --end;
        } else if (lines[i - 1].ends_with('{') || lines[i - 1].ends_with('\\')) {
          forceIndent = end;
          --end;
        }
        if (start == end && forceIndent > start) {
          i = start;
          continue;
        }
      }
      if (end - start == 1 && isHeading(lines[start])) kind = SpanKind::Heading;
      else if (end - start == 1 && isOldHeading(lines, start)) kind = SpanKind::OldHeading;
    }
    spans.push_back({start, end, kind});
    i = end;
  }
  return spans;
}

// ---------------------------------------------------------------------------------------
// Blocks.

struct ListItem {
  std::string number;
  std::vector<std::string> paragraphs;
};

struct Block {
  enum class Kind { Paragraph, Heading, Code, List } kind = Kind::Paragraph;
  std::string text;  // a paragraph's or heading's text (lines joined), a code block's lines
  std::vector<ListItem> items;
  bool numbered = false;
  bool loose = false;  // blank lines between the items
};

using LinkTargets = std::map<std::string, std::string, std::less<>>;

bool isScheme(std::string_view s) {
  return s == "http" || s == "https" || s == "file" || s == "ftp" || s == "gopher" || s == "mailto" || s == "nntp";
}

// "[text]: https://..." (a known scheme and "://"), as a pair of text and address.
std::optional<std::pair<std::string, std::string>> linkDefinition(std::string_view line) {
  if (line.empty() || line[0] != '[') return std::nullopt;
  auto close = line.find("]:");
  if (close == std::string_view::npos || close + 3 >= line.size() || !isSpaceOrTab(line[close + 2]))
    return std::nullopt;
  std::string_view url = trimSpace(line.substr(close + 3));
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos || !isScheme(url.substr(0, scheme))) return std::nullopt;
  return std::make_pair(std::string(line.substr(1, close - 1)), std::string(url));
}

// A span's blocks, and the link definitions found on the way (a paragraph of nothing but
// definitions is no text).
class BlockReader {
 public:
  std::vector<Block> read(const Lines& lines) {
    std::vector<Block> blocks;
    for (const auto& span : parseSpans(lines)) {
      std::vector<std::string_view> part(lines.begin() + static_cast<std::ptrdiff_t>(span.start),
                                         lines.begin() + static_cast<std::ptrdiff_t>(span.end));
      Block block;
      switch (span.kind) {
        case SpanKind::Paragraph: {
          auto text = paragraph(part);
          if (!text) continue;
          block.text = std::move(*text);
          break;
        }
        case SpanKind::Heading:
          block.kind = Block::Kind::Heading;
          block.text = std::string(trimSpace(part[0].substr(1)));
          break;
        case SpanKind::OldHeading:
          block.kind = Block::Kind::Heading;
          block.text = std::string(trimSpace(part[0]));
          break;
        case SpanKind::Code: block = code(part); break;
        case SpanKind::List: block = list(part); break;
      }
      blocks.push_back(std::move(block));
    }
    return blocks;
  }

  const LinkTargets& links() const { return links_; }

 private:
  std::optional<std::string> paragraph(const std::vector<std::string_view>& lines) {
    std::vector<std::pair<std::string, std::string>> definitions;
    for (auto line : lines) {
      auto definition = linkDefinition(line);
      if (!definition) {
        std::string text;
        for (std::size_t i = 0; i < lines.size(); ++i) {
          if (i > 0) text += '\n';
          text += lines[i];
        }
        return text;
      }
      definitions.push_back(std::move(*definition));
    }
    for (auto& [text, url] : definitions) links_.emplace(std::move(text), std::move(url));  // the first wins
    return std::nullopt;
  }

  static Block code(const std::vector<std::string_view>& lines) {
    Block block;
    block.kind = Block::Kind::Code;
    for (const auto& line : unindent(lines)) block.text += (block.text.empty() ? "" : "\n") + line;
    return block;
  }

  // Items start at a marker of the list's own kind (a bullet in a numbered list is text);
  // a blank line ends an item's paragraph and makes the list loose.
  Block list(const std::vector<std::string_view>& lines) {
    Block block;
    block.kind = Block::Kind::List;
    block.numbered = !listMarker(lines[0])->number.empty();
    std::vector<std::string_view> text;
    auto flush = [&] {
      if (!block.items.empty() && !text.empty())
        if (auto para = paragraph(text)) block.items.back().paragraphs.push_back(std::move(*para));
      text.clear();
    };
    for (auto line : lines) {
      auto marker = listMarker(line);
      if (marker && marker->number.empty() != block.numbered) {
        flush();
        block.items.push_back({marker->number, {}});
        line = marker->rest;
      }
      line = trimSpace(line);
      if (line.empty()) {
        block.loose = true;
        flush();
        continue;
      }
      text.push_back(line);
    }
    flush();
    return block;
  }

  LinkTargets links_;
};

// ---------------------------------------------------------------------------------------
// Text, as Markdown.

constexpr std::size_t kMaxUrl = 2048;

bool isHostByte(char c) {
  return isAlnum(c) || c == '_' || c == '@' || c == '-' || c == '.' || c == '[' || c == ']' || c == ':';
}
bool isUrlPunct(char c) { return c == '.' || c == ',' || c == ':' || c == ';' || c == '?' || c == '!'; }
bool isPathByte(char c) {
  static constexpr std::string_view kPath = "$'()*+&#=@~_/-[]{}%";
  return isAlnum(c) || kPath.find(c) != std::string_view::npos;
}

// The length of the URL `s` starts with, or 0, by Go's rule: a known scheme, a host, and
// a path whose brackets match, not ending in punctuation (a sentence's end is not the
// URL's). Looked for at most kMaxUrl bytes ahead, so that text full of unclosed brackets
// after "http://" is read in linear time.
std::size_t urlLength(std::string_view s) {
  s = s.substr(0, kMaxUrl);
  if (s.size() < 7) return 0;
  std::size_t i = 0;
  for (std::size_t at : {3, 4, 5, 6})
    if (i == 0 && s[at] == ':') i = at;
  if (i == 0 || i + 3 > s.size() || s.substr(i, 3) != "://" || !isScheme(s.substr(0, i))) return 0;
  i += 3;
  if (i >= s.size() || !isHostByte(s[i]) || isUrlPunct(s[i])) return 0;
  ++i;
  std::size_t end = i;
  for (; i < s.size() && isHostByte(s[i]); ++i)
    if (!isUrlPunct(s[i])) end = i + 1;
  i = end;
  std::string closers;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (isUrlPunct(c)) continue;
    if (!isPathByte(c)) break;
    if (c == '(') closers += ')';
    else if (c == '{') closers += '}';
    else if (c == '[') closers += ']';
    else if (c == ')' || c == '}' || c == ']') {
      if (closers.empty() || closers.back() != c) break;
      closers.pop_back();
    }
    if (closers.empty()) end = i + 1;
  }
  return end;
}

bool isImportPathByte(char c) { return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

bool validImportPath(std::string_view path) {
  if (path.empty() || path[0] == '-' || path.back() == '/') return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    std::string_view element =
        path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    // Go allows any element not starting or ending with '.'; a real one starts with a letter or digit.
    if (element.empty() || !isAlnum(element.front()) || element.back() == '.') return false;
    for (char c : element)
      if (!isImportPathByte(c)) return false;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return true;
}

// Go's splitDocName: the text before the last '.', and the name after it when it is one.
struct DocName {
  std::string_view before;
  std::string_view name;
  bool found = false;
};
DocName splitDocName(std::string_view text) {
  auto dot = text.rfind('.');
  std::string_view name = dot == std::string_view::npos ? text : text.substr(dot + 1);
  if (!isName(name)) return {text, {}, false};
  return {dot == std::string_view::npos ? std::string_view() : text.substr(0, dot), name, true};
}

// [Name], [Name.Method], [pkg.Name], [pkg.Name.Method], [*pkg.Name], [import/path] or
// [import/path.Name]. Without the package at hand to look names up in (as go doc does),
// a name in this package or another must be exported; an import path is enough alone.
bool isDocLink(std::string_view text) {
  if (text.starts_with('*')) text.remove_prefix(1);
  DocName split = splitDocName(text);
  std::string_view package = text;
  if (split.found) package = splitDocName(split.before).before;
  if (package.find('/') != std::string_view::npos) return validImportPath(package);
  if (!split.found) return false;
  if (!package.empty() && !isName(package)) return false;
  return goExported(split.name);
}

// A doc link stands between spaces or punctuation (so map[string]int is none).
bool docLinkBoundary(std::string_view text, std::size_t open, std::size_t close) {
  auto fits = [](char32_t c) { return c == ' ' || c == '\t' || c == '\n' || isPunctuation(c); };
  std::size_t length = 0;
  if (open > 0 && !fits(decodeBefore(text, open))) return false;
  if (close + 1 < text.size() && !fits(decodeAt(text, close + 1, length))) return false;
  return true;
}

// A link's address in Markdown: as it is, or in <> with spaces and brackets encoded.
std::string destination(std::string_view url) {
  if (url.find_first_of(" ()<>") == std::string_view::npos) return std::string(url);
  std::string out = "<";
  for (char c : url) {
    if (c == ' ') out += "%20";
    else if (c == '<') out += "%3C";
    else if (c == '>') out += "%3E";
    else out += c;
  }
  return out + ">";
}

// Backtick runs and, for each, the run that closes it as a code span: the next one of the
// same length on the same line (Go has no code spans, but authors write `name` for one).
class BacktickRuns {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  explicit BacktickRuns(std::string_view text) {
    std::size_t line = 0;
    std::vector<std::size_t> lineOf;
    for (std::size_t i = 0; i < text.size();) {
      if (text[i] == '\n') ++line;
      if (text[i] != '`') {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && text[end] == '`') ++end;
      runs_.push_back({i, end - i, kNone});
      lineOf.push_back(line);
      i = end;
    }
    std::map<std::size_t, std::size_t> nextOfLength;
    for (std::size_t k = runs_.size(); k-- > 0;) {
      if (k + 1 < runs_.size() && lineOf[k] != lineOf[k + 1]) nextOfLength.clear();
      auto next = nextOfLength.find(runs_[k].length);
      if (next != nextOfLength.end()) runs_[k].closer = next->second;
      nextOfLength[runs_[k].length] = k;
    }
  }

  struct Run {
    std::size_t start, length, closer;
  };

  // The run starting at `at` (positions only grow between calls), or null.
  const Run* at(std::size_t position) {
    while (cursor_ < runs_.size() && runs_[cursor_].start < position) ++cursor_;
    return cursor_ < runs_.size() && runs_[cursor_].start == position ? &runs_[cursor_] : nullptr;
  }
  const Run& run(std::size_t index) const { return runs_[index]; }

 private:
  std::vector<Run> runs_;
  std::size_t cursor_ = 0;
};

// Go's doc text as Markdown text: plain text escaped where Markdown would read it
// otherwise, `` and '' as curly quotes, and (when `linking`) [text] links with a
// definition, doc links as code and URLs as links.
class TextWriter {
 public:
  TextWriter(const LinkTargets& links, bool linking) : links_(links), linking_(linking) {}

  std::string write(std::string_view text) {
    text_ = text;
    BacktickRuns ticks(text);
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      bool lineStart = i == 0 || text[i - 1] == '\n';
      if (const auto* run = text[i] == '`' ? ticks.at(i) : nullptr) {
        i = backticks(*run, ticks, lineStart, out);
        continue;
      }
      if (linking_ && text[i] == '[') {
        if (auto after = link(i, out)) {
          i = *after;
          continue;
        }
      }
      if (linking_ && (i == 0 || !identifierByte(text[i - 1]))) {
        if (std::size_t length = urlLength(text.substr(i))) {
          out += '<';
          out += text.substr(i, length);
          out += '>';
          i += length;
          continue;
        }
      }
      if (text.substr(i).starts_with("''")) {
        out += "\xE2\x80\x9D";
        i += 2;
        continue;
      }
      if (lineStart) {
        std::size_t next = lineStartMarker(i, out);
        if (next != i) {
          i = next;
          continue;
        }
      }
      plainByte(i++, out);
    }
    return out;
  }

 private:
  static bool identifierByte(char c) { return isAlnum(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }

  std::size_t backticks(const BacktickRuns::Run& run, const BacktickRuns& ticks, bool lineStart, std::string& out) {
    if (run.length == 2) {
      out += "\xE2\x80\x9C";  // Go's `` is an opening quote
    } else if (run.closer != BacktickRuns::kNone && !(lineStart && run.length >= 3)) {
      const auto& closer = ticks.run(run.closer);
      out += text_.substr(run.start, closer.start + closer.length - run.start);
      return closer.start + closer.length;
    } else {
      for (std::size_t k = 0; k < run.length; ++k) out += "\\`";
    }
    return run.start + run.length;
  }

  // [text] with a definition, or a doc link; the position after it, or nullopt.
  std::optional<std::size_t> link(std::size_t open, std::string& out) {
    std::size_t close = open + 1;
    while (close < text_.size() && text_[close] != '[' && text_[close] != ']') ++close;
    if (close >= text_.size() || text_[close] != ']') return std::nullopt;
    std::string_view inner = text_.substr(open + 1, close - open - 1);
    std::string key(inner);
    std::replace_if(
        key.begin(), key.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
    if (auto target = links_.find(key); target != links_.end()) {
      out += '[' + TextWriter(links_, false).write(inner) + "](" + destination(target->second) + ')';
      return close + 1;
    }
    if (docLinkBoundary(text_, open, close) && isDocLink(key)) {
      out += '`' + key + '`';
      return close + 1;
    }
    return std::nullopt;
  }

  // What would start a Markdown block at a line's start (a heading, quote, list, table,
  // fence or rule) is escaped; returns where plain text goes on.
  std::size_t lineStartMarker(std::size_t i, std::string& out) {
    char c = text_[i];
    if (c == '#' || c == '>' || c == '-' || c == '+' || c == '=' || c == '|' || c == '~') {
      out += '\\';
      out += c;
      return i + 1;
    }
    if (!isDigit(c)) return i;
    std::size_t end = i;
    while (end < text_.size() && isDigit(text_[end])) ++end;
    if (end == text_.size() || (text_[end] != '.' && text_[end] != ')')) return i;
    out += text_.substr(i, end - i);
    out += '\\';
    out += text_[end];
    return end + 1;
  }

  // One byte of plain text, escaped when Markdown would read it as syntax.
  void plainByte(std::size_t i, std::string& out) {
    char c = text_[i];
    char before = i > 0 ? text_[i - 1] : ' ';
    char after = i + 1 < text_.size() ? text_[i + 1] : ' ';
    switch (c) {
      case '\\':
      case '*':
      case '[':
      case ']':
      case '<':
      case '|':
      case '~': out += '\\'; break;
      case '_':
        if (!isAlnum(before) || !isAlnum(after)) out += '\\';
        break;
      case '&':
        if (isAlnum(after) || after == '#') out += '\\';
        break;
      default: break;
    }
    out += c;
  }

  const LinkTargets& links_;
  bool linking_;
  std::string_view text_;
};

// ---------------------------------------------------------------------------------------
// Code blocks.

bool startsWithWord(std::string_view line, std::string_view word) {
  if (!line.starts_with(word)) return false;
  if (line.size() == word.size()) return true;
  char next = line[word.size()];
  return next == ' ' || next == '(' || next == '{' || next == ':' || next == ';';
}

// A shell command, program output or data rather than Go.
bool looksLikeOtherLanguage(std::string_view line) {
  static constexpr std::array<std::string_view, 24> kCommands = {
      "$",       "%",      ">",      "#",       "git",         "curl",       "docker",  "npm",
      "make",    "sudo",   "cd",     "export",  "go get",      "go install", "go run",  "go build",
      "go test", "go mod", "go vet", "go tool", "go generate", "go env",     "go work", "go version"};
  for (auto command : kCommands)
    if (line.starts_with(command) && (line.size() == command.size() || line[command.size()] == ' ')) return true;
  if (line.starts_with('<')) return true;                                                // markup
  if (line.starts_with('"') && line.find("\":") != std::string_view::npos) return true;  // JSON
  return false;
}

// A line only Go (or a language much like it) would have.
bool looksLikeGoLine(std::string_view line) {
  static constexpr std::array<std::string_view, 10> kKeywords = {"func",  "package", "import", "type",    "var",
                                                                 "const", "return",  "defer",  "go func", "} else"};
  for (auto keyword : kKeywords)
    if (startsWithWord(line, keyword)) return true;
  if ((startsWithWord(line, "case") || startsWithWord(line, "default")) && line.ends_with(':')) return true;
  if (line.starts_with("//") || line == "}" || line == ")" || line.ends_with('{')) return true;
  for (std::string_view token : {":=", "!= nil", "== nil", "<-", "&&", "||", "++", "+=", "[]"})
    if (line.find(token) != std::string_view::npos) return true;
  // A call: name(...) or pkg.Name(...) alone on the line.
  auto paren = line.find('(');
  if (paren == std::string_view::npos || paren == 0 || !line.ends_with(')')) return false;
  return std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(paren),
                     [](char c) { return isAlnum(c) || c == '_' || c == '.'; });
}

bool looksLikeGo(std::string_view code) {
  bool go = false;
  std::size_t at = 0;
  while (at <= code.size()) {
    auto end = code.find('\n', at);
    if (end == std::string_view::npos) end = code.size();
    std::string_view line = trimSpace(code.substr(at, end - at));
    if (!line.empty()) {
      if (looksLikeOtherLanguage(line)) return false;
      go = go || looksLikeGoLine(line);
    }
    at = end + 1;
  }
  return go;
}

std::string codeBlock(const std::string& code) {
  std::size_t longest = 0, run = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return fence + (looksLikeGo(code) ? "go" : "") + "\n" + code + "\n" + fence;
}

// ---------------------------------------------------------------------------------------
// Blocks as Markdown.

std::string indentLines(const std::string& text, const std::string& indent) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

std::string heading(const std::string& text, const LinkTargets& links) {
  std::string out = TextWriter(links, false).write(text);
  // A run of '#' after a space at the end would close the heading.
  std::size_t hashes = out.size();
  while (hashes > 0 && out[hashes - 1] == '#') --hashes;
  if (hashes < out.size() && (hashes == 0 || out[hashes - 1] == ' ')) out.insert(hashes, "\\");
  return "# " + out;
}

std::string listMarkdown(const Block& list, const LinkTargets& links) {
  std::string out;
  for (std::size_t k = 0; k < list.items.size(); ++k) {
    const auto& item = list.items[k];
    if (k > 0) out += list.loose ? "\n\n" : "\n";
    std::string marker = list.numbered ? item.number + ". " : "- ";
    std::string indent(marker.size(), ' ');
    if (item.paragraphs.empty()) marker.pop_back();
    out += marker;
    for (std::size_t p = 0; p < item.paragraphs.size(); ++p) {
      if (p > 0) out += "\n\n" + indent;
      out += indentLines(TextWriter(links, true).write(item.paragraphs[p]), indent);
    }
  }
  return out;
}

// The comment group's lines as ast.CommentGroup.Text gives them: trailing white space
// gone, blank lines at the ends dropped and runs of them made one.
std::vector<std::string_view> commentLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    if (!(line.empty() && (lines.empty() || lines.back().empty()))) lines.push_back(line);
    at = end + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

bool goExported(std::string_view name) {
  if (name.empty()) return false;
  std::size_t length = 0;
  return isUpperLetter(decodeAt(name, 0, length));
}

std::string goDocMarkdown(std::string_view text) {
  Lines lines = unindent(commentLines(text));
  BlockReader reader;
  std::vector<Block> blocks = reader.read(lines);
  std::string out;
  for (const auto& block : blocks) {
    std::string markdown;
    switch (block.kind) {
      case Block::Kind::Paragraph: markdown = TextWriter(reader.links(), true).write(block.text); break;
      case Block::Kind::Heading: markdown = heading(block.text, reader.links()); break;
      case Block::Kind::Code: markdown = codeBlock(block.text); break;
      case Block::Kind::List: markdown = listMarkdown(block, reader.links()); break;
    }
    if (markdown.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += markdown;
  }
  return out;
}

}  // namespace docs_generation
