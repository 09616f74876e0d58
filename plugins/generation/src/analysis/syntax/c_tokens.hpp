#pragma once
// What C and C++ code says at the level of its tokens, where the parser cannot see it.
//
// C and C++ declarations are wrapped in macros the parser cannot expand: export and
// attribute macros (`FMT_API void f();`, `class LEVELDB_EXPORT DB {`, `ZEXTERN int
// ZEXPORT deflate(...)`), namespace openers (`FMT_BEGIN_NAMESPACE`). Doxygen is told them
// one by one (PREDEFINED); here they are recognised by their shape: an upper-case name
// (or a call of one) standing where a declaration continues with a name or keyword.

#include <cstddef>
#include <string>
#include <vector>

namespace docs_generation::syntax {

// `source` with such macros replaced by spaces (byte offsets and lines unchanged), outside
// comments, strings and preprocessor lines. Linear in the source's size.
std::string withoutAnnotationMacros(std::string source);

// `source` with each macro call among a template's parameters (fmt's `template <typename
// T, FMT_ENABLE_IF(cond)>`, a SFINAE constraint) replaced by `int` and spaces, a parameter
// the parser reads; byte offsets unchanged. For parsing only: heads are shown from the
// text before this replacement.
std::string withTemplateMacrosAsParameters(std::string source);

// `source` with the insides of function bodies replaced by spaces (newlines kept): what
// a function does is no part of its declaration, and expressions are where the parser's
// C++ grammar fails most (`unsigned(id) < n` read as a template), failures whose recovery
// can cost the whole enclosing class. A body is a brace after a parameter list (and its
// qualifiers, trailing return type or constructor initialisers) at file, namespace or
// class level; an initialiser's content (`= { ... }`, generated tables) is emptied too; a
// type's and a namespace's braces are kept.
std::string withoutFunctionBodies(std::string source);

// A namespace's body as a byte range: `namespace detail {` to its closing brace. The
// parser loses namespaces whose braces preprocessor branches interleave with other code
// (its error recovery keeps the declarations, not their nesting); braces counted over
// tokens do not.
struct NamespaceRange {
  std::string name;  // as written (`a::detail`); empty for an anonymous namespace
  std::size_t begin = 0, end = 0;
};
std::vector<NamespaceRange> namespaceRanges(const std::string& source);

}  // namespace docs_generation::syntax
