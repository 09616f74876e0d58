// Python through tree-sitter-python: modules, classes (nested), functions, methods and
// properties; docstrings whole (PEP 257: the first statement's string); `_` names, and
// names a module's `__all__` leaves out, are private; `__init__` is the class's
// constructor and public; `@overload` stubs give way to the implementation.
#include <algorithm>
#include <set>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/python_docstring.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 24;              // classes in classes in functions...
constexpr std::size_t kMaxSymbols = 2000;  // as ctags' reading keeps

// Whitespace runs (line breaks and indentation of a long signature) as one space, and
// no space just inside brackets.
std::string oneLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '(' || out.back() == '[')) continue;
    if ((c == ')' || c == ']') && !out.empty() && out.back() == ' ') out.pop_back();
    if (c == ')' && !out.empty() && out.back() == ',') out.pop_back();  // a trailing comma
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A string literal's content: the prefix and quotes gone, escapes of a non-raw string read.
std::string stringContent(std::string_view literal) {
  std::size_t prefix = 0;
  while (prefix < literal.size() && std::isalpha(static_cast<unsigned char>(literal[prefix]))) ++prefix;
  bool raw = literal.substr(0, prefix).find_first_of("rR") != std::string_view::npos;
  std::string_view body = literal.substr(prefix);
  std::size_t quote = body.starts_with("\"\"\"") || body.starts_with("'''") ? 3 : 1;
  if (body.size() < 2 * quote) return {};
  body = body.substr(quote, body.size() - 2 * quote);
  if (raw) return std::string(body);
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    char next = body[++i];
    switch (next) {
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case '\n': break;  // a continued line
      default: out += '\\'; out += next;
    }
  }
  return out;
}

// The docstring of a body (a block, or the module): its first statement, when a string.
std::string docstringOf(const Node& body) {
  for (const auto& statement : body.namedChildren()) {
    if (statement.type() == "comment") continue;
    if (statement.type() != "expression_statement") return {};
    auto parts = statement.namedChildren();
    if (parts.size() != 1 || parts[0].type() != "string") return {};
    return stringContent(parts[0].text());
  }
  return {};
}

// __all__ = [...] / (...) at module level: the names it lists.
std::optional<std::set<std::string>> allNames(const Node& module) {
  std::optional<std::set<std::string>> names;
  for (const auto& statement : module.namedChildren()) {
    if (statement.type() != "expression_statement") continue;
    for (const auto& expression : statement.namedChildren()) {
      if (expression.type() != "assignment" && expression.type() != "augmented_assignment") continue;
      if (expression.field("left").text() != "__all__") continue;
      Node right = expression.field("right");
      if (right.type() != "list" && right.type() != "tuple") continue;
      if (!names) names.emplace();
      for (const auto& item : right.namedChildren())
        if (item.type() == "string") names->insert(stringContent(item.text()));
    }
  }
  return names;
}

// The names `__all__` lists, in its order, with the line each is on.
std::vector<std::pair<std::string, int>> allEntries(const Node& module) {
  std::vector<std::pair<std::string, int>> entries;
  for (const auto& statement : module.namedChildren()) {
    if (statement.type() != "expression_statement") continue;
    for (const auto& expression : statement.namedChildren()) {
      if (expression.type() != "assignment" && expression.type() != "augmented_assignment") continue;
      if (expression.field("left").text() != "__all__") continue;
      Node right = expression.field("right");
      if (right.type() != "list" && right.type() != "tuple") continue;
      for (const auto& item : right.namedChildren())
        if (item.type() == "string") entries.emplace_back(stringContent(item.text()), item.startLine());
    }
  }
  return entries;
}

std::string decoratorName(const Node& decorator) {
  std::string text(decorator.text());
  if (!text.empty() && text[0] == '@') text.erase(0, 1);
  auto paren = text.find('(');
  if (paren != std::string::npos) text.resize(paren);
  return oneLine(text);
}

class PythonReader {
 public:
  PythonReader(std::optional<std::set<std::string>> exported) : exported_(std::move(exported)) {}

