// Rust through tree-sitter-rust, as rustdoc reads it: `///` and `/** */` docs of each item
// (attributes between them and the item are skipped), `//!` docs of the crate or module,
// `pub` items public and `pub(crate)`, `pub(super)` and private ones not, methods of
// inherent impls under their type, a public trait's methods public, `pub use` re-exports
// listed where they are exported, `#[macro_export]` macros public.
#include <set>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/rustdoc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 24;
constexpr std::size_t kMaxSymbols = 2000;

// A doc comment's text without its markers, or nullopt when the comment is no doc (or
// documents the enclosing item when `inner`).
std::optional<std::string> docText(const Node& comment, bool inner) {
  if (comment.type() != "line_comment" && comment.type() != "block_comment") return std::nullopt;
  Node marker = comment.field(inner ? "inner" : "outer");
  if (!marker) return std::nullopt;
  Node doc = comment.field("doc");
  std::string text(doc.text());
  if (comment.type() == "line_comment") {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
  }
  // /** ... */: each line's leading " * " goes, as rustdoc strips it.
  std::string out;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '*' && (first + 1 == line.size() || line[first + 1] != '/'))
      line = line.substr(first + 1);
    out += line + "\n";
    at = end + 1;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string visibilityOf(const Node& item) {
  for (const auto& child : item.namedChildren())
    if (child.type() == "visibility_modifier") return child.text() == "pub" ? "public" : "private";
  return "private";
}

// The item's head: from its start (after attributes) to its body.
std::string headOf(const Node& item) {
  Node body = item.field("body");
  std::string_view all = item.text();
  if (body && body.startByte() > item.startByte()) all = all.substr(0, body.startByte() - item.startByte());
  return oneLineHead(all);
}

// The type an impl is for, without its generic arguments or path.
std::string implType(const Node& impl) {
  Node type = impl.field("type");
  if (type.type() == "generic_type") type = type.field("type");
  std::string name(type.text());
  auto colons = name.rfind("::");
  if (colons != std::string::npos) name = name.substr(colons + 2);
  return name;
}

bool hasAttribute(const std::vector<std::string>& attributes, std::string_view name) {
  for (const auto& a : attributes)
    if (a.find(name) != std::string::npos) return true;
  return false;
}

class RustReader {
 public:
  // The items of a container (the file, a module's or an impl's or trait's body).
  void items(const Node& container, const std::string& scope, bool publicScope, bool memberPublic, int depth) {
    if (depth > kMaxDepth) return;
    std::string pendingDoc;
    std::vector<std::string> attributes;
    int pendingLine = 0;
    for (const auto& child : container.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      if (auto doc = docText(child, false)) {
        if (pendingDoc.empty()) pendingLine = child.startLine();
        pendingDoc += (pendingDoc.empty() ? "" : "\n") + *doc;
        continue;
      }
      if (type == "line_comment" || type == "block_comment") continue;  // a plain comment keeps the doc
      if (type == "attribute_item") {
        std::string text(child.text());
        // #[doc = "..."] is a doc line too.
        auto eq = text.find("doc = \"");
        if (text.starts_with("#[doc") && eq != std::string::npos && text.ends_with("\"]"))
          pendingDoc += (pendingDoc.empty() ? "" : "\n") + text.substr(eq + 7, text.size() - eq - 9);
        attributes.push_back(std::move(text));
        continue;
      }
      item(child, scope, publicScope, memberPublic, pendingDoc, attributes, depth);
      (void)pendingLine;
      pendingDoc.clear();
      attributes.clear();
    }
  }

