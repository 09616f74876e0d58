// C and C++ through tree-sitter-c and tree-sitter-cpp, as Doxygen reads a header: functions
// (declared or defined), classes, structs, unions, enums and their constants, typedefs,
// `using` aliases, concepts, fields, methods and macros, each with the comment right above
// it (Doxygen's `///`, `/** */`, or a plain comment adjacent to it) or after it on its line
// (`///<`); a doc above `template <...>` belongs to the template. What is API: in headers,
// what is not in a `detail`, `internal` or anonymous namespace and not a private member;
// in source files, only documented functions other files can call. Annotation macros are
// blanked before parsing (c_tokens.hpp); preprocessor conditionals and `extern
// "C"` blocks are read through. The header's own purpose is its `@file` comment or its
// first free comment, without the licence it shares.
#include <algorithm>
#include <array>
#include <set>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/doc_dialects/doxygen.hpp"
#include "analysis/syntax/c_tokens.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation {

namespace {

using syntax::Node;

constexpr int kMaxDepth = 32;  // namespaces, classes, preprocessor blocks
constexpr std::size_t kMaxSymbols = 2000;
constexpr int kMaxCommentRun = 200;  // comment lines above one declaration

bool isHeader(const std::string& path) {
  auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return true;  // <vector>-style
  std::string_view ext = std::string_view(path).substr(dot);
  for (std::string_view header : {".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc", ".tpp", ".cuh"})
    if (ext == header) return true;
  return false;
}

// Namespaces whose content is the implementation, by the conventions of C++ libraries.
bool implementationNamespace(std::string_view name) {
  if (name.empty()) return true;  // anonymous
  auto last = name.rfind("::");
  if (last != std::string_view::npos) name = name.substr(last + 2);
  for (std::string_view word : {"detail", "details", "internal", "impl", "priv", "private", "_detail", "_impl"})
    if (name == word) return true;
  return name.starts_with("_") || name.ends_with("_detail") || name.ends_with("_impl") || name.ends_with("_internal") ||
         name.ends_with("_details");
}

bool isComment(const Node& node) { return node.type() == "comment"; }

// `///`, `//!`, `/**`, `/*!`: Doxygen's markers (`////` and `/**/` are none).
bool doxygenStyle(std::string_view comment) {
  if (comment.starts_with("///")) return !comment.starts_with("////");
  if (comment.starts_with("//!")) return true;
  if (comment.starts_with("/**")) return comment != "/**/" && !comment.starts_with("/***");
  return comment.starts_with("/*!");
}

// `///<`, `//!<`, `/**<`, `/*!<`: documents what comes before it.
bool trailingStyle(std::string_view comment) {
  return comment.size() > 3 && comment[3] == '<' && doxygenStyle(comment);
}

bool legalText(std::string_view text) {
  std::string lowered;
  for (char c : text.substr(0, 4096)) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view word : {"copyright", "license", "licence", "spdx", "all rights reserved",
                                "permission is hereby granted", "@generated", "do not edit"})
    if (lowered.find(word) != std::string::npos) return true;
  return false;
}

// A comment that is no prose: code commented out, a tool's directive, a note to self.
bool noProse(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\n')) t.remove_prefix(1);
  for (std::string_view start : {"TODO", "FIXME", "XXX", "HACK", "NOLINT", "clang-format", "namespace ", "end of",
                                 "#include", "#if", "#endif", "IWYU", "cppcheck", "-*-"})
    if (t.starts_with(start)) return true;
  std::size_t lines = 0, code = 0, at = 0;
  while (at < t.size()) {
    auto end = t.find('\n', at);
    if (end == std::string_view::npos) end = t.size();
    std::string_view line = t.substr(at, end - at);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (!line.empty()) {
      ++lines;
      if (line.back() == ';' || line.back() == '{' || line.back() == '}') ++code;
    }
    at = end + 1;
  }
  return lines > 0 && code == lines;
}

