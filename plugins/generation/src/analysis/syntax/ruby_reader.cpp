// Ruby through tree-sitter-ruby, as YARD reads it: modules and classes (nested ones under
// their parent, `A::B`), methods (`def self.x` as class methods), constants and
// `attr_reader`/`attr_writer`/`attr_accessor` attributes, each with the `#` lines right
// above it. Public: what is not after `private` or `protected` in its class (nor named by
// `private :x`, nor defined by `private def x`), and not `@api private` or `@private`.
#include <set>
#include <string_view>
#include <vector>

#include "analysis/doc_dialects/yard.hpp"
#include "analysis/syntax/comment_index.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 24;
constexpr std::size_t kMaxSymbols = 2000;

// Magic comments (`# frozen_string_literal: true`, `# -*- coding -*-`, `# rubocop:...`)
// are for the interpreter and tools.
bool magicComment(std::string_view text) {
  for (std::string_view magic : {"# frozen_string_literal", "# -*-",
                                 "# encoding:", "# coding:", "# rubocop:", "# typed:", "# warn_indent", "#!"})
    if (text.starts_with(magic)) return true;
  return false;
}

// Whitespace runs as one space (oneLineHead would join Ruby's `Client < Base`).
std::string collapsed(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.size() > 400 ? out.substr(0, 400) + "..." : out;
}

std::string headOf(const Node& node, const Node& stop) {
  std::string_view all = node.text();
  if (stop && stop.startByte() > node.startByte()) all = all.substr(0, stop.startByte() - node.startByte());
  auto newline = all.find('\n');  // a head is its first line (`def x(a, b)`, `class A < B`)
  std::string_view first = all.substr(0, newline);
  // A parameter list over several lines: to its closing parenthesis.
  if (first.find('(') != std::string_view::npos && first.find(')') == std::string_view::npos) {
    auto close = all.find(')');
    if (close != std::string_view::npos) first = all.substr(0, close + 1);
  }
  std::string head = collapsed(first);
  if (auto semicolon = head.find("; end"); semicolon != std::string::npos) head = head.substr(0, semicolon);
  return head;
}

class RubyReader {
 public:
  explicit RubyReader(const Node& root) : comments_(root, "comment") {}

  // The statements of a program, module or class body; `scope`: "A::B".
  void body(const Node& container, const std::string& scope, bool inClass, int depth) {
    if (depth > kMaxDepth) return;
    bool privateSection = false;  // after a bare `private` or `protected`
    std::vector<Node> children = container.namedChildren();
    // Names made private by `private :a, :b` anywhere in the body.
    std::set<std::string> privateNames;
    for (const auto& child : children)
      if (child.type() == "call" &&
          (child.field("method").text() == "private" || child.field("method").text() == "private_class_method"))
        for (const auto& argument : child.field("arguments").namedChildren())
          if (argument.type() == "simple_symbol") privateNames.insert(std::string(argument.text().substr(1)));
    for (const auto& child : children) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      if (type == "body_statement") {
        body(child, scope, inClass, depth + 1);
      } else if (type == "identifier" && (child.text() == "private" || child.text() == "protected")) {
        privateSection = true;
      } else if (type == "identifier" && child.text() == "public") {
        privateSection = false;
      } else if (type == "module" || type == "class") {
        std::string name(child.field("name").text());
        std::string full = scope.empty() ? name : scope + "::" + name;
        add(child, name, type == "module" ? "module" : "class", scope, true, headOf(child, Node()));
        body(child, full, true, depth + 1);
      } else if (type == "singleton_class") {  // class << self
        body(child, scope, true, depth + 1);
      } else if (type == "method" || type == "singleton_method") {
        std::string name(child.field("name").text());
        bool visible = !privateSection && !privateNames.count(name);
        add(child, name, "method", scope, visible, headOf(child, child.field("body")));
      } else if (type == "call") {
        call(child, scope, privateSection);
      } else if (type == "assignment" && child.field("left").type() == "constant") {
        std::string head = collapsed(child.text());
        if (head.size() > 120) head = collapsed(child.field("left").text()) + " = ...";
        add(child, std::string(child.field("left").text()), "constant", scope, true, head);
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  // attr_* declarations, and `private def x` (a method made private where it is defined).
  void call(const Node& node, const std::string& scope, bool privateSection) {
    std::string_view method = node.field("method").text();
    Node arguments = node.field("arguments");
    if (method == "attr_reader" || method == "attr_writer" || method == "attr_accessor") {
      for (const auto& argument : arguments.namedChildren())
        if (argument.type() == "simple_symbol")
          add(node, std::string(argument.text().substr(1)), "attribute", scope, !privateSection,
              std::string(method) + " " + std::string(argument.text()));
    } else if (method == "private" || method == "protected" || method == "public") {
      for (const auto& argument : arguments.namedChildren())
        if (argument.type() == "method" || argument.type() == "singleton_method")
          add(node, std::string(argument.field("name").text()), "method", scope, method == "public",
              headOf(argument, argument.field("body")));
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
    std::string lines;
    for (const auto& comment : comments_.runAbove(node.startLine()))
      if (!magicComment(comment.text())) lines += std::string(comment.text()) + "\n";
    bool isPrivate = false;
    if (!lines.empty()) {
      YardDoc doc = renderYard(lines);
      isPrivate = doc.isPrivate;
      attachDoc(s, std::move(doc.rendered));
    }
    s.visibility = visible && !isPrivate ? "public" : "private";
    symbols_.push_back(std::move(s));
  }

  syntax::CommentIndex comments_;
  std::vector<Symbol> symbols_;
};

}  // namespace

std::optional<ParsedFile> readRubyDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("ruby", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  RubyReader reader(root);
  reader.body(root, "", false, 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
