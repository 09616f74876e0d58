// Kotlin through tree-sitter-kotlin, as Dokka reads it: classes, interfaces, enums,
// objects and companion objects (nested ones under their type), functions, properties
// (those of the primary constructor too), secondary constructors, type aliases and enum
// entries; the KDoc `/** */` right before each; public by default, `private` and
// `internal` ones not (nor anything inside them), `protected` ones public. Heads as Dokka
// shows them, without annotations, bodies and initial values.
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/doc_dialects/javadoc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 24;
constexpr std::size_t kMaxSymbols = 2000;
constexpr int kMaxHeadDepth = 8;
constexpr std::size_t kMaxHeadNodes = 4000;
constexpr int kMaxCommentDescent = 4;

// Whitespace runs as one space, no space just inside brackets or before a comma.

bool isComment(std::string_view type) { return type == "line_comment" || type == "multiline_comment"; }

Node childOfType(const Node& node, std::string_view type) {
  for (const auto& child : node.namedChildren())
    if (child.type() == type) return child;
  return {};
}

bool hasToken(const Node& node, std::string_view token) {
  for (const auto& child : node.children())
    if (!child.named() && child.type() == token) return true;
  return false;
}

bool onlySpaceBetween(std::string_view source, std::uint32_t from, std::uint32_t to) {
  if (from > to || to > source.size()) return false;
  return source.substr(from, to - from).find_first_not_of(" \t\r\n\f") == std::string_view::npos;
}

// The KDoc right before a declaration. The grammar keeps a comment that follows the
// imports inside the import list, so the end of the node before is looked into too.
std::string_view kdocBefore(const Node& declaration, std::string_view source) {
  Node previous = declaration.previousNamedSibling();
  for (int i = 0; i < kMaxCommentDescent && previous && previous.type() != "multiline_comment"; ++i) {
    auto children = previous.namedChildren();
    if (children.empty() || children.back().endByte() != previous.endByte()) return {};
    previous = children.back();
  }
  if (previous.type() != "multiline_comment") return {};
  std::string_view text = previous.text();
  if (!text.starts_with("/**") || text == "/**/") return {};
  if (!onlySpaceBetween(source, previous.endByte(), declaration.startByte())) return {};
  return text;
}

// private and internal are not API; public, protected and no modifier are.
bool declaredPublic(const Node& declaration) {
  Node visibility = childOfType(childOfType(declaration, "modifiers"), "visibility_modifier");
  return visibility.text() != "private" && visibility.text() != "internal";
}

bool hasModifier(const Node& declaration, std::string_view word) {
  for (const auto& modifier : childOfType(declaration, "modifiers").namedChildren())
    if (modifier.text() == word) return true;
  return false;
}

// Byte ranges a head leaves out: annotations of its modifiers and parameters, comments.
void collectCuts(const Node& node, std::uint32_t end, std::vector<std::pair<std::uint32_t, std::uint32_t>>& cuts,
                 int depth, std::size_t& budget) {
  if (depth > kMaxHeadDepth) return;
  for (const auto& child : node.children()) {
    if (budget == 0 || child.startByte() >= end) return;
    --budget;
    std::string_view type = child.type();
    bool declared = node.type() == "modifiers" || node.type() == "parameter_modifiers";
    if (isComment(type) || (type == "annotation" && declared)) {
      cuts.emplace_back(child.startByte(), child.endByte());
    } else if (child.named() && child.endByte() > child.startByte()) {
      collectCuts(child, end, cuts, depth + 1, budget);
    }
  }
}

