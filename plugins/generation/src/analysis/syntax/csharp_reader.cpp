// C# through tree-sitter-c-sharp, as DocFX reads it: classes, structs, interfaces,
// records, enums and delegates (nested ones under their type) with their methods,
// constructors, properties, indexers, fields, events, operators and enum members; the
// `///` XML doc right above each (attributes are part of the declaration and left out of
// its head). Public: `public` and `protected` members of public types, interface members,
// enum members of public enums; `internal`, `private` and `private protected` ones not.
#include <string_view>
#include <vector>

#include "analysis/doc_dialects/csharp_xml_doc.hpp"
#include "analysis/syntax/comment_index.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 24;
constexpr std::size_t kMaxSymbols = 2000;

bool hasModifier(const Node& declaration, std::string_view word) {
  for (const auto& child : declaration.namedChildren())
    if (child.type() == "modifier" && child.text() == word) return true;
  return false;
}

// By C#'s access rules: `public` and `protected` (not `private protected`) reach users.
bool accessible(const Node& declaration, bool interfaceMember) {
  if (hasModifier(declaration, "private")) return false;
  if (hasModifier(declaration, "public") || hasModifier(declaration, "protected")) return true;
  return interfaceMember && !hasModifier(declaration, "internal");
}

// The declaration's head from its first modifier or keyword (attributes left out) to `stop`.
std::string headOf(const Node& node, const Node& stop) {
  std::uint32_t start = node.startByte();
  for (const auto& child : node.namedChildren()) {
    if (child.type() != "attribute_list") break;
    start = child.endByte();
  }
  std::uint32_t end = stop && stop.startByte() > start ? stop.startByte() : node.endByte();
  std::string_view all = node.text();
  std::size_t from = start - node.startByte();
  if (from > all.size()) return {};
  return oneLineHead(all.substr(from, std::min<std::size_t>(end - start, all.size() - from)));
}

Node bodyOf(const Node& node) {
  if (Node body = node.field("body")) return body;
  for (const auto& child : node.namedChildren())
    if (child.type() == "block" || child.type() == "arrow_expression_clause" || child.type() == "declaration_list")
      return child;
  return {};
}

class CsharpReader {
 public:
  explicit CsharpReader(const Node& root) : comments_(root, "comment") {}

  void members(const Node& container, const std::string& scope, bool typeVisible, bool interfaceBody, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& child : container.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      bool visible = typeVisible && (scope.empty() ? hasModifier(child, "public") : accessible(child, interfaceBody));
      if (type == "namespace_declaration" || type == "declaration_list") {
        members(child.type() == "namespace_declaration" ? child.field("body") : child, scope, true, false, depth + 1);
      } else if (type == "class_declaration" || type == "struct_declaration" || type == "interface_declaration" ||
                 type == "record_declaration" || type == "record_struct_declaration" || type == "enum_declaration") {
        std::string kind(type.substr(0, type.find("_declaration")));
        if (kind == "record_struct") kind = "record";
        std::string name(child.field("name").text());
        Node body = bodyOf(child);
        add(child, name, kind, scope, visible, headOf(child, body));
        std::string inner = scope.empty() ? name : scope + "." + name;
        if (kind == "enum") {
          for (const auto& member : body.namedChildren())
            if (member.type() == "enum_member_declaration")
              add(member, std::string(member.field("name").text()), "constant", inner, visible,
                  oneLineHead(member.text()));
        } else if (body) {
          members(body, inner, visible, kind == "interface", depth + 1);
        }
      } else if (type == "delegate_declaration") {
        add(child, std::string(child.field("name").text()), "delegate", scope, visible, headOf(child, Node()));
      } else if (type == "method_declaration" || type == "operator_declaration" ||
                 type == "conversion_operator_declaration") {
        std::string name(child.field("name").text());
        if (name.empty()) name = type == "method_declaration" ? "" : "operator";
        add(child, name, "method", scope, visible, headOf(child, bodyOf(child)));
      } else if (type == "constructor_declaration") {
        add(child, std::string(child.field("name").text()), "constructor", scope, visible,
            headOf(child, bodyOf(child)));
      } else if (type == "property_declaration" || type == "indexer_declaration" || type == "event_declaration") {
        std::string name = type == "indexer_declaration" ? "this[]" : std::string(child.field("name").text());
        Node accessors = child.field("accessors");
        Node stop = accessors ? Node() : bodyOf(child);  // `{ get; set; }` stays in the head
        add(child, name, type == "event_declaration" ? "event" : "property", scope, visible, headOf(child, stop));
      } else if (type == "field_declaration" || type == "event_field_declaration") {
        fields(child, scope, visible, type == "event_field_declaration");
      } else if (type == "file_scoped_namespace_declaration") {
        continue;  // what follows it is in the namespace; it adds no scope here
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  // `public const int A = 1, B = 2;`: one symbol per declarator.
  void fields(const Node& declaration, const std::string& scope, bool visible, bool event) {
    Node variables;
    for (const auto& child : declaration.namedChildren())
      if (child.type() == "variable_declaration") variables = child;
    bool constant = hasModifier(declaration, "const");
    for (const auto& declarator : variables.namedChildren()) {
      if (declarator.type() != "variable_declarator") continue;
      Node name = declarator.field("name");
      if (!name) {
        for (const auto& part : declarator.namedChildren())
          if (part.type() == "identifier") {
            name = part;
            break;
          }
      }
      add(declaration, std::string(name.text()),
          event      ? "event"
          : constant ? "constant"
                     : "field",
          scope, visible, headOf(declaration, Node()));
    }
  }

  void add(const Node& node, std::string name, std::string kind, const std::string& scope, bool visible,
           std::string signature) {
    if (name.empty() || symbols_.size() >= kMaxSymbols) return;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = std::move(signature);
    s.line = node.startLine();
    s.end = node.endLine();
    s.visibility = visible ? "public" : "private";
    std::string lines;
    for (const auto& comment : comments_.runAbove(node.startLine()))
      if (comment.text().starts_with("///")) lines += std::string(comment.text()) + "\n";
    if (!lines.empty()) {
      attachDoc(s, renderCsharpXmlDoc(lines));
    }
    symbols_.push_back(std::move(s));
  }

  syntax::CommentIndex comments_;
  std::vector<Symbol> symbols_;
};

}  // namespace

std::optional<ParsedFile> readCsharpDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("csharp", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  CsharpReader reader(root);
  reader.members(root, "", true, false, 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
