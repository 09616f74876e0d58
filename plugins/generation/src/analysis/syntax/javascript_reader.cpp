// JavaScript and TypeScript through tree-sitter, as TypeDoc and JSDoc read them: what a
// module exports (`export` declarations, `export { a as b }` lists, `module.exports`) is
// public and the rest is the module's own; classes with their members (`private`, `#x`
// and @internal ones not public), interfaces, type aliases, enums, functions and
// functions held in consts; the JSDoc block before each, whether or not its lines start
// with `*`; `export ... from` re-exports listed where they are exported.
#include <set>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/jsdoc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 16;
constexpr std::size_t kMaxSymbols = 2000;

// The text of `node` up to its body (or up to `stop`), on one line.
std::string headOf(const Node& node, const Node& stop) {
  std::string_view all = node.text();
  if (stop && stop.startByte() > node.startByte()) all = all.substr(0, stop.startByte() - node.startByte());
  return oneLineHead(all);
}

bool isDocComment(const Node& node) { return node.type() == "comment" && node.text().starts_with("/**"); }

// The JSDoc block before `node`: the last `/** */` with nothing but line comments
// between (`// biome-ignore ...`, `// @__NO_SIDE_EFFECTS__`: TypeScript still attaches it).
std::optional<JsDoc> docBefore(const Node& node, std::string_view language) {
  Node before = node.previousNamedSibling();
  for (int skipped = 0; skipped < 8 && before.type() == "comment" && before.text().starts_with("//"); ++skipped)
    before = before.previousNamedSibling();
  if (!isDocComment(before)) return std::nullopt;
  // A blank-line gap is fine (TypeDoc takes it); a declaration between is not (siblings).
  return jsdocMarkdown(before.text(), language);
}

class ScriptReader {
 public:
  ScriptReader(std::string language, std::set<std::string> exportedNames, bool hasExports)
      : language_(std::move(language)), exportedNames_(std::move(exportedNames)), hasExports_(hasExports) {}