  void block(const Node& body, const std::string& scope, bool privateScope, int depth) {
    if (depth > kMaxDepth) return;
    // Names an implementation defines in this block (so @overload stubs before it give way).
    std::set<std::string> implemented;
    for (const auto& child : body.namedChildren()) {
      Node definition = child.type() == "decorated_definition" ? child.field("definition") : child;
      if (definition.type() != "function_definition") continue;
      bool overload = false;
      for (const auto& d : child.namedChildren())
        if (d.type() == "decorator") overload = overload || decoratorName(d).ends_with("overload");
      if (!overload) implemented.insert(std::string(definition.field("name").text()));
    }
    std::set<std::string> stubShown;
    for (const auto& child : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      // Definitions made under a condition (if TYPE_CHECKING, try/except ImportError) are
      // still the module's.
      if (scope.empty() && (type == "if_statement" || type == "try_statement")) {
        for (const auto& part : child.namedChildren()) {
          if (part.type() == "block") block(part, scope, privateScope, depth + 1);
          for (const auto& inner : part.namedChildren())
            if (inner.type() == "block") block(inner, scope, privateScope, depth + 1);
        }
        continue;
      }
      Node definition = child;
      std::vector<std::string> decorators;
      if (type == "decorated_definition") {
        definition = child.field("definition");
        for (const auto& d : child.namedChildren())
          if (d.type() == "decorator") decorators.push_back(decoratorName(d));
      }
      if (definition.type() == "function_definition")
        function(child, definition, decorators, scope, privateScope, implemented, stubShown);
      else if (definition.type() == "class_definition") type_(child, definition, scope, privateScope, depth);
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  bool isPrivateName(const std::string& name, const std::string& scope) const {
    if (name.size() > 4 && name.starts_with("__") && name.ends_with("__"))
      return name != "__init__" && name != "__call__" && name != "__new__";
    if (!name.empty() && name[0] == '_') return true;
    return scope.empty() && exported_ && !exported_->count(name);
  }

  void document(Symbol& s, const Node& body) {
    std::string docstring = docstringOf(body);
    if (docstring.empty()) return;
    s.doc = pythonDocstringMarkdown(docstring);
    s.summary = doc_text::firstSentence(s.doc);
    s.markdownDoc = true;
  }

  void function(const Node& whole, const Node& def, const std::vector<std::string>& decorators,
                const std::string& scope, bool privateScope, const std::set<std::string>& implemented,
                std::set<std::string>& stubShown) {
    Symbol s;
    s.name = std::string(def.field("name").text());
    if (s.name.empty()) return;
    bool overload = false, property = false;
    for (const auto& d : decorators) {
      if (d.ends_with("overload")) overload = true;
      if (d == "property" || d.ends_with("cached_property")) property = true;
      // A property's setter and deleter belong to the property already listed.
      if (d.ends_with(".setter") || d.ends_with(".deleter") || d.ends_with(".getter")) return;
    }
    if (overload && (implemented.count(s.name) || !stubShown.insert(s.name).second)) return;
    s.scope = scope;
    s.kind = property ? "property" : scope.empty() ? "function" : "method";
    Node returns = def.field("return_type");
    if (property) {
      s.signature = s.name + (returns ? ": " + oneLine(returns.text()) : std::string());
    } else {
      bool async = !def.children().empty() && def.children()[0].type() == "async";
      s.signature = std::string(async ? "async " : "") + "def " + s.name + oneLine(def.field("parameters").text()) +
                    (returns ? " -> " + oneLine(returns.text()) : std::string());
    }
    s.line = whole.startLine();
    s.end = whole.endLine();
    s.visibility = privateScope || isPrivateName(s.name, scope) ? "private" : "public";
    document(s, def.field("body"));
    symbols_.push_back(std::move(s));
  }

  void type_(const Node& whole, const Node& def, const std::string& scope, bool privateScope, int depth) {
    Symbol s;
    s.name = std::string(def.field("name").text());
    if (s.name.empty()) return;
    s.kind = "class";
    s.scope = scope;
    Node bases = def.field("superclasses");
    s.signature = "class " + s.name + (bases ? oneLine(bases.text()) : std::string());
    s.line = whole.startLine();
    s.end = whole.endLine();
    bool hidden = privateScope || isPrivateName(s.name, scope);
    s.visibility = hidden ? "private" : "public";
    document(s, def.field("body"));
    std::string inner = scope.empty() ? s.name : scope + "." + s.name;
    symbols_.push_back(std::move(s));
    block(def.field("body"), inner, hidden, depth + 1);
  }

  std::optional<std::set<std::string>> exported_;
  std::vector<Symbol> symbols_;
};

// A package's `__init__.py` re-exports its API from its modules (`from ._client import
// Client`): one "reexport" per name, public when `__all__` lists it (or, without one, when
// its name is public); the analysis carries the doc of what it names. Only relative
// imports count: `from typing import Any` is no API.
void packageReexports(const Node& module, const std::optional<std::set<std::string>>& exported,
                      std::vector<Symbol>& symbols) {
  bool wildcard = false;
  for (const auto& statement : module.namedChildren()) {
    if (statement.type() != "import_from_statement") continue;
    Node from = statement.field("module_name");
    if (!from.text().starts_with(".")) continue;
    for (const auto& child : statement.namedChildren()) wildcard = wildcard || child.type() == "wildcard_import";
    std::string signature = oneLine(statement.text());
    for (const auto& name : statement.fieldAll("name")) {
      std::string exportedAs(name.type() == "aliased_import" ? name.field("alias").text() : name.text());
      if (exportedAs.empty() || exportedAs.find('.') != std::string::npos) continue;
      bool visible = exported ? exported->count(exportedAs) > 0 : !exportedAs.starts_with("_");
      Symbol s;
      s.name = exportedAs;
      s.kind = "reexport";
      s.signature = signature;
      s.line = statement.startLine();
      s.end = statement.endLine();
      s.visibility = visible ? "public" : "private";
      symbols.push_back(std::move(s));
    }
  }
  // `from ._client import *` with `__all__`: each name `__all__` lists and the file does
  // not bind comes from one of those modules (the analysis finds which: kWildcardReexport).
  if (!wildcard || !exported) return;
  std::set<std::string> bound;
  for (const auto& s : symbols) bound.insert(s.name);
  for (const auto& [name, line] : allEntries(module)) {
    if (!bound.insert(name).second) continue;
    Symbol s;
    s.name = name;
    s.kind = "reexport";
    s.signature = std::string(kWildcardReexport);
    s.line = line;  // where `__all__` names it
    s.end = line;
    s.visibility = "public";
    symbols.push_back(std::move(s));
  }
}

}  // namespace

std::optional<ParsedFile> readPythonDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("python", path), text);
  if (!tree) return std::nullopt;
  Node module = tree->root();
  ParsedFile out;
  std::string docstring = docstringOf(module);
  if (!docstring.empty()) out.doc = pythonDocstringMarkdown(docstring);
  auto exported = allNames(module);
  PythonReader reader(exported);
  reader.block(module, "", false, 0);
  out.symbols = reader.take();
  if (path == "__init__.py" || path.ends_with("/__init__.py")) packageReexports(module, exported, out.symbols);
  return out;
}

}  // namespace docs_generation
