// PHP through tree-sitter-php, as phpDocumentor reads it: classes, interfaces, traits and
// enums with their methods, properties, constants and cases; functions; the `/** */`
// block right above each (attributes are part of the declaration). Public: public and
// protected members (a subclass's API) of types outside an `Internal` namespace, members
// without a modifier; private ones and @internal ones not. The file's doc is a docblock
// above its namespace, `use` or `declare` lines.
#include <string_view>
#include <vector>

#include "analysis/doc_dialects/phpdoc.hpp"
#include "analysis/syntax/comment_index.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 16;
constexpr std::size_t kMaxSymbols = 2000;

std::string headUpTo(const Node& node, const Node& stop) {
  std::string_view all = node.text();
  if (stop && stop.startByte() > node.startByte()) all = all.substr(0, stop.startByte() - node.startByte());
  // Attributes (#[Route('/x')]) are the framework's, not the signature.
  while (all.starts_with("#[")) {
    auto close = all.find("]\n");
    if (close == std::string_view::npos) break;
    all = all.substr(close + 2);
    while (!all.empty() && (all.front() == ' ' || all.front() == '\t' || all.front() == '\n')) all.remove_prefix(1);
  }
  return oneLineHead(all);
}

Node childOfType(const Node& node, std::string_view type) {
  for (const auto& child : node.namedChildren())
    if (child.type() == type) return child;
  return {};
}

// public / protected / private, or "" when the member says none (then it is public).
std::string_view visibilityWord(const Node& declaration) {
  Node modifier = childOfType(declaration, "visibility_modifier");
  return modifier ? modifier.text() : std::string_view();
}

bool internalNamespace(std::string_view name) {
  std::size_t at = 0;
  while (at <= name.size()) {
    auto end = name.find('\\', at);
    if (end == std::string_view::npos) end = name.size();
    std::string_view segment = name.substr(at, end - at);
    if (segment == "Internal" || segment == "internal") return true;
    at = end + 1;
  }
  return false;
}

class PhpReader {
 public:
  PhpReader(const Node& root) : comments_(root, "comment") {}

  void statements(const Node& container, bool hidden, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& child : container.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      if (type == "namespace_definition") {
        bool inner = internalNamespace(child.field("name").text());
        if (Node body = child.field("body")) statements(body, hidden || inner, depth + 1);
        else hidden_ = inner;  // `namespace A\Internal;` holds what follows
      } else if (type == "class_declaration" || type == "interface_declaration" || type == "trait_declaration" ||
                 type == "enum_declaration") {
        typeDeclaration(child, hidden || hidden_, depth);
      } else if (type == "function_definition") {
        add(child, std::string(child.field("name").text()), "function", "", !(hidden || hidden_),
            headUpTo(child, child.field("body")));
      } else if (type == "compound_statement" || type == "declaration_list") {
        statements(child, hidden, depth + 1);
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  void typeDeclaration(const Node& node, bool hidden, int depth) {
    std::string_view type = node.type();
    std::string kind = type == "class_declaration"       ? "class"
                       : type == "interface_declaration" ? "interface"
                       : type == "trait_declaration"     ? "trait"
                                                         : "enum";
    std::string name(node.field("name").text());
    Node body = node.field("body");
    bool visible = !hidden;
    if (!add(node, name, kind, "", visible, headUpTo(node, body))) return;
    visible = symbols_.back().visibility == "public";
    for (const auto& member : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols || depth > kMaxDepth) return;
      std::string_view memberType = member.type();
      bool memberVisible = visible && visibilityWord(member) != "private";
      if (memberType == "method_declaration") {
        std::string method(member.field("name").text());
        add(member, method, method == "__construct" ? "constructor" : "method", name, memberVisible,
            headUpTo(member, member.field("body")));
      } else if (memberType == "property_declaration") {
        for (const auto& element : member.namedChildren())
          if (element.type() == "property_element") {
            std::string property(element.field("name").text());
            add(member, property, "property", name, memberVisible, headUpTo(member, Node()));
          }
      } else if (memberType == "const_declaration") {
        for (const auto& element : member.namedChildren())
          if (element.type() == "const_element") {
            Node constName = childOfType(element, "name");
            add(member, std::string(constName.text()), "constant", name, memberVisible, headUpTo(member, Node()));
          }
      } else if (memberType == "enum_case") {
        add(member, std::string(member.field("name").text()), "constant", name, visible, headUpTo(member, Node()));
      }
    }
  }

  bool add(const Node& node, std::string name, std::string kind, const std::string& scope, bool visible,
           std::string signature) {
    if (name.empty() || symbols_.size() >= kMaxSymbols) return false;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = std::move(signature);
    s.line = node.startLine();
    s.end = node.endLine();
    auto run = comments_.runAbove(node.startLine());
    bool internal = false;
    if (!run.empty() && run.back().text().starts_with("/**")) {
      PhpDoc doc = renderPhpDoc(run.back().text());
      internal = doc.internal;
      attachDoc(s, std::move(doc.rendered));
    }
    s.visibility = visible && !internal ? "public" : "private";
    symbols_.push_back(std::move(s));
    return true;
  }

  syntax::CommentIndex comments_;
  std::vector<Symbol> symbols_;
  bool hidden_ = false;  // after `namespace X\Internal;`
};

// A docblock above the file's namespace, `use` or `declare` lines documents the file.
std::string fileDoc(const Node& root) {
  auto children = root.namedChildren();
  for (std::size_t i = 0; i + 1 < children.size(); ++i) {
    if (children[i].type() != "comment" || !children[i].text().starts_with("/**")) continue;
    std::string_view next = children[i + 1].type();
    if (next == "namespace_definition" || next == "namespace_use_declaration" || next == "declare_statement")
      return renderPhpDoc(children[i].text()).rendered.markdown;
    break;
  }
  return {};
}

}  // namespace

std::optional<ParsedFile> readPhpDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("php", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  PhpReader reader(root);
  reader.statements(root, false, 0);
  out.symbols = reader.take();
  out.doc = fileDoc(root);
  return out;
}

}  // namespace docs_generation