  void statements(const Node& container, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& child : container.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = child.type();
      if (type == "export_statement") {
        exportStatement(child, depth);
      } else if (type == "ambient_declaration") {  // declare function f(); in .d.ts
        for (const auto& inner : child.namedChildren()) declaration(inner, child, false, "", depth);
      } else {
        declaration(child, child, false, "", depth);
      }
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  // Public: exported where declared, named in an export list, or any top-level name of a
  // script that exports nothing (a browser script's globals are its API).
  bool isPublicName(const std::string& name, bool exported) const {
    return exported || exportedNames_.count(name) || !hasExports_;
  }

  void add(const Node& extent, std::string name, std::string kind, const std::string& scope, bool isPublic,
           const std::optional<JsDoc>& doc, std::string signature) {
    if (name.empty()) return;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = scope;
    s.signature = std::move(signature);
    s.line = extent.startLine();
    s.end = extent.endLine();
    s.visibility = isPublic && !(doc && doc->isPrivate) ? "public" : "private";
    if (doc && !doc->markdown.empty()) {
      s.doc = doc->markdown;
      s.summary = doc_text::firstSentence(s.doc);
      s.markdownDoc = true;
    }
    symbols_.push_back(std::move(s));
  }

  void exportStatement(const Node& statement, int depth) {
    Node declarationNode = statement.field("declaration");
    if (declarationNode) {
      declaration(declarationNode, statement, true, "", depth);
      return;
    }
    auto doc = docBefore(statement, language_);
    std::string text = oneLineHead(statement.text());
    Node source = statement.field("source");
    for (const auto& child : statement.namedChildren()) {
      if (child.type() == "export_clause" && source) {
        // export { a, b as c } from './x': re-exports, under the names they are exported as.
        for (const auto& specifier : child.namedChildren()) {
          Node alias = specifier.field("alias");
          add(statement, std::string(alias ? alias.text() : specifier.field("name").text()), "reexport", "", true, doc,
              text);
        }
      } else if (child.type() == "namespace_export" || (source && child.type() == "identifier")) {
        add(statement, std::string(child.text()), "reexport", "", true, doc, text);
      }
    }
    if (source && statement.namedChildren().size() == 1) add(statement, "*", "reexport", "", true, doc, text);
    // `export default function () {}` has no name: it is the module's default.
    Node value = statement.field("value");
    if (value &&
        (value.type() == "function_expression" || value.type() == "arrow_function" || value.type() == "class")) {
      std::string kind = value.type() == "class" ? "class" : "function";
      add(statement, "default", kind, "", true, doc, headOf(value, value.field("body")));
    }
  }

  // A declaration statement; `outer` is what its doc comment precedes (the export).
  void declaration(const Node& node, const Node& outer, bool exported, const std::string& scope, int depth) {
    std::string_view type = node.type();
    auto doc = docBefore(outer, language_);
    std::string name(node.field("name").text());
    bool isPublic = isPublicName(name, exported);
    if (type == "function_declaration" || type == "generator_function_declaration" || type == "function_signature") {
      add(outer, name, "function", scope, isPublic, doc, headOf(node, node.field("body")));
    } else if (type == "class_declaration" || type == "abstract_class_declaration" || type == "class") {
      add(outer, name, "class", scope, isPublic, doc, headOf(node, node.field("body")));
      classBody(node.field("body"), name, isPublic, depth + 1);
    } else if (type == "interface_declaration") {
      add(outer, name, "interface", scope, isPublic, doc, headOf(node, node.field("body")));
      interfaceBody(node.field("body"), name, isPublic);
    } else if (type == "type_alias_declaration") {
      // `type Options = { ... }`: TypeDoc lists its properties like an interface's.
      Node value = node.field("value");
      if (value.type() == "object_type") {
        add(outer, name, "type", scope, isPublic, doc, headOf(node, value));
        interfaceBody(value, name, isPublic);
      } else {
        add(outer, name, "type", scope, isPublic, doc, oneLineHead(node.text()));
      }
    } else if (type == "enum_declaration") {
      add(outer, name, "enum", scope, isPublic, doc, headOf(node, node.field("body")));
    } else if (type == "internal_module" || type == "module") {
      add(outer, name, "namespace", scope, isPublic, doc, headOf(node, node.field("body")));
    } else if (type == "lexical_declaration" || type == "variable_declaration") {
      for (const auto& declarator : node.namedChildren()) {
        if (declarator.type() != "variable_declarator") continue;
        std::string variable(declarator.field("name").text());
        Node value = declarator.field("value");
        bool function = value && (value.type() == "arrow_function" || value.type() == "function_expression" ||
                                  value.type() == "function");
        // Only functions, and exported constants, are what a module offers; other locals are not.
        bool shown = function || ((exported || exportedNames_.count(variable)) && node.text().starts_with("const"));
        if (!shown) continue;
        std::string signature;
        if (function) {
          std::string head = headOf(value, value.field("body"));
          if (head.ends_with("=>")) head = oneLineHead(head.substr(0, head.size() - 2));
          signature = "const " + variable + " = " + head;
        } else {
          // `const NAME: Type` (the value is not the API).
          signature = headOf(node, value);
          while (!signature.empty() && (signature.back() == '=' || signature.back() == ' ')) signature.pop_back();
        }
        add(outer, variable, function ? "function" : "constant", scope, isPublicName(variable, exported), doc,
            signature);
      }
    }
  }

  void classBody(const Node& body, const std::string& className, bool classPublic, int depth) {
    if (depth > kMaxDepth) return;
    for (const auto& member : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = member.type();
      bool method = type == "method_definition" || type == "method_signature" || type == "abstract_method_signature";
      bool field = type == "public_field_definition" || type == "field_definition";
      if (!method && !field) continue;
      Node nameNode = member.field(field && type == "field_definition" ? "property" : "name");
      std::string name(nameNode.text());
      bool hidden = name.starts_with('#');
      for (const auto& part : member.namedChildren())
        if (part.type() == "accessibility_modifier" && part.text() == "private") hidden = true;
      auto doc = docBefore(member, language_);
      std::string kind = method ? (name == "constructor" ? "constructor" : "method") : "property";
      std::string signature = method ? headOf(member, member.field("body")) : oneLineHead(member.text());
      add(member, name, kind, className, classPublic && !hidden, doc, signature);
    }
  }

  void interfaceBody(const Node& body, const std::string& name, bool isPublic) {
    for (const auto& member : body.namedChildren()) {
      if (symbols_.size() >= kMaxSymbols) return;
      std::string_view type = member.type();
      if (type != "method_signature" && type != "property_signature") continue;
      add(member, std::string(member.field("name").text()), type == "method_signature" ? "method" : "property", name,
          isPublic, docBefore(member, language_), oneLineHead(member.text()));
    }
  }

  std::string language_;
  std::set<std::string> exportedNames_;
  bool hasExports_;
  std::vector<Symbol> symbols_;
};

// What a module exports by name: `export { a, b as c }` (local names), `module.exports =
// { a, b }` / `module.exports.x =` / `exports.x =`; and whether it exports anything.
std::pair<std::set<std::string>, bool> exportsOf(const Node& program) {
  std::set<std::string> names;
  bool any = false;
  for (const auto& statement : program.namedChildren()) {
    if (statement.type() == "export_statement") {
      any = true;
      if (statement.field("source")) continue;
      for (const auto& child : statement.namedChildren())
        if (child.type() == "export_clause")
          for (const auto& specifier : child.namedChildren()) names.insert(std::string(specifier.field("name").text()));
      if (Node value = statement.field("value"); value && value.type() == "identifier")
        names.insert(std::string(value.text()));  // export default name
      continue;
    }
    if (statement.type() != "expression_statement") continue;
    for (const auto& expression : statement.namedChildren()) {
      if (expression.type() != "assignment_expression") continue;
      std::string left(expression.field("left").text());
      if (!left.starts_with("module.exports") && !left.starts_with("exports.")) continue;
      any = true;
      if (auto dot = left.rfind('.'); left != "module.exports" && dot != std::string::npos)
        names.insert(left.substr(dot + 1));
      Node right = expression.field("right");
      if (right.type() == "identifier") names.insert(std::string(right.text()));
      if (right.type() == "object")
        for (const auto& pair : right.namedChildren()) {
          if (pair.type() == "shorthand_property_identifier") names.insert(std::string(pair.text()));
          if (pair.type() == "pair") names.insert(std::string(pair.field("value").text()));
        }
    }
  }
  return {names, any};
}

}  // namespace

std::optional<ParsedFile> readScriptDeclarations(const std::string& language, const std::string& path,
                                                 const std::string& text) {
  auto tree = syntax::parse(syntax::grammarFor(language, path), text);
  if (!tree) return std::nullopt;
  Node program = tree->root();
  ParsedFile out;
  std::string codeLanguage = language == "typescript" ? "ts" : "js";
  // The module's own doc: the first comment, when it says it is one.
  for (const auto& child : program.namedChildren()) {
    if (child.type() == "hash_bang_line") continue;
    if (isDocComment(child)) {
      auto doc = jsdocMarkdown(child.text(), codeLanguage);
      if (doc.moduleDoc) out.doc = doc.markdown;
    }
    break;
  }
  auto [names, any] = exportsOf(program);
  ScriptReader reader(codeLanguage, std::move(names), any);
  reader.statements(program, 0);
  out.symbols = reader.take();
  return out;
}

}  // namespace docs_generation