// The declarator that names a function or variable: through pointers, references,
// parentheses, arrays and initialisers.
Node innermostDeclarator(Node declarator) {
  for (int guard = 0; guard < 16 && declarator; ++guard) {
    std::string_view type = declarator.type();
    if (type == "function_declarator") return declarator;
    if (type == "pointer_declarator" || type == "reference_declarator" || type == "array_declarator" ||
        type == "init_declarator" || type == "attributed_declarator" || type == "parenthesized_declarator") {
      Node inner = declarator.field("declarator");
      if (!inner) {
        for (const auto& child : declarator.namedChildren())
          if (child.type().ends_with("declarator") || child.type() == "identifier" ||
              child.type() == "field_identifier" || child.type() == "qualified_identifier") {
            inner = child;
            break;
          }
      }
      declarator = inner;
      continue;
    }
    return declarator;
  }
  return declarator;
}

// A function declarator's name node's text, split into its scope (`Widget::size`'s
// `Widget`) and its own name; operators and destructors as written.
std::pair<std::string, std::string> splitQualified(std::string_view name) {
  int angle = 0;
  std::size_t split = std::string_view::npos;
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++angle;
    else if (name[i] == '>') --angle;
    else if (angle == 0 && name[i] == ':' && name[i + 1] == ':') split = i;
  }
  std::string own(split == std::string_view::npos ? name : name.substr(split + 2));
  std::string scope(split == std::string_view::npos ? std::string_view() : name.substr(0, split));
  if (auto angleAt = own.find('<'); angleAt != std::string::npos && !own.starts_with("operator"))
    own = own.substr(0, angleAt);  // a specialisation's name
  return {scope, own};
}

// A name as one line: `operator =` as `operator=`, `~ Widget` as `~Widget`.
std::string oneLineName(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
  return out;
}

// Text without the comments in it (a head spanning lines with remarks).
std::string withoutComments(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"' || text[i] == '\'') {
      char quote = text[i];
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != quote && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.append(text.substr(i, j - i));
      i = j;
    } else if (text.substr(i).starts_with("//")) {
      auto end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end;
      out += ' ';
    } else if (text.substr(i).starts_with("/*")) {
      auto end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      out += ' ';
    } else {
      out += text[i++];
    }
  }
  return out;
}

// The body a declaration's head stops at: a function's, a class's or an enum's.
Node bodyOf(const Node& declaration) {
  for (const char* field : {"body"}) {
    Node body = declaration.field(field);
    if (body) return body;
  }
  for (const auto& child : declaration.namedChildren()) {
    std::string_view type = child.type();
    if (type == "field_initializer_list" || type == "compound_statement" || type == "field_declaration_list" ||
        type == "enumerator_list" || type == "declaration_list")
      return child;
  }
  return {};
}

struct Context {
  std::string scope;         // the enclosing class (C++ `Outer::Inner`)
  bool visible = true;       // in a public place: not a detail namespace, a private member or a hidden type
  bool inClass = false;      // members of a class, struct or union
  bool conditional = false;  // in a preprocessor branch (not the include guard)
  std::string className;     // a constructor's name
};

class CFamilyReader {
 public:
  CFamilyReader(std::string_view source, bool header, bool cpp) : source_(source), header_(header), cpp_(cpp) {
    for (const auto& range : syntax::namespaceRanges(std::string(source)))
      if (implementationNamespace(range.name)) hidden_.emplace_back(range.begin, range.end);
  }

  // A file's, namespace's or preprocessor block's declarations.
  void container(const Node& node, const Context& context, int depth) {
    if (depth > kMaxDepth) return;
    Level level(*this, node);
    for (const auto& child : level.children) {
      if (symbols_.size() >= kMaxSymbols) return;
      declaration(child, child, context, "", depth);
    }
  }

  std::vector<Symbol> take() { return std::move(symbols_); }

