// C and C++ declarations read with tree-sitter as Doxygen reads a header, Doxygen comments
// rendered, the token-level preparation (annotation macros, function bodies, namespaces),
// and hostile input.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "analysis/doc_dialects/doxygen.hpp"
#include "analysis/syntax/c_tokens.hpp"
#include "analysis/syntax/declarations.hpp"
#include "syntax_test_support.hpp"

using namespace docs_generation;
using namespace docs_generation::testing;

namespace {

doc_text::RenderedDoc doxygen(const std::string& comment) { return renderDoxygen(doxygenCommentText(comment)); }

const std::string kWidgets = R"CPP(// Widgets for terminals: boxes, labels and the layout that places them.
                                   //
                                   // Copyright (c) 2024 The Widget Authors.
                                   // Licensed under the MIT license.

#ifndef WIDGETS_HPP_
#define WIDGETS_HPP_

#include <string>

                                   /// The library's version, as a number.
#define WIDGETS_VERSION 3

#if defined(_WIN32)
#define WIDGETS_API __declspec(dllexport)
#else
#define WIDGETS_API __attribute__((visibility("default")))
#endif

                                   namespace widgets {
                                   namespace detail {
                                   /// Not for users: counts things.
                                   int count_things(int n);
                                   }  // namespace detail

                                   namespace {
                                   int file_local(int n);
                                   }

                                   /**
                                    * Formats `value` for a terminal of `width` columns.
                                    *
                                    * @tparam T a printable type
                                    * @param[in] value what to show
                                    * @param width the columns; \c 0 means the terminal's
                                    * @return the text, padded
                                    * @throws std::invalid_argument when \p width is negative
                                    * @since 2.0
                                    */
                                   template <typename T, WIDGETS_ENABLE_IF(std::is_copy_constructible<T>::value)>
                                   WIDGETS_API auto format(const T& value, int width = 0) -> std::string {
                                     if (unsigned(width) < unsigned(value.size())) return {};
                                     return std::string();
                                   }

                                   /// Draws `text` at the cursor.
                                   WIDGETS_API void draw(const char* text);

                                   // Clears the screen (a plain comment right above: its doc).
                                   void clear();

                                   // A remark about a group of functions, then a blank line.

                                   void beep();

                                   class WIDGETS_API Box : public Base {
                                    public:
                                     /// Makes an empty box.
                                     Box();
                                     explicit Box(int width) : width_(width) {}
                                     virtual ~Box();

                                     /// The box's width in columns.
                                     int width() const noexcept { return width_ < 0 ? 0 : width_; }

                                     enum class Border {
                                       None,    ///< no border
                                       Single,  // one line
                                       Double
                                     };

                                    protected:
                                     /// For subclasses: redraws.
                                     virtual void redraw() = 0;

                                    private:
                                     int width_ = 0;  ///< columns
                                     void layout();
                                   };

                                   struct Point {
                                     int x;  ///< the column
                                     int y;  // the row
                                   };

                                   enum { kLeft, kRight };

                                   int Box::width_or_zero() const { return 0; }

                                   }  // namespace widgets

#endif  // WIDGETS_HPP_
)CPP";

}  // namespace