// The declaration from its start to `end`, as one line without annotations.
std::string headOf(const Node& declaration, std::uint32_t end) {
  std::uint32_t start = declaration.startByte();
  std::string_view all = declaration.text();
  if (end < start || end - start > all.size()) end = start + static_cast<std::uint32_t>(all.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cuts;
  std::size_t budget = kMaxHeadNodes;
  collectCuts(declaration, end, cuts, 0, budget);
  std::string head;
  std::uint32_t at = start;
  for (const auto& [from, to] : cuts) {
    if (from > at) head.append(all.substr(at - start, std::min(from, end) - at));
    head += ' ';
    at = std::max(at, to);
    if (at >= end) break;
  }
  if (at < end) head.append(all.substr(at - start, end - at));
  return oneLineHead(head);
}

// Where a declaration's head ends: at its body, or a property's value (a `const`'s stays),
// delegate or accessors.
std::uint32_t headEnd(const Node& declaration) {
  std::string_view type = declaration.type();
  bool constant = hasModifier(declaration, "const");
  for (const auto& child : declaration.children()) {
    std::string_view t = child.type();
    if (t == "class_body" || t == "enum_class_body" || t == "function_body" || t == "property_delegate" ||
        t == "getter" || t == "setter" || (t == "=" && !constant && type != "type_alias"))
      return child.startByte();
    if (type == "secondary_constructor" && t == "function_value_parameters") return child.endByte();
  }
  return declaration.endByte();
}

std::string nameOf(const Node& declaration) {
  std::string_view type = declaration.type();
  if (type == "property_declaration" || type == "class_parameter" || type == "enum_entry") {
    Node variable = type == "property_declaration" ? childOfType(declaration, "variable_declaration") : declaration;
    return std::string(childOfType(variable, "simple_identifier").text());
  }
  if (type == "function_declaration") return std::string(childOfType(declaration, "simple_identifier").text());
  std::string name(childOfType(declaration, "type_identifier").text());
  if (name.empty() && type == "companion_object") return "Companion";
  return name;
}

std::string typeKind(const Node& declaration) {
  if (declaration.type() != "class_declaration") return "object";
  if (hasToken(declaration, "interface")) return "interface";
  if (hasToken(declaration, "enum")) return "enum";
  if (hasModifier(declaration, "annotation")) return "annotation";
  return "class";
}

class KotlinReader {
 public:
  explicit KotlinReader(std::string_view source) : source_(source) {}

  // The declarations of a body (the file, a class's or object's body).
  void members(const Node& body, const std::string& scope, bool publicScope, const std::string& typeName, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& child : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      bool visible = publicScope && declaredPublic(child);
      if (type == "class_declaration" || type == "object_declaration" || type == "companion_object") {
        typeDeclaration(child, scope, visible, depth);
      } else if (type == "function_declaration") {
        add(child, child, nameOf(child), scope.empty() ? "function" : "method", scope, visible);
      } else if (type == "property_declaration") {
        add(child, withAccessors(child), nameOf(child), "property", scope, visible);
      } else if (type == "secondary_constructor") {
        add(child, child, typeName, "constructor", scope, visible);
      } else if (type == "type_alias") {
        add(child, child, nameOf(child), "type", scope, visible);
      } else if (type == "enum_entry") {
        add(child, child, nameOf(child), "constant", scope, publicScope);
      } else if (type == "ERROR") {
        members(child, scope, publicScope, typeName, depth + 1);  // what a syntax error wraps
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  void typeDeclaration(const Node& declaration, const std::string& scope, bool visible, int depth) {
    std::string name = nameOf(declaration);
    if (!add(declaration, declaration, name, typeKind(declaration), scope, visible)) return;
    std::string inner = scope.empty() ? name : scope + "." + name;
    // `class A(val x: Int)`: the primary constructor's val and var are properties.
    for (const auto& parameter : childOfType(declaration, "primary_constructor").namedChildren()) {
      if (parameter.type() != "class_parameter" || !childOfType(parameter, "binding_pattern_kind")) continue;
      add(parameter, parameter, nameOf(parameter), "property", inner, visible && declaredPublic(parameter));
    }
    Node body = childOfType(declaration, "class_body");
    if (!body) body = childOfType(declaration, "enum_class_body");
    members(body, inner, visible, name, depth + 1);
  }

  // The grammar leaves a property's get() and set() beside it; they are part of it.
  static Node withAccessors(const Node& property) {
    Node last = property;
    for (Node next = property.nextNamedSibling(); next.type() == "getter" || next.type() == "setter";
         next = next.nextNamedSibling())
      last = next;
    return last;
  }

  bool add(const Node& declaration, const Node& last, std::string name, std::string kind, const std::string& scope,
           bool visible) {
    if (name.empty()) return false;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = headOf(declaration, headEnd(declaration));
    s.line = declaration.startLine();
    s.end = last.endLine();
    s.visibility = visible ? "public" : "private";
    std::string_view comment = kdocBefore(declaration, source_);
    if (!comment.empty()) {
      attachDoc(s, renderKdoc(comment));
    }
    symbols_.push_back(std::move(s));
    return true;
  }

  std::string_view source_;
  std::vector<Symbol> symbols_;
};

}  // namespace

std::optional<ParsedFile> readKotlinDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("kotlin", path), text);
  if (!tree) return std::nullopt;
  ParsedFile out;  // Kotlin has no package doc in its files (Dokka reads it from a Markdown file)
  KotlinReader reader(tree->source());
  reader.members(tree->root(), "", true, "", 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
