#include "analysis/doc_dialects/rustdoc.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

namespace {

constexpr int kMaxLinkNesting = 8;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool isUrl(std::string_view target) {
  return target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:");
}

// A fence's info string names Rust (rustdoc's default) unless it names another language.
bool rustFence(std::string_view info) {
  static const std::set<std::string, std::less<>> kRustWords = {
      "rust",        "ignore",      "no_run",      "should_panic", "compile_fail",     "test_harness",
      "edition2015", "edition2018", "edition2021", "edition2024",  "standalone_crate", "allow_fail"};
  std::string word;
  bool other = false;
  for (char c : std::string(info) + ",") {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!word.empty() && !kRustWords.count(word) && !word.starts_with("ignore-") && !word.starts_with("{"))
        other = true;
      word.clear();
    } else {
      word += c;
    }
  }
  return !other;
}

// A line of prose: intra-doc links to their text; links to addresses stay.
std::string proseLine(std::string_view line, const std::set<std::string, std::less<>>& urlRefs) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '`') {  // a code span is copied as is
      std::size_t ticks = 0;
      while (i + ticks < line.size() && line[i + ticks] == '`') ++ticks;
      std::string fence(ticks, '`');
      auto close = line.find(fence, i + ticks);
      if (close == std::string_view::npos) {
        out.append(line.substr(i));
        break;
      }
      out.append(line.substr(i, close + ticks - i));
      i = close + ticks;
      continue;
    }
    if (c != '[' || (i > 0 && line[i - 1] == '\\') || (i > 0 && line[i - 1] == '!')) {
      out += c;
      ++i;
      continue;
    }
    // The link text, with nested code spans.
    std::size_t j = i + 1;
    int depth = 1, deepest = 1;
    bool inCode = false;
    for (; j < line.size(); ++j) {
      if (line[j] == '`') inCode = !inCode;
      if (inCode) continue;
      if (line[j] == '[') deepest = std::max(deepest, ++depth);
      if (line[j] == ']' && --depth == 0) break;
    }
    // Unclosed, or nested past what any link needs (the text is read recursively).
    if (j >= line.size() || deepest > kMaxLinkNesting) {
      out += c;
      ++i;
      continue;
    }
    std::string_view text = line.substr(i + 1, j - i - 1);
    std::size_t after = j + 1;
    if (after < line.size() && line[after] == '(') {
      auto close = line.find(')', after);
      if (close != std::string_view::npos) {
        std::string_view target = trimmed(line.substr(after + 1, close - after - 1));
        if (isUrl(target)) out.append(line.substr(i, close + 1 - i));
        else out += proseLine(text, urlRefs);
        i = close + 1;
        continue;
      }
    }
    if (after < line.size() && line[after] == '[') {
      auto close = line.find(']', after);
      if (close != std::string_view::npos) {
        std::string ref(line.substr(after + 1, close - after - 1));
        if (urlRefs.count(ref.empty() ? std::string(text) : ref)) out.append(line.substr(i, close + 1 - i));
        else out += proseLine(text, urlRefs);
        i = close + 1;
        continue;
      }
    }
    // A shortcut reference: [`Foo`] or [Foo], unless it names an address defined below.
    if (urlRefs.count(std::string(text))) out.append(line.substr(i, after - i));
    else out += proseLine(text, urlRefs);
    i = after;
  }
  return out;
}

}  // namespace

std::string rustdocMarkdown(std::string_view text) {
  std::string unindented = doc_text::cleanIndentation("\n" + std::string(text));
  std::vector<std::string_view> lines;
  std::string_view rest = unindented;
  while (true) {
    auto end = rest.find('\n');
    lines.push_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  // Reference definitions: those to addresses stay links; intra-doc ones go.
  std::set<std::string, std::less<>> urlRefs;
  std::vector<bool> definition(lines.size(), false);
  bool inFence = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trimmed(lines[i]);
    if (t.starts_with("```") || t.starts_with("~~~")) inFence = !inFence;
    if (inFence || !t.starts_with('[')) continue;
    auto close = t.find("]:");
    if (close == std::string_view::npos) continue;
    definition[i] = true;
    if (isUrl(trimmed(t.substr(close + 2)))) urlRefs.insert(std::string(t.substr(1, close - 1)));
  }
  std::string out;
  inFence = false;
  bool rustBlock = false;
  std::string fence;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::string_view t = trimmed(line);
    if (!inFence && (t.starts_with("```") || t.starts_with("~~~"))) {
      inFence = true;
      std::size_t marks = 0;
      while (marks < t.size() && t[marks] == t[0]) ++marks;
      fence = std::string(t.substr(0, marks));
      std::string_view info = trimmed(t.substr(marks));
      rustBlock = rustFence(info);
      // The fence keeps its indentation: inside a list item it belongs to the item.
      std::string_view indent = line.substr(0, line.find_first_not_of(" \t"));
      out += std::string(indent) + fence + (rustBlock ? "rust" : std::string(info)) + "\n";
      continue;
    }
    if (inFence) {
      if (t.starts_with(fence) && trimmed(t.substr(fence.size())).empty()) {
        inFence = false;
        out += std::string(line.substr(0, line.find_first_not_of(" \t"))) + fence + "\n";
        continue;
      }
      if (rustBlock) {
        // rustdoc hides "# line" and "#" in Rust examples; "##" shows as "#".
        if (t == "#" || t.starts_with("# ")) continue;
        if (t.starts_with("##")) {
          auto at = line.find("##");
          out += std::string(line.substr(0, at)) + std::string(line.substr(at + 1)) + "\n";
          continue;
        }
      }
      out += std::string(line) + "\n";
      continue;
    }
    if (definition[i]) {
      std::string_view target = trimmed(t.substr(t.find("]:") + 2));
      if (isUrl(target)) out += std::string(line) + "\n";
      continue;
    }
    out += proseLine(line, urlRefs) + "\n";
  }
  if (inFence) out += fence + "\n";  // an unclosed example still ends
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace docs_generation