TEST(Doxygen, CommandsBecomeTheSharedSections) {
  auto doc = doxygen(R"(/**
 * @brief Opens a file.
 *
 * Details come after the brief, with \c code, \p param, \a arg, \b bold, \e emphasis
 * and \ref other_function or \ref page "a page"; a formula \f$x^2\f$; an escaped \@ sign.
 * <b>HTML</b> and <tt>tt</tt> too.
 *
 * @param[in] path where it is,
 *     on two lines
 * @param mode how
 * @tparam T the element
 * @retval 0 success
 * @retval -1 failure
 * @throws std::runtime_error when it cannot
 * @note Files are closed by the destructor.
 * @deprecated Use open2().
 * @see close
 * @code{.py}
 * f = open("x")
 * @endcode
 * @verbatim
 raw <b>text</b>
 @endverbatim
 * @internal
 * Implementation notes nobody should see.
 * @endinternal
 * @file widgets.hpp
 * @ingroup io
 * @{
 */)");
  EXPECT_EQ(doc.summary, "Opens a file.");
  EXPECT_TRUE(contains(doc.markdown,
                       "Opens a file.\n\nDetails come after the brief, with `code`, `param`, *arg*, "
                       "**bold**, *emphasis*"))
      << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "`other_function` or a page; a formula `x^2`; an escaped @ sign."))
      << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "**HTML** and `tt` too.")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "| `path` | `[in]` | where it is, on two lines |")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "| `mode` | | how |")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "| `<T>` | | the element |")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "- `0`: success\n- `-1`: failure")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "- `std::runtime_error`: when it cannot")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "Files are closed by the destructor.")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "Use open2().")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "```py\nf = open(\"x\")\n```")) << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "```text\n")) << doc.markdown;
  for (const char* hidden : {"Implementation notes", "@file", "widgets.hpp", "ingroup", "@{", "@param", "\\c "})
    EXPECT_FALSE(contains(doc.markdown, hidden)) << hidden << "\n" << doc.markdown;
}

TEST(Doxygen, TheSummaryIsTheFirstSentenceWithoutABrief) {
  auto doc = doxygen("/// Reads e.g. a header, i.e. the first bytes. Then more.\n/// More on a second line.");
  EXPECT_EQ(doc.summary, "Reads e.g. a header, i.e. the first bytes.");
  auto plain = doxygen(
      "// If *start < limit, changes *start to a short string in [start,limit).\n"
      "// Simple comparators may leave it unchanged.");
  EXPECT_EQ(plain.summary, "If *start < limit, changes *start to a short string in [start,limit).");
  auto trailing = doxygen("///< the column");
  EXPECT_EQ(trailing.summary, "the column");
  auto block = doxygen("/*!\n * Qt style.\n */");
  EXPECT_EQ(block.summary, "Qt style.");
}

TEST(Doxygen, MarkdownFencesKeepTheirCommandsAsCode) {
  auto doc = doxygen("/**\n * Example:\n *\n * ```cpp\n * // @param is code here\n * auto x = f();\n * ```\n */");
  EXPECT_TRUE(contains(doc.markdown, "```cpp\n// @param is code here\nauto x = f();\n```")) << doc.markdown;
  EXPECT_EQ(doc.summary, "Example:");
}

TEST(CFamilyTokens, AnnotationMacrosAreBlankedWithOffsetsKept) {
  std::string code =
      "FMT_BEGIN_NAMESPACE\nFMT_NORETURN FMT_API void f(int x FMT_UNUSED);\nclass LIB_EXPORT Db : public B {};\n"
      "ZEXTERN int ZEXPORT deflate(z_streamp strm);\nFMT_DEPRECATED(\"use g\") void h();\nstruct FOO bar;\n"
      "x.MEMBER y;\nconst char* s = \"FMT_API void\";\n#define FMT_API __attribute__((x))\nvoid g() FMT_NOEXCEPT;\n"
      "if FMT_CONSTEXPR20 (x) return;\n";
  std::string blanked = syntax::withoutAnnotationMacros(code);
  ASSERT_EQ(blanked.size(), code.size());
  EXPECT_TRUE(contains(blanked, "\n" + std::string(21, ' ') + "void f(int x " + std::string(10, ' ') + ");"))
      << blanked;
  EXPECT_TRUE(contains(blanked, "class            Db : public B {};")) << blanked;
  EXPECT_TRUE(contains(blanked, "        int         deflate(z_streamp strm);")) << blanked;
  EXPECT_TRUE(contains(blanked, "\n" + std::string(23, ' ') + " void h();")) << blanked;
  EXPECT_TRUE(contains(blanked, "struct FOO bar;")) << blanked;  // a variable of type `struct FOO`
  EXPECT_TRUE(contains(blanked, "x.MEMBER y;")) << blanked;
  EXPECT_TRUE(contains(blanked, "\"FMT_API void\"")) << blanked;
  EXPECT_TRUE(contains(blanked, "#define FMT_API __attribute__((x))")) << blanked;
  EXPECT_TRUE(contains(blanked, "void g()             ;")) << blanked;
  EXPECT_TRUE(contains(blanked, "if FMT_CONSTEXPR20 (x)")) << blanked;
}

