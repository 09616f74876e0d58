#include "analysis/syntax/c_tokens.hpp"

#include <cctype>
#include <string_view>
#include <vector>

namespace docs_generation::syntax {

namespace {

bool identifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// A token of the code (comments, strings and preprocessor lines are not tokens here).
struct Token {
  std::size_t start = 0, end = 0;
  bool identifier = false;
};

class Lexer {
 public:
  explicit Lexer(const std::string& source) : s_(source) {}

  std::vector<Token> tokens() {
    std::vector<Token> out;
    bool lineStart = true;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        lineStart = true;
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (c == '#' && lineStart) {
        preprocessorLine();
      } else if (c == '/' && next() == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && next() == '*') {
        auto end = s_.find("*/", i_ + 2);
        i_ = end == std::string::npos ? s_.size() : end + 2;
      } else if (c == '"' || c == '\'') {
        lineStart = false;
        std::size_t start = i_;
        if (c == '"' && start > 0 && s_[start - 1] == 'R') rawString();
        else quoted(c);
        out.push_back({start, i_, false});
      } else if (identifierStart(c)) {
        lineStart = false;
        std::size_t start = i_;
        while (i_ < s_.size() && identifierChar(s_[i_])) ++i_;
        out.push_back({start, i_, true});
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        lineStart = false;
        std::size_t start = i_;
        // 1'000'000 (a digit separator is no character literal)
        while (i_ < s_.size() && (identifierChar(s_[i_]) || s_[i_] == '.' || s_[i_] == '\'')) ++i_;
        out.push_back({start, i_, false});
      } else {
        lineStart = false;
        out.push_back({i_, i_ + 1, false});
        ++i_;
      }
    }
    return out;
  }

 private:
  char next() const { return i_ + 1 < s_.size() ? s_[i_ + 1] : '\0'; }

  void preprocessorLine() {  // to the end of the line, continuations and comments included
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        i_ += s_[i_ + 1] == '\r' && i_ + 2 < s_.size() && s_[i_ + 2] == '\n' ? 3 : 2;
        continue;
      }
      if (s_[i_] == '/' && next() == '*') {
        auto end = s_.find("*/", i_ + 2);
        i_ = end == std::string::npos ? s_.size() : end + 2;
        continue;
      }
      ++i_;
    }
  }

  void quoted(char quote) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote && s_[i_] != '\n') i_ += s_[i_] == '\\' ? 2 : 1;
    if (i_ < s_.size() && s_[i_] == quote) ++i_;
    i_ = std::min(i_, s_.size());
  }

  void rawString() {  // R"delimiter( ... )delimiter"
    auto open = s_.find('(', i_);
    if (open == std::string::npos || open - i_ > 17) return quoted('"');
    std::string close = ")" + s_.substr(i_ + 1, open - i_ - 1) + "\"";
    auto end = s_.find(close, open);
    i_ = end == std::string::npos ? s_.size() : end + close.size();
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

// FMT_API, LEVELDB_EXPORT, Q_DECL_CONSTEXPR: upper case, digits and underscores, with a
// letter and more than one character.
bool macroShaped(std::string_view word) {
  if (word.size() < 2) return false;
  bool letter = false;
  for (char c : word) {
    if (std::islower(static_cast<unsigned char>(c))) return false;
    letter = letter || std::isupper(static_cast<unsigned char>(c));
  }
  return letter;
}

bool tagKeyword(std::string_view word) {
  return word == "struct" || word == "class" || word == "union" || word == "enum";
}

}  // namespace

std::string withoutAnnotationMacros(std::string source) {
  std::vector<Token> tokens = Lexer(source).tokens();
  auto text = [&](std::size_t k) {
    return k < tokens.size() ? std::string_view(source).substr(tokens[k].start, tokens[k].end - tokens[k].start)
                             : std::string_view();
  };
  auto isName = [&](std::size_t k) { return k < tokens.size() && tokens[k].identifier; };
  std::vector<std::pair<std::size_t, std::size_t>> blanks;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!isName(k) || !macroShaped(text(k))) continue;
    std::string_view before = k > 0 ? text(k - 1) : std::string_view();
    std::string_view twoBefore = k > 1 ? text(k - 2) : std::string_view();
    // A member (`x.FOO`, `p->FOO`) or a qualified name's part (`ns::FOO`) is no annotation.
    if (before == "." || (before == ">" && twoBefore == "-") || (before == ":" && twoBefore == ":")) continue;
    std::size_t after = k + 1;
    if (text(after) == "(") {  // NAME(...) followed by a declaration
      int depth = 0;
      std::size_t j = after;
      for (; j < tokens.size() && j < after + 512; ++j) {
        if (text(j) == "(") ++depth;
        else if (text(j) == ")" && --depth == 0) break;
      }
      if (depth != 0 || j >= tokens.size()) continue;
      after = j + 1;
      // Only where a declaration starts or continues: after `;`, a brace, a template's
      // `>`, `public:` or another such macro; never `if FMT_CONSTEXPR20 (x)`.
      bool declarationPlace = before.empty() || before == ";" || before == "{" || before == "}" || before == ">" ||
                              before == ":" || before == "]" || tagKeyword(before) ||
                              (k > 0 && tokens[k - 1].identifier && macroShaped(before));
      if (!isName(after) || !declarationPlace) continue;
      blanks.emplace_back(tokens[k].start, tokens[j].end);
      continue;
    }
    // `unsigned char x FMT_BUILTIN)` and `void f() FMT_NOEXCEPT;`: a macro after a
    // parameter's name or a parameter list.
    std::string_view next = text(after);
    bool afterParameter = k > 0 && tokens[k - 1].identifier && !macroShaped(before) && (next == ")" || next == ",");
    bool afterParameters = before == ")" && (next == ";" || next == "{" || next == "=" || next == "-");
    if (afterParameter || afterParameters) {
      blanks.emplace_back(tokens[k].start, tokens[k].end);
      continue;
    }
    if (!isName(after) && text(after) != "~") continue;
    // `struct FOO bar;` declares a variable of type `struct FOO`: the name after a tag
    // keyword is a macro only when the class's own name, a base list or body follows.
    if (tagKeyword(before)) {
      std::string_view then = text(after + 1);
      if (then != "{" && then != ":" && then != "final") continue;
    }
    blanks.emplace_back(tokens[k].start, tokens[k].end);
  }
  for (const auto& [from, to] : blanks)
    for (std::size_t i = from; i < to; ++i)
      if (source[i] != '\n') source[i] = ' ';
  return source;
}

