// Go through tree-sitter-go, as go doc reads it: the comment group right above each
// declaration is its doc (above each spec of a grouped `type`, `const` or `var`, else the
// group's), the one above the `package` clause the package's; exported names (an
// upper-case first letter) are public, a method only when its type is exported too;
// methods are listed under their receiver's type and an interface's methods under it;
// nothing in an `internal/` folder or a _test.go file is public.
#include <algorithm>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/go_doc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr std::size_t kMaxSymbols = 2000;     // as ctags' reading keeps
constexpr std::size_t kMaxSignature = 400;    // a longer head is generated code
constexpr std::size_t kMaxValue = 80;         // a longer constant or initial value is not the API
constexpr std::size_t kMaxHeadNodes = 20000;  // nodes looked through for comments in one head

// Whitespace runs as one space, none just inside brackets and no trailing comma before a
// closing one (a parameter list over several lines); string and rune literals as written.
std::string oneLine(std::string_view text) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      out += c;
      if (c == '\\' && quote != '`' && i + 1 < text.size()) out += text[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'' || c == '`') quote = c;
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    bool afterOpen = !out.empty() && (out.back() == '(' || out.back() == '[' || out.back() == '{');
    if (c == ' ' && (out.empty() || out.back() == ' ' || afterOpen)) continue;
    if (c == ')' || c == ']' || c == '}') {
      if (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty() && out.back() == ',') out.pop_back();
    }
    out += c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '{')) out.pop_back();
  if (out.size() > kMaxSignature) out = out.substr(0, kMaxSignature) + "...";
  return out;
}

// The source of `node` up to byte `until`, comments inside it left out (a parameter's
// trailing comment is no part of the signature), on one line.
std::string headOf(const Node& node, std::uint32_t until) {
  std::uint32_t from = node.startByte();
  until = std::min(until, node.endByte());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> comments;
  std::vector<Node> pending = {node};
  std::size_t visited = 0;
  while (!pending.empty() && ++visited < kMaxHeadNodes) {
    Node n = pending.back();
    pending.pop_back();
    if (n.startByte() >= until) continue;
    if (n.type() == "comment") {
      comments.emplace_back(n.startByte(), n.endByte());
      continue;
    }
    for (auto& child : n.children()) pending.push_back(child);
  }
  std::sort(comments.begin(), comments.end());
  std::string_view source = node.text();
  if (source.size() < until - from) return oneLine(source);
  std::string out;
  std::uint32_t at = from;
  for (const auto& [start, end] : comments) {
    if (start < at || start >= until) continue;
    out += source.substr(at - from, start - at);
    out += ' ';
    at = end;
  }
  if (at < until) out += source.substr(at - from, until - at);
  return oneLine(out);
}

std::string headOf(const Node& node) { return headOf(node, node.endByte()); }

