// Java through tree-sitter-java, as javadoc reads it: classes, interfaces, enums, records
// and annotation types (nested ones under their type), methods, constructors, fields and
// enum constants; the `/** */` comment right before each (its annotations between them are
// part of the declaration); `public` and `protected` members of public types public,
// interface members public unless private, package-private and private ones not; nothing
// in an `internal` or `impl` package public. Heads as javadoc shows them, without
// annotations and bodies; `package-info.java` gives the package's doc.
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

constexpr int kMaxDepth = 24;              // types in types...
constexpr std::size_t kMaxSymbols = 2000;  // as ctags' reading keeps
constexpr int kMaxHeadDepth = 8;           // how deep a head is searched for annotations and comments
constexpr std::size_t kMaxHeadNodes = 4000;

// Whitespace runs (line breaks and indentation of a long head) as one space, and no space
// just inside brackets or before a comma.

bool isComment(std::string_view type) { return type == "line_comment" || type == "block_comment"; }

bool isAnnotation(std::string_view type) { return type == "annotation" || type == "marker_annotation"; }

bool onlySpaceBetween(std::string_view source, std::uint32_t from, std::uint32_t to) {
  if (from > to || to > source.size()) return false;
  return source.substr(from, to - from).find_first_not_of(" \t\r\n\f") == std::string_view::npos;
}

// The `/** */` comment right before a declaration: only whitespace between (a plain
// comment in between means it documents nothing here).
std::string_view docCommentBefore(const Node& declaration, std::string_view source) {
  // As javadoc reads it: the last `/** */` before the declaration, plain comments between
  // them skipped (a class doc above a block of `//` lines still documents the class).
  Node previous = declaration.previousNamedSibling();
  std::uint32_t end = declaration.startByte();
  for (int skipped = 0; skipped < 64 && previous; ++skipped) {
    if (!onlySpaceBetween(source, previous.endByte(), end)) return {};
    std::string_view text = previous.text();
    if (previous.type() == "block_comment" && text.starts_with("/**") && text != "/**/") return text;
    if (previous.type() != "line_comment" && previous.type() != "block_comment") return {};
    end = previous.startByte();
    previous = previous.previousNamedSibling();
  }
  return {};
}

Node modifiersOf(const Node& declaration) {
  for (const auto& child : declaration.namedChildren())
    if (child.type() == "modifiers") return child;
  return {};
}

bool hasModifier(const Node& declaration, std::string_view word) {
  for (const auto& child : modifiersOf(declaration).children())
    if (child.type() == word) return true;
  return false;
}

// Byte ranges a head leaves out: its modifiers' annotations (and its parameters') and comments.
void collectCuts(const Node& node, std::uint32_t end, std::vector<std::pair<std::uint32_t, std::uint32_t>>& cuts,
                 int depth, std::size_t& budget) {
  if (depth > kMaxHeadDepth) return;
  for (const auto& child : node.children()) {
    if (budget == 0 || child.startByte() >= end) return;
    --budget;
    std::string_view type = child.type();
    // Annotations of the modifiers, and a method's own (`public @Nullable String f()`).
    bool declared = node.type() == "modifiers" || node.type() == "method_declaration";
    if (isComment(type) || (isAnnotation(type) && declared)) {
      cuts.emplace_back(child.startByte(), child.endByte());
    } else if (child.named() && child.endByte() > child.startByte()) {
      collectCuts(child, end, cuts, depth + 1, budget);
    }
  }
}

// The declaration from its start to `end` (its body), as one line without annotations.
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

// The head up to the body (or the whole declaration when it has none).
std::string headOf(const Node& declaration) {
  Node body = declaration.field("body");
  return headOf(declaration, body ? body.startByte() : declaration.endByte());
}

// The modifiers as written, without annotations ("public static final").
std::string modifierWords(const Node& declaration) {
  std::string out;
  for (const auto& child : modifiersOf(declaration).children()) {
    if (isAnnotation(child.type()) || isComment(child.type())) continue;
    if (!out.empty()) out += ' ';
    out += child.text();
  }
  return out;
}