TEST(CFamilyTokens, FunctionBodiesAreEmptiedAndTypesKept) {
  std::string code =
      "struct S { int f() const { return a < b; } int a; };\n"
      "template <class T, class = decltype(g())> struct X<T> : Base { int m; };\n"
      "struct node *make(void) { return 0; }\n"
      "Box::Box(int w) : w_(w), h_{2} { init(); }\n"
      "static const int table[] = {1, 2};\nnamespace n { void k() { x(); } }\nextern \"C\" { int c(void); }\n";
  std::string emptied = syntax::withoutFunctionBodies(code);
  ASSERT_EQ(emptied.size(), code.size());
  EXPECT_TRUE(contains(emptied, "struct S { int f() const {" + std::string(15, ' ') + "} int a; };")) << emptied;
  EXPECT_TRUE(contains(emptied, "struct X<T> : Base { int m; };")) << emptied;
  EXPECT_TRUE(contains(emptied, "struct node *make(void) {           }")) << emptied;
  EXPECT_TRUE(contains(emptied, "Box::Box(int w) : w_(w), h_{2} {         }")) << emptied;
  EXPECT_TRUE(contains(emptied, "table[] = {    };")) << emptied;
  EXPECT_TRUE(contains(emptied, "namespace n { void k() {      } }")) << emptied;
  EXPECT_TRUE(contains(emptied, "extern \"C\" { int c(void); }")) << emptied;
}

TEST(CFamilyTokens, NamespaceRangesFollowBraces) {
  std::string code = "namespace a { namespace detail { int x; } inline namespace v1 { } }\nnamespace { int y; }\n";
  auto ranges = syntax::namespaceRanges(code);
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(ranges[1].name, "detail");
  EXPECT_EQ(code.substr(ranges[1].begin, ranges[1].end - ranges[1].begin), "{ int x; }");
  EXPECT_EQ(ranges[3].name, "");
}