 private:
  // `node`: the declaration; `outer`: where its doc and extent start (a template around
  // it); `templateHead`: "template <typename T>" when there is one.
  void declaration(const Node& node, const Node& outer, const Context& context, const std::string& templateHead,
                   int depth) {
    std::string_view type = node.type();
    if (type == "preproc_if" || type == "preproc_ifdef" || type == "preproc_else" || type == "preproc_elif" ||
        type == "preproc_elifdef" || type == "ERROR") {
      Context inner = context;
      inner.conditional = context.conditional || (type != "ERROR" && !(depth == 0 && coversFile(node)));
      container(node, inner, depth + 1);
    } else if (type == "linkage_specification") {  // extern "C" { ... }
      Node body = node.field("body");
      if (body.type() == "declaration_list") container(body, context, depth + 1);
      else if (body) declaration(body, outer, context, templateHead, depth + 1);
    } else if (type == "namespace_definition") {
      // Which namespace a declaration is in comes from its tokens (namespaceRanges): the
      // tree's nesting is lost where the parser recovered from an error.
      container(node.field("body"), context, depth + 1);
    } else if (type == "template_declaration") {
      std::string head = oneLineHead(withoutComments(shown(node.field("parameters"))));
      for (const auto& child : node.namedChildren()) {
        if (child.type() == "template_parameter_list" || isComment(child)) continue;
        declaration(child, outer, context, "template " + head, depth + 1);
        break;
      }
    } else if (type == "function_definition") {
      function(node, outer, context, templateHead, nullptr);
    } else if (type == "declaration" || type == "field_declaration") {
      declarationStatement(node, outer, context, templateHead, depth);
    } else if (type == "class_specifier" || type == "struct_specifier" || type == "union_specifier" ||
               type == "enum_specifier") {
      record(node, outer, context, templateHead, "", depth);
    } else if (type == "type_definition") {
      typeDefinition(node, outer, context, depth);
    } else if (type == "alias_declaration") {
      add(outer, std::string(node.field("name").text()), "alias", context, context.visible,
          templateHead + (templateHead.empty() ? "" : " ") + oneLineHead(withoutComments(shown(node))));
    } else if (type == "concept_definition") {
      add(outer, std::string(node.field("name").text()), "concept", context, context.visible,
          templateHead + (templateHead.empty() ? "" : " ") + oneLineHead(withoutComments(shown(node))));
    } else if (type == "preproc_def" || type == "preproc_function_def") {
      macro(node, context);
    }
  }

  // `int f(int);`, `extern int x;`, `struct S { ... } s;`, a member `int n = 0;`.
  void declarationStatement(const Node& node, const Node& outer, const Context& context,
                            const std::string& templateHead, int depth) {
    Node typeNode = node.field("type");
    std::string_view typeKind = typeNode.type();
    if ((typeKind == "class_specifier" || typeKind == "struct_specifier" || typeKind == "union_specifier" ||
         typeKind == "enum_specifier") &&
        bodyOf(typeNode))
      record(typeNode, outer, context, templateHead, "", depth);
    for (const auto& child : node.children())
      if (child.type() == "friend") return;  // declared where it belongs
    std::vector<Node> declarators = node.fieldAll("declarator");
    if (declarators.empty()) {  // `virtual int size() = 0;` may hide its declarator from the field
      for (const auto& child : node.namedChildren())
        if (child.type().ends_with("declarator")) declarators.push_back(child);
    }
    for (const auto& declarator : declarators) {
      Node named = innermostDeclarator(declarator);
      if (named.type() == "function_declarator") {
        function(node, outer, context, templateHead, &declarator);
        continue;
      }
      std::string name(named.text());
      if (name.empty() || name.find_first_of("(){}[]* \t\n") != std::string::npos) continue;
      // A variable: a class's field, a global (`extern` in a header) or a constant.
      bool visible = context.visible && header_ && !name.starts_with("_");
      std::string head = specifiersOf(node, declarator) + " " + oneLineHead(withoutComments(shown(declarator)));
      add(outer, name, context.inClass ? "field" : "variable", context, visible,
          oneLineHead(templateHead + (templateHead.empty() ? "" : " ") + head));
    }
  }

  // The declaration's text before its first declarator (`static const char*`'s `static const char`).
  std::string specifiersOf(const Node& declaration, const Node& declarator) const {
    std::string_view all = shown(declaration);
    std::size_t length = declarator.startByte() > declaration.startByte()
                             ? std::min<std::size_t>(declarator.startByte() - declaration.startByte(), all.size())
                             : 0;
    return oneLineHead(withoutComments(all.substr(0, length)));
  }