// `//go:generate`, `//line`, `//export`, `//nolint:x`: directives to tools, no doc
// (ast.CommentGroup.Text leaves them out).
bool isDirective(std::string_view afterSlashes) {
  if (afterSlashes.starts_with("line ") || afterSlashes.starts_with("extern ") || afterSlashes.starts_with("export "))
    return true;
  auto colon = afterSlashes.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon + 1 >= afterSlashes.size()) return false;
  for (std::size_t i = 0; i <= colon + 1; ++i) {
    char c = afterSlashes[i];
    if (i != colon && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// A comment's text without its markers: `//` and one space after it, or `/*` and `*/`.
std::optional<std::string> commentText(std::string_view comment) {
  while (!comment.empty() && (comment.back() == '\n' || comment.back() == '\r')) comment.remove_suffix(1);
  if (comment.starts_with("//")) {
    comment.remove_prefix(2);
    if (isDirective(comment)) return std::nullopt;
    if (comment.starts_with(' ')) comment.remove_prefix(1);
    return std::string(comment);
  }
  if (comment.starts_with("/*")) comment.remove_prefix(2);
  if (comment.ends_with("*/")) comment.remove_suffix(2);
  return std::string(comment);
}

struct Documented {
  Node node;
  std::string doc;  // the comment group's text, markers gone
};

// The named children of `container` that are not comments, each with the comment group
// right above it (go/parser's lead comment): comments on adjacent lines, the last one on
// the line before the child, none of them trailing code on its own line.
std::vector<Documented> documentedChildren(const Node& container) {
  std::vector<Documented> out;
  std::vector<Node> group;
  int groupEnd = -1;  // the line the group's last comment ends on
  int codeEnd = -1;   // the last line of the token or node before
  for (const auto& child : container.children()) {
    if (child.type() == "comment") {
      if (child.startLine() == codeEnd) {
        group.clear();  // it comments the code on its line
        continue;
      }
      if (!group.empty() && child.startLine() > groupEnd + 1) group.clear();
      group.push_back(child);
      groupEnd = child.endLine();
      continue;
    }
    std::string doc;
    if (!group.empty() && groupEnd + 1 == child.startLine()) {
      for (const auto& comment : group) {
        auto text = commentText(comment.text());
        if (text) doc += (doc.empty() ? "" : "\n") + *text;
      }
    }
    group.clear();
    codeEnd = child.endLine();
    if (child.named()) out.push_back({child, std::move(doc)});
  }
  return out;
}

bool hasChild(const Node& node, std::string_view type) {
  for (const auto& child : node.children())
    if (child.type() == type) return true;
  return false;
}

// The receiver's type name: `(l *List[T])` is List's.
std::string receiverType(const Node& receiver) {
  for (const auto& parameter : receiver.namedChildren()) {
    if (parameter.type() != "parameter_declaration") continue;
    std::string name;
    for (char c : parameter.field("type").text()) {
      if (c == '[') break;
      if (c != '*' && c != '(' && c != ')' && c != ' ' && c != '\t' && c != '\n') name += c;
    }
    return name;
  }
  return {};
}

// Every symbol is private in an `internal/` folder (only its parent's tree may import it)
// and in tests.
bool privateFile(std::string path) {
  std::replace(path.begin(), path.end(), '\\', '/');
  return path.starts_with("internal/") || path.find("/internal/") != std::string::npos || path.ends_with("_test.go");
}

class GoReader {
 public:
  explicit GoReader(bool privateFile) : privateFile_(privateFile) {}

  void file(const Node& root) {
    for (const auto& [node, doc] : documentedChildren(root)) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = node.type();
      if (type == "function_declaration") function(node, doc);
      else if (type == "method_declaration") method(node, doc);
      else if (type == "type_declaration") types(node, doc);
      else if (type == "const_declaration") values(node, doc, "const");
      else if (type == "var_declaration") values(node, doc, "var");
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  void add(const Node& extent, std::string name, std::string kind, std::string scope, bool exported,
           const std::string& doc, std::string signature) {
    if (name.empty() || name == "_" || symbols_.size() >= kMaxSymbols) return;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = std::move(scope);
    s.signature = std::move(signature);
    s.line = extent.startLine();
    s.end = extent.endLine();
    s.visibility = exported && !privateFile_ ? "public" : "private";
    if (!doc.empty()) {
      s.doc = goDocMarkdown(doc);
      s.summary = doc_text::firstSentence(s.doc);
      s.markdownDoc = !s.doc.empty();
    }
    symbols_.push_back(std::move(s));
  }

  void function(const Node& node, const std::string& doc) {
    std::string name(node.field("name").text());
    Node body = node.field("body");
    add(node, name, "function", "", goExported(name), doc, headOf(node, body ? body.startByte() : node.endByte()));
  }

  void method(const Node& node, const std::string& doc) {
    std::string name(node.field("name").text());
    std::string type = receiverType(node.field("receiver"));
    Node body = node.field("body");
    add(node, name, "method", type, goExported(name) && goExported(type), doc,
        headOf(node, body ? body.startByte() : node.endByte()));
  }

  // `type X ...` or `type ( ... )`: a spec's own doc, else the declaration's.
  void types(const Node& declaration, const std::string& groupDoc) {
    bool grouped = hasChild(declaration, "(");
    for (const auto& [spec, ownDoc] : documentedChildren(declaration)) {
      if (spec.type() != "type_spec" && spec.type() != "type_alias") continue;
      typeSpec(spec, grouped ? spec : declaration, ownDoc.empty() ? groupDoc : ownDoc);
    }
  }

  void typeSpec(const Node& spec, const Node& extent, const std::string& doc) {
    std::string name(spec.field("name").text());
    Node type = spec.field("type");
    Node parameters = spec.field("type_parameters");
    std::string head = "type " + name + (parameters ? headOf(parameters) : std::string());
    bool exported = goExported(name);
    if (spec.type() == "type_alias") {
      add(extent, name, "type", "", exported, doc, oneLine(head + " = " + headOf(type)));
    } else if (type.type() == "struct_type") {
      add(extent, name, "struct", "", exported, doc, head + " struct");
      fields(type, name, exported);
    } else if (type.type() == "interface_type") {
      add(extent, name, "interface", "", exported, doc, head + " interface");
      // Its methods are API whoever holds one calls, or implements.
      for (const auto& [element, elementDoc] : documentedChildren(type))
        if (element.type() == "method_elem") {
          std::string method(element.field("name").text());
          add(element, method, "method", name, exported && goExported(method), elementDoc, headOf(element));
        }
    } else {
      add(extent, name, "type", "", exported, doc, oneLine(head + " " + headOf(type)));
    }
  }

  // A struct's fields, as `go doc` shows them in the type (exported ones of an exported
  // struct are API); an embedded type is a field named as the type.
  void fields(const Node& structType, const std::string& owner, bool ownerExported) {
    for (const auto& list : structType.namedChildren()) {
      if (list.type() != "field_declaration_list") continue;
      for (const auto& [field, fieldDoc] : documentedChildren(list)) {
        if (field.type() != "field_declaration") continue;
        Node type = field.field("type");
        std::vector<std::string> names;
        for (const auto& n : field.fieldAll("name")) names.emplace_back(n.text());
        if (names.empty()) {  // embedded: `io.Reader`, `*Base`
          std::string embedded(type.text());
          auto dot = embedded.rfind('.');
          names.push_back(embedded.substr(dot == std::string::npos ? embedded.find_first_not_of('*') : dot + 1));
        }
        for (const auto& fieldName : names)
          add(field, fieldName, "field", owner, ownerExported && goExported(fieldName), fieldDoc,
              oneLine(fieldName + (type && !field.fieldAll("name").empty() ? " " + headOf(type) : std::string())));
      }
    }
  }

  // `const`/`var` declarations: each name of each spec, with the spec's own doc or else
  // the declaration's.
  void values(const Node& declaration, const std::string& groupDoc, const std::string& keyword) {
    Node specs = declaration;  // `const ( ... )` holds its specs; `var ( ... )` a list of them
    for (const auto& child : declaration.namedChildren())
      if (child.type() == "var_spec_list") specs = child;
    auto isSpec = [](const Node& n) { return n.type() == "var_spec" || n.type() == "const_spec"; };
    if (!hasChild(specs, "(")) {
      for (const auto& spec : declaration.namedChildren())
        if (isSpec(spec)) valueSpec(spec, declaration, groupDoc, keyword);
      return;
    }
    for (const auto& [spec, ownDoc] : documentedChildren(specs))
      if (isSpec(spec)) valueSpec(spec, spec, ownDoc.empty() ? groupDoc : ownDoc, keyword);
  }

  void valueSpec(const Node& spec, const Node& extent, const std::string& doc, const std::string& keyword) {
    std::vector<std::string> names;
    for (const auto& name : spec.fieldAll("name"))
      if (name.type() == "identifier") names.emplace_back(name.text());
    Node type = spec.field("type");
    std::vector<Node> values;
    for (const auto& value : spec.field("value").namedChildren())
      if (value.type() != "comment") values.push_back(value);
    std::string typeText = type ? " " + headOf(type) : std::string();
    std::string kind = keyword == "const" ? "constant" : "variable";
    for (std::size_t i = 0; i < names.size(); ++i) {
      // `var a, b = 1, 2` gives `var a = 1`; `var a, b = f()` stays whole.
      std::string signature = keyword + " " + names[i] + typeText;
      std::string value;
      if (values.size() == names.size()) {
        value = valueText(values[i]);
      } else if (!values.empty()) {
        std::string all;
        for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
        signature = keyword + " " + all + typeText;
        value = headOf(spec.field("value"));
      }
      if (!value.empty() && value.size() <= kMaxValue) signature += " = " + value;
      add(extent, names[i], kind, "", goExported(names[i]), doc, signature);
    }
  }

  // A value as written, or when long, what it is: `Options{...}`, `func(x int) error {...}`.
  static std::string valueText(const Node& value) {
    std::string text = headOf(value);
    if (text.size() <= kMaxValue) return text;
    Node body = value.field("body");
    if (value.type() == "composite_literal" || value.type() == "func_literal")
      return headOf(value, body ? body.startByte() : value.endByte()) +
             (value.type() == "func_literal" ? " {...}" : "{...}");
    return {};
  }

  bool privateFile_;
  std::vector<Symbol> symbols_;
};

}  // namespace

std::optional<ParsedFile> readGoDeclarations(const std::string& path, const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor("go", path), text);
  if (!tree) return std::nullopt;
  Node root = tree->root();
  ParsedFile out;
  // The package's doc: the comment group right above its `package` clause.
  for (const auto& [node, doc] : documentedChildren(root))
    if (node.type() == "package_clause" && !doc.empty()) {
      out.doc = goDocMarkdown(doc);
      break;
    }
  GoReader reader(privateFile(path));
  reader.file(root);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
