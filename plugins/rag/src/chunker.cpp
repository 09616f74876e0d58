#include "chunker.hpp"

#include <algorithm>
#include <set>

#include "role_prior.hpp"

namespace docs_rag {

using docs::CodeFile;
using docs::CodeSymbol;

namespace {

// Kinds that stand for a definition worth its own chunk (Universal Ctags' names).
const std::set<std::string, std::less<>> kDefinitionKinds = {
    "function", "method",  "class", "struct",   "interface", "enum",       "trait",     "impl", "module",     "macro",
    "type",     "typedef", "union", "protocol", "object",    "subroutine", "procedure", "func", "constructor"};

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Cuts at a UTF-8 character boundary.
std::string capBytes(std::string text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  std::size_t cut = maxBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

std::string joinLines(const std::vector<std::string_view>& lines, int from, int to, std::size_t maxBytes) {
  std::string out;
  for (int line = from; line <= to && line <= static_cast<int>(lines.size()); ++line) {
    out.append(lines[static_cast<std::size_t>(line - 1)]);
    out += '\n';
    if (out.size() > maxBytes) break;
  }
  return capBytes(std::move(out), maxBytes);
}

bool hasText(const std::vector<std::string_view>& lines, int from, int to) {
  int nonBlank = 0;
  for (int line = from; line <= to; ++line)
    if (lines[static_cast<std::size_t>(line - 1)].find_first_not_of(" \t\r") != std::string_view::npos) ++nonBlank;
  return nonBlank >= 2;
}

struct Span {
  int from;
  int to;
  const CodeSymbol* symbol;
};

}  // namespace

std::vector<Chunk> codeChunks(const CodeFile& file, std::string_view text, const ChunkLimits& limits) {
  std::vector<Chunk> chunks;
  auto lines = splitLines(text);
  const int total = static_cast<int>(lines.size());
  if (total == 0) return chunks;

  // Definitions in line order, with an end (ctags gives most; else the next one's start).
  std::vector<const CodeSymbol*> defs;
  for (const auto& symbol : file.symbols) {
    // Python's methods are ctags "member"s, as are C++ fields: only a multi-line one is code.
    bool definition = kDefinitionKinds.count(symbol.kind) || (symbol.kind == "member" && symbol.end > symbol.line);
    if (symbol.line >= 1 && symbol.line <= total && definition) defs.push_back(&symbol);
  }
  std::sort(defs.begin(), defs.end(),
            [](auto* a, auto* b) { return a->line != b->line ? a->line < b->line : a->end > b->end; });
  std::vector<Span> spans;
  for (std::size_t i = 0; i < defs.size(); ++i) {
    int end = defs[i]->end;
    if (end < defs[i]->line) end = i + 1 < defs.size() ? std::max(defs[i]->line, defs[i + 1]->line - 1) : total;
    spans.push_back({defs[i]->line, std::min(end, total), defs[i]});
  }
  // A definition that contains others keeps only its head (up to the first one inside).
  for (std::size_t i = 0; i < spans.size(); ++i)
    for (std::size_t j = i + 1; j < spans.size() && spans[j].from <= spans[i].to; ++j)
      if (spans[j].from > spans[i].from) {
        spans[i].to = spans[j].from - 1;
        break;
      }

  std::vector<bool> covered(static_cast<std::size_t>(total) + 1, false);
  for (const auto& span : spans) {
    if (span.to < span.from) continue;
    for (int from = span.from; from <= span.to; from += limits.maxLines) {
      int to = std::min(span.to, from + limits.maxLines - 1);
      for (int line = from; line <= to; ++line) covered[static_cast<std::size_t>(line)] = true;
      Chunk chunk;
      chunk.kind = "code";
      chunk.path = file.path;
      chunk.language = file.language;
      chunk.pageId = file.pageId;
      chunk.startLine = from;
      chunk.endLine = to;
      chunk.symbol = span.symbol->scope.empty() ? span.symbol->name : span.symbol->scope + "." + span.symbol->name;
      chunk.symbolKind = span.symbol->kind;
      chunk.title =
          span.symbol->signature.empty() ? span.symbol->doc.substr(0, 300) : span.symbol->name + span.symbol->signature;
      chunk.doc = span.symbol->doc;
      chunk.role = file.role;
      chunk.api = file.role == "library" && !span.symbol->doc.empty() && isPublicName(span.symbol->name, file.language);
      chunk.content = joinLines(lines, from, to, limits.maxBytes);
      chunks.push_back(std::move(chunk));
    }
  }
  // What no definition covers: imports, top-level code, constants.
  int line = 1;
  while (line <= total) {
    while (line <= total && covered[static_cast<std::size_t>(line)]) ++line;
    int from = line;
    while (line <= total && !covered[static_cast<std::size_t>(line)] && line - from < limits.windowLines) ++line;
    int to = line - 1;
    if (to >= from && hasText(lines, from, to)) {
      Chunk chunk;
      chunk.kind = "code";
      chunk.path = file.path;
      chunk.language = file.language;
      chunk.pageId = file.pageId;
      chunk.startLine = from;
      chunk.endLine = to;
      chunk.title = from == 1 ? file.summary.substr(0, 300) : "";
      chunk.role = file.role;
      chunk.content = joinLines(lines, from, to, limits.maxBytes);
      chunks.push_back(std::move(chunk));
    }
  }
  std::sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.startLine < b.startLine; });
  return chunks;
}