  void function(const Node& node, const Node& outer, const Context& context, const std::string& templateHead,
                const Node* declarator) {
    Node functionDeclarator = innermostDeclarator(declarator ? *declarator : node.field("declarator"));
    if (functionDeclarator.type() != "function_declarator") {
      // A definition whose declarator hides behind a macro the blanking missed.
      for (const auto& child : node.namedChildren())
        if (innermostDeclarator(child).type() == "function_declarator") functionDeclarator = innermostDeclarator(child);
    }
    if (functionDeclarator.type() != "function_declarator") return;
    auto [qualifier, name] = splitQualified(withoutComments(shown(functionDeclarator.field("declarator"))));
    name = oneLineName(name);
    if (name.empty()) return;
    bool isStatic = false, isFriend = false;
    for (const auto& child : node.children()) {
      if (child.type() == "storage_class_specifier" && child.text() == "static") isStatic = true;
      if (child.type() == "friend") isFriend = true;
    }
    if (isFriend) return;
    // The head: to the body (or the constructor's initialisers), or the whole declaration.
    Node body = node.type() == "function_definition" ? bodyOf(node) : Node();
    std::uint32_t end = body ? body.startByte() : node.endByte();
    for (const auto& child : node.namedChildren())  // a constructor's `: member_(value)`
      if (child.type() == "field_initializer_list") end = std::min(end, child.startByte());
    std::string_view all = shown(node);
    std::size_t length = std::min<std::size_t>(end > node.startByte() ? end - node.startByte() : 0, all.size());
    std::string head = oneLineHead(withoutComments(all.substr(0, length)));
    if (!templateHead.empty()) head = templateHead + " " + head;
    std::string kind = "function";
    Context placed = context;
    bool visible = context.visible;
    if (!qualifier.empty() && !context.inClass) {
      // `int Widget::size() const { ... }`: a member defined out of its class; its
      // declaration in the class is the API.
      placed.scope = qualifier;
      kind = "method";
      visible = false;
    } else if (context.inClass) {
      kind = name == context.className ? "constructor" : "method";
    }
    if (!header_ && !context.inClass) {
      // A source file's API: its documented functions other files can call.
      visible = visible && qualifier.empty() && !isStatic && hasDoc(outer);
    }
    if (name.starts_with("__")) visible = false;
    add(outer, name, kind, placed, visible, head);
  }

  // A class, struct, union or enum with its members. `alias`: the typedef's name for
  // `typedef struct { ... } name;`.
  void record(const Node& node, const Node& outer, const Context& context, const std::string& templateHead,
              const std::string& alias, int depth) {
    std::string_view type = node.type();
    std::string kind = type == "class_specifier"    ? "class"
                       : type == "struct_specifier" ? "struct"
                       : type == "union_specifier"  ? "union"
                                                    : "enum";
    std::string name = alias.empty() ? std::string(node.field("name").text()) : alias;
    Node body = node.field("body");
    if (!body) body = bodyOf(node);
    if (!body) return;  // `struct S;` declares it; its definition documents it
    if (name.empty()) {
      // An anonymous enum's constants, or an anonymous struct's or union's members,
      // belong to the enclosing scope (C11 and C++ anonymous members).
      if (kind == "enum") enumerators(body, context, context.visible && (header_ || context.inClass));
      else containerWithAccess(body, context, context.visible, kind == "class", depth + 1);
      return;
    }
    // `struct List<T>::Node { ... }`: a member class defined outside its class, declared
    // (and documented) in it.
    auto [qualifier, ownName] = splitQualified(name);
    if (ownName.empty() || ownName.find_first_of(" \t\n") != std::string::npos) return;
    bool outOfLine = !qualifier.empty();
    name = ownName;
    std::string_view all = shown(node);
    std::size_t length = body && body.startByte() > node.startByte()
                             ? std::min<std::size_t>(body.startByte() - node.startByte(), all.size())
                             : all.size();
    std::string head = oneLineHead(withoutComments(all.substr(0, length)));
    if (!alias.empty()) head = "typedef " + head + " " + alias;
    if (!templateHead.empty()) head = templateHead + " " + head;
    bool visible = context.visible && header_ && !name.starts_with("_") && !outOfLine;
    Context placed = context;
    if (outOfLine) placed.scope = oneLineName(splitQualified(qualifier).second);
    add(outer, name, kind, placed, visible, head);
    Context inner;
    inner.scope = cpp_ && !placed.scope.empty() ? placed.scope + "::" + name : name;
    inner.visible = visible;
    inner.inClass = kind != "enum";
    inner.className = name;
    if (kind == "enum") {
      enumerators(body, inner, visible);
      return;
    }
    // Members start private in a class, public in a struct or union.
    Context members = inner;
    members.visible = visible && kind != "class";
    containerWithAccess(body, members, visible, kind == "class", depth + 1);
  }