 private:
  void add(const Node& node, std::string name, std::string kind, const std::string& scope, bool isPublic,
           const std::string& doc, std::string signature) {
    Symbol s;
    s.name = std::move(name);
    if (s.name.empty()) return;
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = std::move(signature);
    s.line = node.startLine();
    s.end = node.endLine();
    s.visibility = isPublic ? "public" : "private";
    if (!doc.empty()) {
      s.doc = rustdocMarkdown(doc);
      // rustdoc's summary is the first paragraph.
      s.summary = doc_text::firstParagraph(s.doc);
      if (s.summary.size() > 240) s.summary = doc_text::firstSentence(s.doc);
      s.markdownDoc = !s.doc.empty();
    }
    symbols_.push_back(std::move(s));
  }

  void item(const Node& node, const std::string& scope, bool publicScope, bool memberPublic, const std::string& doc,
            const std::vector<std::string>& attributes, int depth) {
    std::string_view type = node.type();
    // #[doc(hidden)] items are not documented (rustdoc leaves them out, and their contents).
    bool isPublic =
        publicScope && (memberPublic || visibilityOf(node) == "public") && !hasAttribute(attributes, "doc(hidden)");
    std::string name(node.field("name").text());
    if (type == "function_item" || type == "function_signature_item") {
      add(node, name, scope.empty() ? "function" : "method", scope, isPublic, doc, headOf(node));
    } else if (type == "struct_item" || type == "enum_item" || type == "union_item") {
      std::string kind = type == "struct_item" ? "struct" : type == "enum_item" ? "enum" : "union";
      add(node, name, kind, scope, isPublic, doc, headOf(node));
      // rustdoc shows an enum's variants and a struct's `pub` fields with their docs.
      members(node.field("body"), scope.empty() ? name : scope + "::" + name, isPublic, type == "enum_item");
    } else if (type == "trait_item") {
      add(node, name, "trait", scope, isPublic, doc, headOf(node));
      // A trait's items are as public as the trait.
      items(node.field("body"), name, isPublic, true, depth + 1);
    } else if (type == "impl_item") {
      // An inherent impl's methods are listed under the type; a trait impl's are the
      // trait's (rustdoc lists them under "Trait Implementations"), so none here. An impl
      // in a private module still adds to its type (`mod std_support { impl Error {..} }`):
      // its `pub` methods are as public as the type (resolved in take()).
      if (node.field("trait")) return;
      std::size_t first = symbols_.size();
      items(node.field("body"), implType(node), true, false, depth + 1);
      if (!publicScope)
        for (std::size_t i = first; i < symbols_.size(); ++i) pendingTypes_.emplace_back(i, implType(node));
    } else if (type == "type_item") {
      add(node, name, "type", scope, isPublic, doc, oneLineHead(node.text()));
    } else if (type == "const_item" || type == "static_item") {
      std::string head(node.text());
      auto eq = head.find(" = ");
      if (eq != std::string::npos && head.size() - eq > 80) head = head.substr(0, eq);  // a long value is not the API
      add(node, name, type == "const_item" ? "constant" : "static", scope, isPublic, doc, oneLineHead(head));
    } else if (type == "macro_definition") {
      add(node, name, "macro", scope,
          hasAttribute(attributes, "macro_export") && !hasAttribute(attributes, "doc(hidden)"), doc,
          "macro_rules! " + name);
    } else if (type == "mod_item") {
      Node body = node.field("body");
      if (!body) {
        // `mod x;`: the module's file documents itself; its declaration says whether
        // what that file declares is reachable (analysis: privateRustModules).
        add(node, name, "module", scope, isPublic, doc, oneLineHead(node.text()));
        return;
      }
      std::string moduleDoc = doc;
      for (const auto& child : body.namedChildren())
        if (auto inner = docText(child, true)) moduleDoc += (moduleDoc.empty() ? "" : "\n") + *inner;
      add(node, name, "module", scope, isPublic, moduleDoc,
          oneLineHead(std::string(node.text()).substr(0, body.startByte() - node.startByte())));
      items(body, scope.empty() ? name : scope + "::" + name, isPublic, false, depth + 1);
    } else if (type == "use_declaration" && visibilityOf(node) == "public") {
      reexports(node, doc, scope, isPublic);
    }
  }