TEST(CFamilyDeclarations, AHeaderReadsAsDoxygenReadsIt) {
  auto parsed = readDeclarations("c++", "include/widgets.hpp", kWidgets);
  ASSERT_TRUE(parsed);
  // The header's purpose, without the licence its comment shares.
  EXPECT_EQ(parsed->doc, "Widgets for terminals: boxes, labels and the layout that places them.");

  const Symbol* format = find(*parsed, "", "format");
  ASSERT_TRUE(format);
  EXPECT_EQ(format->kind, "function");
  EXPECT_EQ(format->visibility, "public");
  EXPECT_EQ(format->signature,
            "template <typename T, WIDGETS_ENABLE_IF(std::is_copy_constructible<T>::value)> auto format(const T& "
            "value, int width = 0) -> std::string");
  EXPECT_EQ(format->summary, "Formats `value` for a terminal of `width` columns.");
  EXPECT_TRUE(contains(format->doc, "| `value` | `[in]` | what to show |")) << format->doc;
  EXPECT_EQ(format->line, lineOf(kWidgets, "template <typename T, WIDGETS"));
  EXPECT_EQ(format->end, lineOf(kWidgets, "  return std::string();") + 1);

  const Symbol* draw = find(*parsed, "", "draw");  // declared only, behind an export macro
  ASSERT_TRUE(draw);
  EXPECT_EQ(draw->visibility, "public");
  EXPECT_EQ(draw->signature, "void draw(const char* text)");
  EXPECT_EQ(draw->summary, "Draws `text` at the cursor.");
  ASSERT_TRUE(find(*parsed, "", "clear"));
  EXPECT_EQ(find(*parsed, "", "clear")->summary, "Clears the screen (a plain comment right above: its doc).");
  ASSERT_TRUE(find(*parsed, "", "beep"));
  EXPECT_TRUE(find(*parsed, "", "beep")->doc.empty());  // a remark across a blank line is no doc

  for (const char* hidden : {"count_things", "file_local"}) {
    ASSERT_TRUE(find(*parsed, "", hidden)) << hidden;
    EXPECT_EQ(find(*parsed, "", hidden)->visibility, "private") << hidden;
  }

  const Symbol* box = find(*parsed, "", "Box");
  ASSERT_TRUE(box);
  EXPECT_EQ(box->kind, "class");
  EXPECT_EQ(box->signature, "class Box : public Base");
  EXPECT_EQ(box->visibility, "public");
  ASSERT_TRUE(find(*parsed, "Box", "Box"));
  EXPECT_EQ(find(*parsed, "Box", "Box")->kind, "constructor");
  EXPECT_EQ(find(*parsed, "Box", "Box")->summary, "Makes an empty box.");
  const Symbol* width = find(*parsed, "Box", "width");
  ASSERT_TRUE(width);
  EXPECT_EQ(width->signature, "int width() const noexcept");
  EXPECT_EQ(width->visibility, "public");
  EXPECT_EQ(find(*parsed, "Box", "redraw")->visibility, "public");  // protected: for subclasses
  EXPECT_EQ(find(*parsed, "Box", "width_")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Box", "layout")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Box::Border", "None")->summary, "no border");
  EXPECT_EQ(find(*parsed, "Box::Border", "Single")->summary, "one line");
  // Defined out of its class: the declaration inside is the API.
  ASSERT_TRUE(find(*parsed, "Box", "width_or_zero"));
  EXPECT_EQ(find(*parsed, "Box", "width_or_zero")->visibility, "private");

  EXPECT_EQ(find(*parsed, "Point", "x")->summary, "the column");
  EXPECT_EQ(find(*parsed, "Point", "y")->summary, "the row");
  EXPECT_EQ(find(*parsed, "Point", "x")->visibility, "public");  // a struct's members start public
  ASSERT_TRUE(find(*parsed, "", "kLeft"));                       // an anonymous enum's constants are the scope's
  EXPECT_EQ(find(*parsed, "", "kLeft")->kind, "constant");

  const Symbol* version = find(*parsed, "", "WIDGETS_VERSION");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->signature, "#define WIDGETS_VERSION 3");
  EXPECT_EQ(version->summary, "The library's version, as a number.");
  EXPECT_FALSE(find(*parsed, "", "WIDGETS_HPP_"));  // the include guard
  int exportMacros = 0;
  for (const auto& s : parsed->symbols)
    if (s.name == "WIDGETS_API") {
      ++exportMacros;
      EXPECT_EQ(s.visibility, "private");  // configuration in #if branches, undocumented
    }
  EXPECT_EQ(exportMacros, 1);
}

TEST(CFamilyDeclarations, ACHeaderWithTypedefsAndDocsBelowItsFunctions) {
  std::string code = R"C(/* tiny.h -- a tiny compression library
   Copyright (C) 2024 Someone. See the licence at the end. */
#ifndef TINY_H
#define TINY_H
typedef struct tiny_stream_s {
    unsigned char *next_in;  /* next input byte */
    unsigned avail_in;       /* number of bytes available at next_in */
} tiny_stream;

typedef tiny_stream *tiny_streamp;

ZEXTERN int ZEXPORT tiny_deflate(tiny_streamp strm, int flush);
/*
    tiny_deflate compresses as much data as possible. More text follows.
*/

ZEXTERN const char * ZEXPORT tiny_version(void);
#endif
)C";
  auto parsed = readDeclarations("c", "tiny.h", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc, "tiny.h -- a tiny compression library");
  const Symbol* stream = find(*parsed, "", "tiny_stream");
  ASSERT_TRUE(stream);
  EXPECT_EQ(stream->kind, "struct");
  EXPECT_EQ(stream->signature, "typedef struct tiny_stream_s tiny_stream");
  EXPECT_EQ(find(*parsed, "tiny_stream", "avail_in")->summary, "number of bytes available at next_in");
  ASSERT_TRUE(find(*parsed, "", "tiny_streamp"));
  EXPECT_EQ(find(*parsed, "", "tiny_streamp")->kind, "typedef");
  const Symbol* deflate = find(*parsed, "", "tiny_deflate");
  ASSERT_TRUE(deflate);
  EXPECT_EQ(deflate->signature, "int tiny_deflate(tiny_streamp strm, int flush)");
  EXPECT_EQ(deflate->summary, "tiny_deflate compresses as much data as possible.");
  ASSERT_TRUE(find(*parsed, "", "tiny_version"));
  EXPECT_EQ(find(*parsed, "", "tiny_version")->signature, "const char * tiny_version(void)");
}