  void containerWithAccess(const Node& body, const Context& members, bool typeVisible, bool startsPrivate, int depth) {
    if (depth > kMaxDepth) return;
    bool access = !startsPrivate;
    Level level(*this, body);
    for (const auto& child : level.children) {
      if (symbols_.size() >= kMaxSymbols) return;
      if (child.type() == "access_specifier") {
        std::string_view word = child.text();
        access = word.starts_with("public") || word.starts_with("protected");
        continue;
      }
      Context inner = members;
      inner.visible = typeVisible && access;
      if (child.type() == "preproc_if" || child.type() == "preproc_ifdef" || child.type() == "preproc_else" ||
          child.type() == "preproc_elif") {
        containerWithAccess(child, inner, typeVisible, !access, depth + 1);
        continue;
      }
      declaration(child, child, inner, "", depth);
    }
  }

  void enumerators(const Node& list, const Context& context, bool visible) {
    Level level(*this, list);
    for (const auto& child : level.children) {
      if (symbols_.size() >= kMaxSymbols) return;
      if (child.type() != "enumerator") continue;
      add(child, std::string(child.field("name").text()), "constant", context, visible,
          oneLineHead(withoutComments(shown(child))));
    }
  }

  // typedef int length_t; typedef struct { ... } point_t; typedef void (*callback)(int);
  void typeDefinition(const Node& node, const Node& outer, const Context& context, int depth) {
    Node typeNode = node.field("type");
    std::vector<Node> declarators = node.fieldAll("declarator");
    std::string_view typeKind = typeNode.type();
    bool hasBody = (typeKind == "struct_specifier" || typeKind == "union_specifier" || typeKind == "enum_specifier" ||
                    typeKind == "class_specifier") &&
                   bodyOf(typeNode);
    for (const auto& declarator : declarators) {
      Node named = innermostDeclarator(declarator);
      if (named.type() == "function_declarator") named = innermostDeclarator(named.field("declarator"));
      std::string name(named.text());
      if (name.empty() || name.find_first_of("(){}[]* \t\n") != std::string::npos) continue;
      if (hasBody && declarators.size() == 1) {
        record(typeNode, outer, context, "", name, depth);
        return;
      }
      std::string head = hasBody ? "typedef " + oneLineHead(std::string(typeKind.substr(0, typeKind.find('_')))) + " " +
                                       std::string(typeNode.field("name").text()) + " " +
                                       oneLineHead(withoutComments(shown(declarator)))
                                 : oneLineHead(withoutComments(shown(node)));
      add(outer, name, "typedef", context, context.visible && header_ && !name.starts_with("_"), head);
    }
  }

  void macro(const Node& node, const Context& context) {
    std::string name(node.field("name").text());
    Node value = node.field("value");
    // Include guards and valueless switches (`#define FOO_H`, `#define FMT_EXPORT`) say nothing.
    if (name.empty() || (!value && node.type() == "preproc_def")) return;
    for (std::string_view guard : {"_H", "_H_", "_HPP", "_HPP_", "_INCLUDED", "_INCLUDED_", "_HH"})
      if (name.ends_with(guard)) return;
    std::string head = "#define " + name;
    if (Node parameters = node.field("parameters")) head += oneLineHead(parameters.text());
    else head += " " + oneLineHead(withoutComments(shown(value)).substr(0, 80));
    // A macro defined in a preprocessor branch without a word of doc is configuration
    // plumbing (`#if ... #define FMT_USE_X 1 #else ... 0`); each name is listed once.
    if (!macros_.insert(name).second) return;
    bool visible = context.visible && header_ && !name.starts_with("_") && (!context.conditional || hasDoc(node));
    add(node, name, "macro", context, visible, oneLineHead(head));
  }