std::string joined(std::initializer_list<std::string_view> words) {
  std::string out;
  for (auto word : words) {
    if (word.empty()) continue;
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

// `internal` and `impl` packages are no API, whatever their modifiers say.
bool hiddenPackage(const std::string& path, std::string_view packageName) {
  auto hasSegment = [](std::string_view text, char separator) {
    std::size_t at = 0;
    while (at <= text.size()) {
      auto end = text.find(separator, at);
      if (end == std::string_view::npos) end = text.size();
      std::string_view segment = text.substr(at, end - at);
      if (segment == "internal" || segment == "impl") return true;
      at = end + 1;
    }
    return false;
  };
  auto slash = path.rfind('/');
  std::string_view folders = slash == std::string::npos ? std::string_view() : std::string_view(path).substr(0, slash);
  return hasSegment(folders, '/') || hasSegment(packageName, '.');
}

std::string_view packageNameOf(const Node& root) {
  for (const auto& child : root.namedChildren()) {
    if (child.type() != "package_declaration") continue;
    for (const auto& part : child.namedChildren())
      if (part.type() == "scoped_identifier" || part.type() == "identifier") return part.text();
  }
  return {};
}

// What the members of a type inherit from it.
struct TypeContext {
  bool isPublic = true;
  bool isInterface = false;  // interfaces and annotation types: members public unless private
  std::string name;
};

class JavaReader {
 public:
  JavaReader(std::string_view source, bool hidden) : source_(source), hidden_(hidden) {}

  // The declarations of a body (the file, a class's, enum's or interface's body).
  void members(const Node& body, const std::string& scope, const TypeContext& context, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& child : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      if (type == "class_declaration" || type == "interface_declaration" || type == "enum_declaration" ||
          type == "record_declaration" || type == "annotation_type_declaration") {
        typeDeclaration(child, scope, context, depth);
      } else if (type == "method_declaration" || type == "annotation_type_element_declaration") {
        add(child, std::string(child.field("name").text()), "method", scope, isPublic(child, context), headOf(child));
      } else if (type == "constructor_declaration" || type == "compact_constructor_declaration") {
        add(child, context.name, "constructor", scope, isPublic(child, context), headOf(child));
      } else if (type == "field_declaration" || type == "constant_declaration") {
        fields(child, scope, context);
      } else if (type == "enum_constant") {
        std::string name(child.field("name").text());
        add(child, name, "constant", scope, context.isPublic, "public static final " + context.name + " " + name);
      } else if (type == "enum_body_declarations" || type == "ERROR") {
        members(child, scope, context, depth + 1);  // an enum's members; what a syntax error wraps
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  // By Java's access rules: public and protected members of a visible type are API.
  bool isPublic(const Node& declaration, const TypeContext& context) const {
    if (hidden_ || !context.isPublic) return false;
    if (context.isInterface) return !hasModifier(declaration, "private");
    return hasModifier(declaration, "public") || hasModifier(declaration, "protected");
  }

  void typeDeclaration(const Node& declaration, const std::string& scope, const TypeContext& context, int depth) {
    std::string_view type = declaration.type();
    std::string kind = type == "class_declaration"       ? "class"
                       : type == "interface_declaration" ? "interface"
                       : type == "enum_declaration"      ? "enum"
                       : type == "record_declaration"    ? "record"
                                                         : "annotation";
    TypeContext inner;
    inner.name = std::string(declaration.field("name").text());
    inner.isPublic = isPublic(declaration, context);
    inner.isInterface = kind == "interface" || kind == "annotation";
    if (!add(declaration, inner.name, kind, scope, inner.isPublic, headOf(declaration))) return;
    std::string innerScope = scope.empty() ? inner.name : scope + "." + inner.name;
    members(declaration.field("body"), innerScope, inner, depth + 1);
  }

  // `public static final int A = 1, B = 2;`: one field each, without its value (javadoc
  // shows the declaration only).
  void fields(const Node& declaration, const std::string& scope, const TypeContext& context) {
    std::string modifiers = modifierWords(declaration);
    std::string type = oneLineHead(declaration.field("type").text());
    bool visible = isPublic(declaration, context);
    for (const auto& declarator : declaration.fieldAll("declarator")) {
      std::string name(declarator.field("name").text());
      std::string dimensions(declarator.field("dimensions").text());
      add(declaration, name, "field", scope, visible, joined({modifiers, type, name + dimensions}));
    }
  }

  bool add(const Node& declaration, std::string name, std::string kind, const std::string& scope, bool visible,
           std::string signature) {
    if (name.empty()) return false;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = std::move(signature);
    s.line = declaration.startLine();
    s.end = declaration.endLine();
    s.visibility = visible ? "public" : "private";
    std::string_view comment = docCommentBefore(declaration, source_);
    if (!comment.empty()) {
      attachDoc(s, renderJavadoc(comment));
    }
    symbols_.push_back(std::move(s));
    return true;
  }

  std::string_view source_;
  bool hidden_;
  std::vector<Symbol> symbols_;
};

}  // namespace

std::optional<ParsedFile> readJavaDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("java", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  // The package's doc is its package-info.java's comment before `package`.
  if (path == "package-info.java" || path.ends_with("/package-info.java")) {
    for (const auto& child : root.namedChildren()) {
      if (child.type() != "package_declaration") continue;
      std::string_view comment = docCommentBefore(child, tree->source());
      if (!comment.empty()) out.doc = javadocMarkdown(comment);
      break;
    }
  }
  JavaReader reader(tree->source(), hiddenPackage(path, packageNameOf(root)));
  TypeContext file;  // top-level types: public when declared so
  file.isPublic = true;
  reader.members(root, "", file, 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