std::string withTemplateMacrosAsParameters(std::string source) {
  std::vector<Token> tokens = Lexer(source).tokens();
  auto text = [&](std::size_t k) {
    return k < tokens.size() ? std::string_view(source).substr(tokens[k].start, tokens[k].end - tokens[k].start)
                             : std::string_view();
  };
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (text(k) != "template" || text(k + 1) != "<") continue;
    // The parameter list: angle brackets and parentheses counted to its closing '>'.
    int angles = 0, parens = 0;
    for (std::size_t j = k + 1; j < tokens.size() && j < k + 2048; ++j) {
      std::string_view token = text(j);
      if (token == "(") ++parens;
      else if (token == ")") --parens;
      else if (parens == 0 && token == "<") ++angles;
      else if (parens == 0 && token == ">" && --angles == 0) break;
      if (angles != 1 || parens != 0 || !tokens[j].identifier || !macroShaped(token) || text(j + 1) != "(") continue;
      std::string_view before = text(j - 1);
      if (before != "," && before != "<") continue;
      int depth = 0;
      std::size_t close = j + 1;
      for (; close < tokens.size() && close < j + 1024; ++close) {
        if (text(close) == "(") ++depth;
        else if (text(close) == ")" && --depth == 0) break;
      }
      std::string_view after = text(close + 1);
      if (depth != 0 || (after != ">" && after != ",")) continue;
      calls.emplace_back(tokens[j].start, tokens[close].end);
    }
  }
  for (const auto& [from, to] : calls) {
    if (to - from < 3) continue;
    for (std::size_t i = from; i < to; ++i)
      if (source[i] != '\n') source[i] = ' ';
    source.replace(from, 3, "int");
  }
  return source;
}

namespace {

// What a '{' at file, namespace or class level opens, judged from its statement's tokens.
class BraceKinds {
 public:
  BraceKinds(const std::vector<Token>& tokens, const std::string& source) : tokens_(tokens), source_(source) {}

  std::string_view text(std::size_t k) const {
    return k < tokens_.size() ? std::string_view(source_).substr(tokens_[k].start, tokens_[k].end - tokens_[k].start)
                              : std::string_view();
  }

  // `Box(int w) : w_(w), h_{2} {`: the brace of a member's initialiser, after the
  // parameter list's `)` and a lone `:`, right after the member's name.
  bool memberInitializer(std::size_t start, std::size_t brace) const {
    if (brace == 0 || brace <= start || !tokens_[brace - 1].identifier) return false;
    std::string_view before = text(brace - 1);
    if (before == "const" || before == "noexcept" || before == "override" || before == "final" || before == "mutable" ||
        before == "volatile" || before == "try")
      return false;
    int parens = 0;
    bool parameters = false;
    for (std::size_t k = start; k < brace; ++k) {
      std::string_view token = text(k);
      if (token == "(") ++parens;
      else if (token == ")" && parens > 0 && --parens == 0) parameters = true;
      else if (parens == 0 && parameters && token == ":" && text(k - 1) != ":" && text(k + 1) != ":") return true;
    }
    return false;
  }