  // The comments that document `node`: those right above it (Doxygen's markers with any
  // gap, plain ones adjacent), or a `///<` (or plain, for a field) after it on its line.
  std::string docOf(const Node& node) const {
    std::string_view nodeType = node.type();
    if (nodeType == "field_declaration" || nodeType == "enumerator") {
      // `dec = 3,  // 'd'` under `// Integer specifiers:`: the remark on the member's own
      // line is its doc; a plain comment above heads a group.
      std::string trailing = trailingComment(node);
      Node above = sibling(node, -1);
      bool doxygenAbove = above && isComment(above) && doxygenStyle(above.text()) && !trailingStyle(above.text());
      if (!trailing.empty() && !doxygenAbove) return doxygenCommentText(trailing);
    }
    std::vector<Node> run;
    Node previous = sibling(node, -1);
    int lineAbove = node.startLine();
    bool doxygen = false;
    for (int taken = 0; previous && isComment(previous) && taken < kMaxCommentRun; ++taken) {
      std::string_view text = previous.text();
      if (trailingStyle(text)) break;
      Node beforeIt = sibling(previous, -1);
      if (beforeIt && !isComment(beforeIt) && beforeIt.endLine() == previous.startLine()) break;  // trails that one
      bool adjacent = previous.endLine() >= lineAbove - 1;
      if (!adjacent && !(doxygenStyle(text) && run.empty())) break;
      doxygen = doxygen || doxygenStyle(text);
      run.push_back(previous);
      lineAbove = previous.startLine();
      previous = sibling(previous, -1);
    }
    std::string comments;
    for (auto it = run.rbegin(); it != run.rend(); ++it) {
      if (doxygen && !doxygenStyle(it->text())) continue;  // a plain remark among Doxygen lines
      comments += std::string(it->text()) + "\n";
    }
    if (comments.empty()) comments = trailingComment(node);
    if (comments.empty()) comments = commentBelow(node);
    if (comments.empty()) return {};
    std::string text = doxygenCommentText(comments);
    if (!doxygen && (legalText(text) || noProse(text))) return {};
    return text;
  }

  // `int x; ///< the x` (and `A, /**< first */`): the comment after a declaration on its line.
  std::string trailingComment(const Node& node) const {
    Node next = sibling(node, 1);
    if (!next || !isComment(next) || next.startLine() != node.endLine()) return {};
    std::string_view text = next.text();
    if (trailingStyle(text)) return std::string(text);
    std::string_view type = node.type();
    bool member = type == "field_declaration" || type == "enumerator";
    return member && !doxygenStyle(text) ? std::string(text) : std::string();
  }

  // A header that documents its functions below them (zlib's `ZEXTERN int deflate(...);`
  // then `/* deflate compresses ... */`): a plain block comment on the next line, when
  // no declaration follows it closely (then it would be that one's).
  std::string commentBelow(const Node& node) const {
    if (!header_ || (node.type() != "declaration" && node.type() != "field_declaration")) return {};
    Node next = sibling(node, 1);
    if (!next || !isComment(next) || next.startLine() != node.endLine() + 1) return {};
    std::string_view text = next.text();
    if (!text.starts_with("/*") || doxygenStyle(text)) return {};
    Node after = sibling(next, 1);
    if (after && !isComment(after) && after.startLine() <= next.endLine() + 1) return {};
    return std::string(text);
  }

  bool hasDoc(const Node& node) const { return !docOf(node).empty(); }

  void add(const Node& node, std::string name, std::string kind, const Context& context, bool visible,
           std::string signature) {
    if (name.empty() || symbols_.size() >= kMaxSymbols) return;
    Symbol s;
    s.name = std::move(name);
    s.kind = std::move(kind);
    s.scope = context.scope;
    s.signature = std::move(signature);
    s.line = node.startLine();
    s.end = node.endLine();
    s.visibility = visible && !inImplementationNamespace(node.startByte()) ? "public" : "private";
    std::string text = docOf(node);
    if (!text.empty()) {
      attachDoc(s, renderDoxygen(text, cpp_ ? "cpp" : "c"));
    }
    symbols_.push_back(std::move(s));
  }

  // The named children of the node being read, innermost last: tree-sitter 0.20's
  // sibling steps walk from the parent's first child, which made every doc lookup linear
  // in a namespace's size; here a neighbour is a binary search away.
  struct Level {
    Level(CFamilyReader& reader, const Node& node) : reader_(reader), children(node.namedChildren()) {
      reader_.levels_.push_back(&children);
    }
    ~Level() { reader_.levels_.pop_back(); }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
    CFamilyReader& reader_;
    std::vector<Node> children;
  };

