#include "analysis/syntax/syntax_tree.hpp"

#include <tree_sitter/api.h>

#include <cstring>

extern "C" {
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_tsx(void);
const TSLanguage* tree_sitter_go(void);
const TSLanguage* tree_sitter_rust(void);
const TSLanguage* tree_sitter_java(void);
const TSLanguage* tree_sitter_kotlin(void);
const TSLanguage* tree_sitter_c(void);
const TSLanguage* tree_sitter_cpp(void);
const TSLanguage* tree_sitter_c_sharp(void);
const TSLanguage* tree_sitter_ruby(void);
const TSLanguage* tree_sitter_php(void);
}

namespace docs_generation::syntax {

static_assert(sizeof(TSNode) <= 32 && alignof(TSNode) <= 8, "Node keeps a TSNode in place");

namespace {
const TSNode& ts(const unsigned char* raw) { return *reinterpret_cast<const TSNode*>(raw); }
}  // namespace

const TSLanguage* grammarFor(std::string_view language, std::string_view path) {
  if (language == "python") return tree_sitter_python();
  if (language == "javascript") return tree_sitter_javascript();
  if (language == "typescript") return path.ends_with(".tsx") ? tree_sitter_tsx() : tree_sitter_typescript();
  if (language == "go") return tree_sitter_go();
  if (language == "rust") return tree_sitter_rust();
  if (language == "java") return tree_sitter_java();
  if (language == "kotlin") return tree_sitter_kotlin();
  if (language == "c") return tree_sitter_c();
  if (language == "c++") return tree_sitter_cpp();
  if (language == "csharp") return tree_sitter_c_sharp();
  if (language == "ruby") return tree_sitter_ruby();
  if (language == "php") return tree_sitter_php();
  return nullptr;
}

Node::Node(const void* raw, std::string_view source) : source_(source) {
  std::memcpy(raw_, raw, sizeof(TSNode));
  null_ = ts_node_is_null(ts(raw_));
}

std::string_view Node::type() const { return null_ ? std::string_view() : ts_node_type(ts(raw_)); }
bool Node::named() const { return !null_ && ts_node_is_named(ts(raw_)); }
bool Node::hasError() const { return !null_ && ts_node_has_error(ts(raw_)); }

// Children through a cursor: ts_node_child(i) walks from the first child each time, which
// made a file of 20,000 top-level comments cost seconds.
std::vector<Node> Node::namedChildren() const {
  std::vector<Node> out;
  if (null_) return out;
  out.reserve(ts_node_named_child_count(ts(raw_)));
  TSTreeCursor cursor = ts_tree_cursor_new(ts(raw_));
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(child)) out.push_back(Node(&child, source_));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

std::vector<Node> Node::children() const {
  std::vector<Node> out;
  if (null_) return out;
  out.reserve(ts_node_child_count(ts(raw_)));
  TSTreeCursor cursor = ts_tree_cursor_new(ts(raw_));
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      out.push_back(Node(&child, source_));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

Node Node::field(const char* name) const {
  if (null_) return {};
  TSNode child = ts_node_child_by_field_name(ts(raw_), name, static_cast<std::uint32_t>(std::strlen(name)));
  return Node(&child, source_);
}

std::vector<Node> Node::fieldAll(const char* name) const {
  std::vector<Node> out;
  if (null_) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(ts(raw_));
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char* field = ts_tree_cursor_current_field_name(&cursor);
      if (field && std::strcmp(field, name) == 0) {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        out.push_back(Node(&child, source_));
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

Node Node::parent() const {
  if (null_) return {};
  TSNode n = ts_node_parent(ts(raw_));
  return Node(&n, source_);
}

Node Node::previousNamedSibling() const {
  if (null_) return {};
  TSNode n = ts_node_prev_named_sibling(ts(raw_));
  return Node(&n, source_);
}

Node Node::nextNamedSibling() const {
  if (null_) return {};
  TSNode n = ts_node_next_named_sibling(ts(raw_));
  return Node(&n, source_);
}

std::uint32_t Node::startByte() const { return null_ ? 0 : ts_node_start_byte(ts(raw_)); }
std::uint32_t Node::endByte() const { return null_ ? 0 : ts_node_end_byte(ts(raw_)); }
int Node::startLine() const { return null_ ? 0 : static_cast<int>(ts_node_start_point(ts(raw_)).row) + 1; }

int Node::endLine() const {
  if (null_) return 0;
  TSPoint end = ts_node_end_point(ts(raw_));
  // A node that ends with its line break ends on the line before.
  int line = static_cast<int>(end.row) + 1;
  if (end.column == 0 && line > startLine()) --line;
  return line;
}

std::string_view Node::text() const {
  if (null_) return {};
  std::uint32_t from = startByte(), to = endByte();
  if (from > source_.size() || to > source_.size() || from > to) return {};
  return source_.substr(from, to - from);
}

Tree::Tree(TSTree* tree, std::string source) : tree_(tree), source_(std::move(source)) {}
Tree::Tree(Tree&& other) noexcept : tree_(other.tree_), source_(std::move(other.source_)) { other.tree_ = nullptr; }
Tree& Tree::operator=(Tree&& other) noexcept {
  if (this != &other) {
    if (tree_) ts_tree_delete(tree_);
    tree_ = other.tree_;
    source_ = std::move(other.source_);
    other.tree_ = nullptr;
  }
  return *this;
}
Tree::~Tree() {
  if (tree_) ts_tree_delete(tree_);
}

Node Tree::root() const {
  TSNode n = ts_tree_root_node(tree_);
  return Node(&n, source_);
}

namespace {
// The deepest run of open brackets. libtree-sitter 0.20.7 corrupts its heap freeing a tree
// recovered from 65,536 unclosed brackets (found by the hostile-input test); no real code
// nests a thousandth of that.
bool nestsTooDeep(std::string_view source) {
  int depth = 0;
  for (char c : source) {
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxBracketDepth) return true;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}
}  // namespace

std::optional<Tree> parse(const TSLanguage* grammar, std::string source, std::chrono::milliseconds budget) {
  if (!grammar || source.size() > 0xFFFFFFF0u || nestsTooDeep(source)) return std::nullopt;
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), grammar)) return std::nullopt;
  ts_parser_set_timeout_micros(parser.get(), static_cast<std::uint64_t>(budget.count()) * 1000);
  TSTree* tree =
      ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
  if (!tree) return std::nullopt;
  return Tree(tree, std::move(source));
}

}  // namespace docs_generation::syntax