  // Whether the statement [start, brace) ending at a '{' declares a function with a body.
  bool functionBody(std::size_t start, std::size_t brace) const {
    std::size_t i = start;
    if (text(i) == "template" && text(i + 1) == "<") i = pastAngles(i + 1, brace);
    while (i < brace && (text(i) == "typedef" || text(i) == "export" || text(i) == "inline")) ++i;
    if (text(i) == "extern" && !text(i + 1).empty() && text(i + 1).front() == '"') return false;  // extern "C" {
    if (text(i) == "namespace") return false;
    if (text(i) == "class" || text(i) == "struct" || text(i) == "union" || text(i) == "enum") {
      // `struct Name<args> final : Base {` is a type; `struct foo *make(void) {` (C) a function.
      ++i;
      if (text(i) == "class" || text(i) == "struct") ++i;  // enum class
      while (i < brace && (tokens_[i].identifier || text(i) == ":") && text(i) != "final") {
        if (text(i) == ":" && text(i + 1) != ":") break;  // a base list, not `a::b`
        ++i;
      }
      if (text(i) == "<") i = pastAngles(i, brace);
      if (i >= brace || text(i) == "{" || text(i) == ":" || text(i) == "final") return false;
    }
    // A function: a parameter list at this level, no initialiser before it.
    int parens = 0;
    bool parameters = false;
    for (std::size_t k = start; k < brace; ++k) {
      std::string_view token = text(k);
      if (token == "(") ++parens;
      else if (token == ")" && parens > 0 && --parens == 0) parameters = true;
      else if (token == "=" && parens == 0 && !parameters) return false;  // `= {`, `= [](...) {`
    }
    return parameters;
  }

 private:
  // The token after the '>' closing the '<' at `open` (parentheses counted apart).
  std::size_t pastAngles(std::size_t open, std::size_t limit) const {
    int angles = 0, parens = 0;
    for (std::size_t k = open; k < limit; ++k) {
      std::string_view token = text(k);
      if (token == "(") ++parens;
      else if (token == ")") --parens;
      else if (parens == 0 && token == "<") ++angles;
      else if (parens == 0 && token == ">" && --angles == 0) return k + 1;
    }
    return limit;
  }

  const std::vector<Token>& tokens_;
  const std::string& source_;
};

}  // namespace

std::string withoutFunctionBodies(std::string source) {
  std::vector<Token> tokens = Lexer(source).tokens();
  BraceKinds kinds(tokens, source);
  // Matching braces, found once: close[k] for each '{' (or none).
  std::vector<std::size_t> close(tokens.size(), std::string::npos), open;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (kinds.text(k) == "{") {
      open.push_back(k);
    } else if (kinds.text(k) == "}" && !open.empty()) {
      close[open.back()] = k;
      open.pop_back();
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> bodies;
  std::size_t statement = 0;  // where the current statement at this level starts
  int parens = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    std::string_view token = kinds.text(k);
    if (token == "(") ++parens;
    else if (token == ")" && parens > 0) --parens;
    if (parens > 0 || token == ")" || token == "(") continue;
    if (token == ";" || token == "}") {
      statement = k + 1;
    } else if (token == ":" && k > 0 &&
               (kinds.text(k - 1) == "public" || kinds.text(k - 1) == "private" || kinds.text(k - 1) == "protected")) {
      statement = k + 1;
    } else if (token == "{") {
      if (k > 0 && kinds.text(k - 1) == "=" && close[k] != std::string::npos) {
        // `static const T table[] = { ... };`: a value (often a generated table of
        // thousands of numbers) says nothing of the declaration.
        bodies.emplace_back(tokens[k].end, tokens[close[k]].start);
        k = close[k];
        continue;
      }
      if (kinds.memberInitializer(statement, k) && close[k] != std::string::npos) {
        k = close[k];  // `h_{2}` among a constructor's initialisers: the statement goes on
        continue;
      }
      if (kinds.functionBody(statement, k) && close[k] != std::string::npos) {
        bodies.emplace_back(tokens[k].end, tokens[close[k]].start);
        k = close[k];
      }
      statement = k + 1;
    }
  }
  for (const auto& [from, to] : bodies)
    for (std::size_t i = from; i < to; ++i)
      if (source[i] != '\n') source[i] = ' ';
  return source;
}

std::vector<NamespaceRange> namespaceRanges(const std::string& source) {
  std::vector<Token> tokens = Lexer(source).tokens();
  auto text = [&](std::size_t k) {
    return k < tokens.size() ? std::string_view(source).substr(tokens[k].start, tokens[k].end - tokens[k].start)
                             : std::string_view();
  };
  std::vector<NamespaceRange> out;
  // Open braces: the index in `out` of the namespace each opens, or -1.
  std::vector<long> open;
  constexpr std::size_t kMaxDepth = 4096;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    std::string_view token = text(k);
    if (token == "{") {
      long opened = -1;
      // `namespace a::b {`, `inline namespace v1 {`, `namespace {`: back over the name.
      std::size_t j = k;
      std::string name;
      while (j > 0 && (tokens[j - 1].identifier || text(j - 1) == ":") && text(j - 1) != "namespace") --j;
      if (j > 0 && text(j - 1) == "namespace") {
        for (std::size_t n = j; n < k; ++n) name += text(n);
        out.push_back({name, tokens[k].start, source.size()});
        opened = static_cast<long>(out.size()) - 1;
      }
      if (open.size() < kMaxDepth) open.push_back(opened);
    } else if (token == "}" && !open.empty()) {
      if (open.back() >= 0) out[static_cast<std::size_t>(open.back())].end = tokens[k].end;
      open.pop_back();
    }
  }
  return out;
}

}  // namespace docs_generation::syntax