  // The named sibling `offset` steps from `node` (-1: before it), or null.
  Node sibling(const Node& node, int offset) const {
    for (auto level = levels_.rbegin(); level != levels_.rend(); ++level) {
      const std::vector<Node>& list = **level;
      auto at = std::lower_bound(list.begin(), list.end(), node.startByte(),
                                 [](const Node& n, std::uint32_t start) { return n.startByte() < start; });
      for (; at != list.end() && at->startByte() == node.startByte(); ++at) {
        if (at->endByte() != node.endByte() || at->type() != node.type()) continue;
        auto index = static_cast<long>(at - list.begin()) + offset;
        if (index < 0 || index >= static_cast<long>(list.size())) return {};
        return list[static_cast<std::size_t>(index)];
      }
    }
    return {};
  }

  // An include guard's #ifndef: the whole file is in it.
  bool coversFile(const Node& block) const {
    return block.startByte() < 64 + source_.find_first_not_of(" \t\r\n") &&
           block.endByte() + 64 > source_.find_last_not_of(" \t\r\n");
  }

  // A node's text as shown: the source with annotation macros blanked, before template
  // macros became parameters for the parser.
  std::string_view shown(const Node& node) const {
    if (node.null() || node.endByte() > source_.size() || node.startByte() > node.endByte()) return {};
    return source_.substr(node.startByte(), node.endByte() - node.startByte());
  }

  bool inImplementationNamespace(std::size_t at) const {
    for (const auto& [begin, end] : hidden_)
      if (at > begin && at < end) return true;
    return false;
  }

  std::string_view source_;
  bool header_, cpp_;
  std::vector<std::pair<std::size_t, std::size_t>> hidden_;  // detail and anonymous namespaces
  std::vector<Symbol> symbols_;
  std::set<std::string> macros_;
  std::vector<const std::vector<Node>*> levels_;
};

// The file's purpose: a comment saying `@file`, else the first comment before any
// declaration that documents none (a licence's paragraphs left out).
std::string fileDoc(const Node& root, bool cpp) {
  std::vector<Node> comments;
  Node first;
  // Comments before the first declaration, through an include guard's #ifndef.
  std::vector<Node> level = root.namedChildren();
  for (int depth = 0; depth < 4; ++depth) {
    Node descend;
    for (const auto& child : level) {
      std::string_view type = child.type();
      if (type == "comment") {
        comments.push_back(child);
        continue;
      }
      if (type == "preproc_include" || type == "preproc_def" || type == "preproc_call" || type == "identifier")
        continue;
      if (type == "preproc_ifdef" || type == "preproc_if") descend = child;
      else first = child;
      break;
    }
    if (!descend) break;
    level = descend.namedChildren();
  }
  for (const auto& comment : comments) {
    std::string text = doxygenCommentText(comment.text());
    if (text.find("@file") != std::string::npos || text.find("\\file") != std::string::npos)
      return renderDoxygen(text, cpp ? "cpp" : "c").markdown;
  }
  for (const auto& comment : comments) {
    // A comment right above a declaration documents that declaration.
    Node next = comment.nextNamedSibling();
    if (next && !isComment(next) && next.startLine() <= comment.endLine() + 1 && !next.type().starts_with("preproc"))
      continue;
    std::string text = doxygenCommentText(comment.text());
    if (noProse(text)) continue;
    std::string purpose = legalText(text) ? purposeBeforeLegalText(text) : text;
    if (!purpose.empty()) return renderDoxygen(purpose, cpp ? "cpp" : "c").markdown;
  }
  return {};
}

}  // namespace

std::optional<ParsedFile> readCFamilyDeclarations(const std::string& language, const std::string& path,
                                                  const std::string& text) {
  bool cpp = language == "c++";
  std::string shown = syntax::withoutAnnotationMacros(text);
  auto tree = syntax::parse(syntax::grammarFor(cpp ? "c++" : "c", path),
                            syntax::withoutFunctionBodies(cpp ? syntax::withTemplateMacrosAsParameters(shown) : shown));
  if (!tree) return std::nullopt;
  ParsedFile out;
  Node root = tree->root();
  CFamilyReader reader(shown, isHeader(path), cpp);
  reader.container(root, Context{}, 0);
  out.symbols = reader.take();
  out.doc = fileDoc(root, cpp);
  return out;
}

}  // namespace docs_generation