  // `pub use a::b::{C, d as e};`: one entry per name it exports.
  void reexports(const Node& node, const std::string& doc, const std::string& scope, bool isPublic) {
    std::string signature = oneLineHead(node.text());
    std::vector<Node> pending = {node.field("argument")};
    std::size_t visited = 0;
    while (!pending.empty() && ++visited < 256) {
      Node n = pending.back();
      pending.pop_back();
      std::string_view type = n.type();
      if (type == "use_as_clause") {
        add(node, std::string(n.field("alias").text()), "reexport", scope, isPublic, doc, signature);
      } else if (type == "scoped_identifier" || type == "identifier") {
        Node last = type == "scoped_identifier" ? n.field("name") : n;
        if (last.text() != "self") add(node, std::string(last.text()), "reexport", scope, isPublic, doc, signature);
      } else if (type == "scoped_use_list") {
        pending.push_back(n.field("list"));
      } else if (type == "use_list") {
        for (const auto& child : n.namedChildren()) pending.push_back(child);
      } else if (type == "use_wildcard") {
        add(node, std::string(n.text()), "reexport", scope, isPublic, doc, signature);
      }
    }
  }

  // Variants (`enum`) or fields (`struct`, `pub` ones public) with their `///` docs.
  void members(const Node& body, const std::string& scope, bool typePublic, bool variants) {
    if (!body) return;
    std::string pendingDoc;
    bool hidden = false;
    for (const auto& child : body.namedChildren()) {
      if (auto text = docText(child, false)) {
        pendingDoc += (pendingDoc.empty() ? "" : "\n") + *text;
        continue;
      }
      std::string_view type = child.type();
      if (type == "line_comment" || type == "block_comment") continue;
      if (type == "attribute_item") {
        hidden = hidden || child.text().find("doc(hidden)") != std::string_view::npos;
        continue;
      }
      if (type == "enum_variant" || type == "field_declaration") {
        bool visible = typePublic && !hidden && (variants || visibilityOf(child) == "public");
        add(child, std::string(child.field("name").text()), variants ? "variant" : "field", scope, visible, pendingDoc,
            oneLineHead(child.text()));
      }
      pendingDoc.clear();
      hidden = false;
    }
  }

 public:
  // The symbols, with the methods of impls in private modules public only when their
  // type is a public type of this file.
  std::vector<Symbol> take() {
    for (const auto& [index, type] : pendingTypes_) {
      bool typePublic = false;
      for (const auto& s : symbols_)
        if (s.name == type && s.visibility == "public" &&
            (s.kind == "struct" || s.kind == "enum" || s.kind == "union" || s.kind == "trait" || s.kind == "type"))
          typePublic = true;
      if (!typePublic) symbols_[index].visibility = "private";
    }
    pendingTypes_.clear();
    return std::move(symbols_);
  }

 private:
  std::vector<Symbol> symbols_;
  std::vector<std::pair<std::size_t, std::string>> pendingTypes_;  // impl methods whose type decides
};

}  // namespace

std::optional<ParsedFile> readRustDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("rust", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  // The crate's or module's own doc: its //! lines, or #![doc = include_str!("...")].
  std::string inner;
  for (const auto& child : root.namedChildren()) {
    if (auto doc = docText(child, true)) inner += (inner.empty() ? "" : "\n") + *doc;
    if (child.type() == "inner_attribute_item") {
      std::string attribute(child.text());
      auto include = attribute.find("include_str!(\"");
      if (attribute.find("doc") != std::string::npos && include != std::string::npos) {
        auto end = attribute.find('"', include + 14);
        if (end != std::string::npos) out.docFile = attribute.substr(include + 14, end - include - 14);
      }
    }
  }
  if (!inner.empty()) out.doc = rustdocMarkdown(inner);
  RustReader reader;
  reader.items(root, "", true, false, 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