TEST(CFamilyDeclarations, ASourceFileOffersOnlyItsDocumentedExternalFunctions) {
  std::string code = R"C(#include "tiny.h"

static int helper(int x) { return x; }

/* Returns the library's version string. */
const char *tiny_version(void) { return "1.0"; }

int undocumented(void) { return 0; }
)C";
  auto parsed = readDeclarations("c", "src/tiny.c", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(find(*parsed, "", "helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "", "tiny_version")->visibility, "public");
  EXPECT_EQ(find(*parsed, "", "tiny_version")->summary, "Returns the library's version string.");
  EXPECT_EQ(find(*parsed, "", "undocumented")->visibility, "private");
}

TEST(CFamilyDeclarations, AParseErrorInABodyDoesNotCostTheClass) {
  // Expressions the grammar misreads (`unsigned(id) < n`) stay inside their emptied body,
  // and a namespace whose brace the parser lost still hides what is in it.
  std::string code = R"CPP(namespace lib {
                           namespace detail {
                           template <typename T>
                           class buffer {
                            public:
                             void push(T) {}
                           };
                           }  // namespace detail
                           /// A view of arguments.
                           template <typename Context>
                           class args_view {
                            public:
                             /// Returns the argument with the given id.
                             auto get(int id) const -> int {
                               if (unsigned(id) < unsigned(max_size())) return args_[id];
                               return 0;
                             }
                             /// The number of arguments.
                             auto size() const -> int;
                           };
                           }  // namespace lib
  )CPP";
  auto parsed = readDeclarations("c++", "include/lib/args.h", code);
  ASSERT_TRUE(parsed);
  ASSERT_TRUE(find(*parsed, "", "args_view"));
  EXPECT_EQ(find(*parsed, "", "args_view")->visibility, "public");
  ASSERT_TRUE(find(*parsed, "args_view", "get"));
  EXPECT_EQ(find(*parsed, "args_view", "get")->summary, "Returns the argument with the given id.");
  ASSERT_TRUE(find(*parsed, "args_view", "size"));
  ASSERT_TRUE(find(*parsed, "", "buffer"));
  EXPECT_EQ(find(*parsed, "", "buffer")->visibility, "private");
  EXPECT_EQ(find(*parsed, "buffer", "push")->visibility, "private");
}

TEST(CFamilyDeclarations, HostileInputEndsInBoundedTime) {
  std::string deep(100000, '{');
  std::string longLine = "int f(" + std::string(200000, 'a') + ");";
  std::string invalid = "/// \xff\xfe bad\nint \xc3(int);\n";
  std::string templates;
  for (int i = 0; i < 3000; ++i) templates += "template <typename T" + std::to_string(i) + "> ";
  templates += "void f();";
  std::string macros;
  for (int i = 0; i < 20000; ++i) macros += "FOO_API ";
  macros += "void g();";
  for (const std::string& code : {deep, longLine, invalid, templates, macros, std::string("namespace {"),
                                  std::string("}}}}"), std::string("/* unterminated")}) {
    auto started = std::chrono::steady_clock::now();
    auto parsed = readDeclarations("c++", "a.hpp", code);
    (void)readDeclarations("c", "a.c", code);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));  // catches a hang only
    if (parsed) {
      for (const auto& s : parsed->symbols) EXPECT_LE(s.signature.size(), 404u);
    }
  }
}