namespace {

std::string_view trim(std::string_view text) {
  std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool blank(std::string_view line) { return trim(line).empty(); }

std::size_t indentOf(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// ``` or ~~~ (up to three spaces in): opens or closes a fence.
bool fenceLine(std::string_view line) {
  std::size_t indent = indentOf(line);
  if (indent > 3) return false;
  auto rest = line.substr(indent);
  return rest.starts_with("```") || rest.starts_with("~~~");
}

// reStructuredText's section adornment: one punctuation character repeated.
bool adornment(std::string_view line, char& mark) {
  auto text = trim(line);
  if (text.size() < 3 || line[0] == ' ') return false;
  static constexpr std::string_view kMarks = "=-`:'\"~^_*+#<>.";
  if (kMarks.find(text[0]) == std::string_view::npos) return false;
  for (char c : text)
    if (c != text[0]) return false;
  mark = text[0];
  return true;
}

// Markdown's setext underline: === (level 1) or --- (level 2).
int setextLevel(std::string_view line) {
  if (indentOf(line) > 3) return 0;
  auto text = trim(line);
  if (text.empty() || (text[0] != '=' && text[0] != '-')) return 0;
  for (char c : text)
    if (c != text[0]) return 0;
  return text[0] == '=' ? 1 : 2;
}

// "## Title ##" -> "Title"; "Title {#anchor}" -> "Title".
std::string headingText(std::string_view text) {
  text = trim(text);
  while (!text.empty() && text.back() == '#') text.remove_suffix(1);
  text = trim(text);
  if (text.ends_with("}")) {
    auto open = text.rfind("{#");
    if (open != std::string_view::npos) text = trim(text.substr(0, open));
  }
  return std::string(text);
}

std::string unquoted(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && (text[0] == '"' || text[0] == '\'') && text.back() == text[0])
    text = text.substr(1, text.size() - 2);
  return std::string(text);
}

struct Heading {
  int first;  // 0-based lines the heading occupies (with its adornments)
  int last;
  int level;
  std::string text;
};

}  // namespace

bool isDocumentFile(const CodeFile& file) { return file.language == "markdown" || file.language == "rst"; }

std::vector<Chunk> guideChunks(const CodeFile& file, std::string_view text, const ChunkLimits& limits) {
  std::vector<Chunk> chunks;
  auto lines = splitLines(text);
  const int total = static_cast<int>(lines.size());
  const bool rst = file.language == "rst";

  // Front matter (---, title:, ---) names the document and is not its text.
  std::string documentTitle;
  int bodyStart = 0;
  if (!rst && total > 1 && trim(lines[0]) == "---") {
    for (int i = 1; i < total && i < 80; ++i) {
      auto line = trim(lines[static_cast<std::size_t>(i)]);
      if (line == "---" || line == "...") {
        bodyStart = i + 1;
        break;
      }
      if (line.starts_with("title:")) documentTitle = unquoted(line.substr(6));
    }
    if (bodyStart == 0) documentTitle.clear();
  }

  std::vector<Heading> headings;
  std::vector<std::pair<char, bool>> rstStyles;  // in order of first use: level = index + 1
  auto rstLevel = [&](char mark, bool over) {
    for (std::size_t i = 0; i < rstStyles.size(); ++i)
      if (rstStyles[i] == std::pair{mark, over}) return static_cast<int>(i) + 1;
    rstStyles.emplace_back(mark, over);
    return static_cast<int>(rstStyles.size());
  };
  bool inFence = false;
  for (int i = bodyStart; i < total; ++i) {
    auto line = lines[static_cast<std::size_t>(i)];
    auto next = i + 1 < total ? lines[static_cast<std::size_t>(i) + 1] : std::string_view();
    bool afterBreak = i == bodyStart || blank(lines[static_cast<std::size_t>(i - 1)]) ||
                      (!headings.empty() && headings.back().last == i - 1);
    if (rst) {
      char mark = 0, under = 0;
      if (adornment(line, mark) && i + 2 < total && !blank(next) && next[0] != ' ' &&
          adornment(lines[static_cast<std::size_t>(i) + 2], under) && under == mark && afterBreak) {
        headings.push_back({i, i + 2, rstLevel(mark, true), std::string(trim(next))});
        i += 2;
      } else if (!blank(line) && line[0] != ' ' && !adornment(line, mark) && afterBreak && adornment(next, under) &&
                 trim(next).size() + 2 >= trim(line).size()) {
        headings.push_back({i, i + 1, rstLevel(under, false), std::string(trim(line))});
        ++i;
      }
      continue;
    }
    if (fenceLine(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    std::size_t indent = indentOf(line);
    auto rest = line.substr(std::min(indent, line.size()));
    if (indent <= 3 && rest.starts_with("#")) {
      std::size_t level = rest.find_first_not_of('#');
      if (level == std::string_view::npos) level = rest.size();
      if (level <= 6 && (level == rest.size() || rest[level] == ' ' || rest[level] == '\t')) {
        headings.push_back({i, i, static_cast<int>(level), headingText(rest.substr(level))});
        continue;
      }
    }
    // A one-line paragraph underlined by === or --- (not a list item or a table row).
    if (int level = setextLevel(next); level > 0 && !blank(line) && indent <= 3 && afterBreak &&
                                       !rest.starts_with("- ") && !rest.starts_with("* ") && !rest.starts_with("+ ") &&
                                       !rest.starts_with(">") && rest.find('|') == std::string_view::npos) {
      headings.push_back({i, i + 1, level, headingText(line)});
      ++i;
    }
  }

  if (documentTitle.empty() && !headings.empty() && headings[0].level == 1) documentTitle = headings[0].text;
  if (documentTitle.empty())
    documentTitle = file.path.substr(file.path.rfind('/') == std::string::npos ? 0 : file.path.rfind('/') + 1);

  auto emit = [&](const std::string& title, int headingFirst, int from, int to) {
    // Body lines from..to (0-based); nothing but blank lines makes no chunk.
    bool any = false;
    for (int line = from; line <= to && !any; ++line) any = !blank(lines[static_cast<std::size_t>(line)]);
    if (!any) return;
    int start = from;
    while (start <= to) {
      // Pieces of at most maxLines lines and maxBytes, cut at a blank line where possible.
      int end = start;
      std::size_t bytes = 0;
      int lastBlank = -1;
      int budget =
          start == from ? std::max(1, limits.maxLines - (from - headingFirst)) : limits.maxLines;  // the heading counts
      while (end <= to && end - start < budget &&
             bytes + lines[static_cast<std::size_t>(end)].size() + 1 <= limits.maxBytes) {
        bytes += lines[static_cast<std::size_t>(end)].size() + 1;
        if (blank(lines[static_cast<std::size_t>(end)]) && end > start) lastBlank = end;
        ++end;
      }
      if (end == start) ++end;  // one line longer than maxBytes: capped below
      if (end <= to && lastBlank > start + (end - start) / 2) end = lastBlank + 1;
      Chunk chunk;
      chunk.kind = "docs";
      chunk.path = file.path;
      chunk.language = file.language;
      chunk.pageId = file.pageId;
      chunk.role = file.role;
      chunk.symbolKind = "section";
      chunk.title = title;
      chunk.startLine = (start == from ? headingFirst : start) + 1;
      chunk.endLine = end;
      chunk.content = joinLines(lines, start + 1, end, limits.maxBytes);
      if (chunk.content.find_first_not_of(" \t\r\n") != std::string::npos) chunks.push_back(std::move(chunk));
      start = end;
    }
  };

  // The text before the first heading, then each heading's section; titles carry the
  // headings above (a level-one heading that names the document is the document).
  emit(documentTitle, bodyStart, bodyStart, headings.empty() ? total - 1 : headings[0].first - 1);
  std::vector<const Heading*> stack;
  for (std::size_t h = 0; h < headings.size(); ++h) {
    const auto& heading = headings[h];
    while (!stack.empty() && stack.back()->level >= heading.level) stack.pop_back();
    stack.push_back(&heading);
    std::string title = documentTitle;
    for (const Heading* above : stack)
      if (!(above->level == 1 && above->text == documentTitle) && !above->text.empty())
        title += " \u203a " + above->text;
    int to = h + 1 < headings.size() ? headings[h + 1].first - 1 : total - 1;
    emit(title.substr(0, 300), heading.first, heading.last + 1, to);
  }
  return chunks;
}

std::vector<Chunk> pageChunks(std::int64_t pageId, std::string_view pageName, std::string_view markdown,
                              const ChunkLimits& limits) {
  std::vector<Chunk> chunks;
  std::string heading;
  std::string body;
  bool inFence = false;
  auto flush = [&] {
    if (body.find_first_not_of(" \t\r\n") == std::string::npos && heading.empty()) {
      body.clear();
      return;
    }
    // Long sections become several chunks, cut between paragraphs where possible.
    std::string_view rest = body;
    do {
      std::size_t take = rest.size();
      if (take > limits.maxBytes) {
        take = rest.rfind("\n\n", limits.maxBytes);
        if (take == std::string_view::npos || take < limits.maxBytes / 2) take = limits.maxBytes;
      }
      Chunk chunk;
      chunk.kind = "docs";
      chunk.pageId = pageId;
      chunk.title = heading.empty() ? std::string(pageName) : std::string(pageName) + " \u203a " + heading;
      chunk.content = capBytes(std::string(rest.substr(0, take)), limits.maxBytes);
      chunks.push_back(std::move(chunk));
      rest.remove_prefix(std::min(take, rest.size()));
    } while (!rest.empty() && rest.find_first_not_of(" \t\r\n") != std::string_view::npos);
    body.clear();
  };
  std::size_t start = 0;
  while (start < markdown.size()) {
    std::size_t end = markdown.find('\n', start);
    if (end == std::string_view::npos) end = markdown.size();
    std::string_view line = markdown.substr(start, end - start);
    start = end + 1;
    if (line.rfind("```", 0) == 0) inFence = !inFence;
    if (!inFence && line.rfind('#', 0) == 0) {
      std::size_t level = line.find_first_not_of('#');
      if (level != std::string_view::npos && level <= 6 && line[level] == ' ') {
        flush();
        heading = std::string(line.substr(level + 1));
        continue;
      }
    }
    body.append(line);
    body += '\n';
  }
  flush();
  return chunks;
}

}  // namespace docs_rag
