#include "chunker.hpp"

#include <algorithm>
#include <set>

namespace docs::rag {

namespace {

// Kinds that stand for a definition worth its own chunk (Universal Ctags' names).
const std::set<std::string, std::less<>> kDefinitionKinds = {
    "function", "method", "class", "struct", "interface", "enum", "trait", "impl", "module", "macro",
    "type", "typedef", "union", "protocol", "object", "subroutine", "procedure", "func", "constructor"};

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
  std::sort(defs.begin(), defs.end(), [](auto* a, auto* b) { return a->line != b->line ? a->line < b->line : a->end > b->end; });
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
      chunk.title = span.symbol->signature.empty() ? span.symbol->doc.substr(0, 300)
                                                   : span.symbol->name + span.symbol->signature;
      chunk.doc = span.symbol->doc;
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
      chunk.content = joinLines(lines, from, to, limits.maxBytes);
      chunks.push_back(std::move(chunk));
    }
  }
  std::sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.startLine < b.startLine; });
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
    if (!inFence && line.rfind("#", 0) == 0) {
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

}  // namespace docs::rag
