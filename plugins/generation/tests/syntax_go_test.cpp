// Go declarations read with tree-sitter-go as go doc reads them, and Go doc comments
// rendered as pkg.go.dev renders them (Go 1.19 syntax); hostile input.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/go_doc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "syntax_test_support.hpp"

using namespace docs_generation;
using namespace docs_generation::testing;

namespace {

std::size_t indexOf(const ParsedFile& file, const Symbol* symbol) {
  return static_cast<std::size_t>(symbol - file.symbols.data());
}

// Line numbers in the test source below.
const std::string kShapes = R"GO(// Copyright 2024 The Authors. Not the package doc: a blank line follows.

// Package shapes draws shapes.
//
// Start with [New]:
//  1. make a [Canvas];
//  2. draw on it.
//
// See https://example.com/shapes for more.
package shapes

import "fmt"

// New makes a canvas of the given size.
//
//go:generate stringer -type=Kind
func New(width, height int, opts ...Option) (*Canvas, error) {
	return &Canvas{}, nil
}

// Canvas is where shapes go. It has e.g. a size.
type Canvas struct {
	width  int // an unexported field: private
	Height int
}

// Draw draws s on c.
func (c *Canvas) Draw(
	s Shape, // what to draw
	at ...Point,
) error {
	return nil
}

func (c *Canvas) reset() {}

// A comment a blank line away from the declaration is not its doc.

func helper() {}

type painter struct{}

// Paint is exported, its type is not.
func (p *painter) Paint() {}

// Stack is generic.
type Stack[T any] struct{ items []T }

// Push adds v.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Shape types.
type (
	// Shape is anything drawn.
	Shape interface {
		// Area is the shape's area.
		Area() float64
		fmt.Stringer
		perimeter() float64
	}

	Point struct{ X, Y int }

	// Alias is another name.
	Alias = Point
	Kind  int
)

// Kinds of shapes.
const (
	// Circle is round.
	Circle Kind = iota
	Square      // a trailing comment is no doc
	internalKind
)

var (
	// ErrEmpty means nothing to draw.
	ErrEmpty     = fmt.Errorf("empty")
	count, total = 1, 2
)

var Default = New
)GO";

}  // namespace

TEST(GoDeclarations, ReaderIsRegistered) { EXPECT_TRUE(hasDeclarationReader("go")); }

// The package doc: the comment right above `package`, not the copyright a blank line up.
TEST(GoDeclarations, PackageDoc) {
  auto parsed = readDeclarations("go", "shapes/doc.go", kShapes);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc,
            "Package shapes draws shapes.\n\nStart with `New`:\n\n1. make a `Canvas`;\n2. draw on it.\n\n"
            "See <https://example.com/shapes> for more.");

  auto block =
      readDeclarations("go", "shapes/doc.go",
                       "/*\nPackage shapes draws shapes.\n\nIt is safe for concurrent use.\n*/\npackage shapes\n");
  ASSERT_TRUE(block);
  EXPECT_EQ(block->doc, "Package shapes draws shapes.\n\nIt is safe for concurrent use.");

  auto none = readDeclarations("go", "shapes/a.go", "// Copyright.\n\npackage shapes\n");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->doc, "");
}

// Functions and methods: signatures as go doc prints them, receivers' types as scope,
// whole extents, the comment right above as doc (tool directives left out).
TEST(GoDeclarations, FunctionsAndMethods) {
  auto parsed = readDeclarations("go", "shapes/shapes.go", kShapes);
  ASSERT_TRUE(parsed);

  const Symbol* made = find(*parsed, "", "New");
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(made->kind, "function");
  EXPECT_EQ(made->signature, "func New(width, height int, opts ...Option) (*Canvas, error)");
  EXPECT_EQ(made->visibility, "public");
  EXPECT_EQ(made->line, 17);
  EXPECT_EQ(made->end, 19);
  EXPECT_EQ(made->doc, "New makes a canvas of the given size.");
  EXPECT_EQ(made->summary, "New makes a canvas of the given size.");
  EXPECT_TRUE(made->markdownDoc);

  const Symbol* draw = find(*parsed, "Canvas", "Draw");
  ASSERT_NE(draw, nullptr);
  EXPECT_EQ(draw->kind, "method");
  EXPECT_EQ(draw->signature, "func (c *Canvas) Draw(s Shape, at ...Point) error") << "comments and line breaks go";
  EXPECT_EQ(draw->visibility, "public");
  EXPECT_EQ(draw->line, 28);
  EXPECT_EQ(draw->end, 33);
  EXPECT_EQ(draw->summary, "Draw draws s on c.");

  EXPECT_EQ(find(*parsed, "Canvas", "reset")->visibility, "private");
  const Symbol* helper = find(*parsed, "", "helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->visibility, "private");
  EXPECT_EQ(helper->doc, "") << "a blank line separates the comment from it";
  EXPECT_FALSE(helper->markdownDoc);

  const Symbol* paint = find(*parsed, "painter", "Paint");
  ASSERT_NE(paint, nullptr);
  EXPECT_EQ(paint->visibility, "private") << "a method of an unexported type is not API";

  const Symbol* push = find(*parsed, "Stack", "Push");
  ASSERT_NE(push, nullptr) << "the receiver's type without * and type parameters";
  EXPECT_EQ(push->signature, "func (s *Stack[T]) Push(v T)");
  EXPECT_EQ(push->visibility, "public");
}

// Types: heads without fields, grouped specs with their own docs (else the group's),
// interface methods under the interface, struct fields no symbols.
TEST(GoDeclarations, TypesAndInterfaces) {
  auto parsed = readDeclarations("go", "shapes/shapes.go", kShapes);
  ASSERT_TRUE(parsed);

  const Symbol* canvas = find(*parsed, "", "Canvas");
  ASSERT_NE(canvas, nullptr);
  EXPECT_EQ(canvas->kind, "struct");
  EXPECT_EQ(canvas->signature, "type Canvas struct");
  EXPECT_EQ(canvas->line, 22);
  EXPECT_EQ(canvas->end, 25);
  EXPECT_EQ(canvas->summary, "Canvas is where shapes go.") << "not cut after e.g.";
  // Fields are the struct's members, as `go doc` shows them in the type: exported ones
  // public (the concepts read what a type holds from them).
  ASSERT_NE(find(*parsed, "Canvas", "Height"), nullptr);
  EXPECT_EQ(find(*parsed, "Canvas", "Height")->kind, "field");
  EXPECT_EQ(find(*parsed, "Canvas", "Height")->visibility, "public");
  EXPECT_EQ(find(*parsed, "", "Height"), nullptr);
  EXPECT_EQ(find(*parsed, "", "width"), nullptr);
  ASSERT_NE(find(*parsed, "Canvas", "width"), nullptr);
  EXPECT_EQ(find(*parsed, "Canvas", "width")->visibility, "private");

  const Symbol* stack = find(*parsed, "", "Stack");
  ASSERT_NE(stack, nullptr);
  EXPECT_EQ(stack->signature, "type Stack[T any] struct");

  const Symbol* shape = find(*parsed, "", "Shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->kind, "interface");
  EXPECT_EQ(shape->signature, "type Shape interface");
  EXPECT_EQ(shape->doc, "Shape is anything drawn.") << "its own doc, not the group's";
  EXPECT_EQ(shape->line, 55);
  EXPECT_EQ(shape->end, 60);
  EXPECT_EQ(shape->visibility, "public");

  const Symbol* area = find(*parsed, "Shape", "Area");
  ASSERT_NE(area, nullptr);
  EXPECT_EQ(area->kind, "method");
  EXPECT_EQ(area->signature, "Area() float64");
  EXPECT_EQ(area->visibility, "public") << "an exported interface's exported method is API";
  EXPECT_EQ(area->doc, "Area is the shape's area.");
  EXPECT_EQ(area->line, 57);
  EXPECT_EQ(indexOf(*parsed, area), indexOf(*parsed, shape) + 1) << "members right after their type";
  EXPECT_EQ(find(*parsed, "Shape", "perimeter")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Shape", "Stringer"), nullptr) << "an embedded interface is no method";

  const Symbol* point = find(*parsed, "", "Point");
  ASSERT_NE(point, nullptr);
  EXPECT_EQ(point->kind, "struct");
  EXPECT_EQ(point->doc, "Shape types.") << "no doc of its own: the group's";
  EXPECT_EQ(point->line, 62);
  EXPECT_EQ(point->end, 62) << "a grouped spec's own lines";

  const Symbol* alias = find(*parsed, "", "Alias");
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->kind, "type");
  EXPECT_EQ(alias->signature, "type Alias = Point");
  EXPECT_EQ(alias->doc, "Alias is another name.");

  const Symbol* kind = find(*parsed, "", "Kind");
  ASSERT_NE(kind, nullptr);
  EXPECT_EQ(kind->signature, "type Kind int");
  EXPECT_EQ(kind->doc, "Shape types.");
}

// Grouped const and var specs: each name, its spec's doc or else the group's; a comment
// trailing a spec's line documents nothing.
TEST(GoDeclarations, ConstantsAndVariables) {
  auto parsed = readDeclarations("go", "shapes/shapes.go", kShapes);
  ASSERT_TRUE(parsed);

  const Symbol* circle = find(*parsed, "", "Circle");
  ASSERT_NE(circle, nullptr);
  EXPECT_EQ(circle->kind, "constant");
  EXPECT_EQ(circle->signature, "const Circle Kind = iota");
  EXPECT_EQ(circle->doc, "Circle is round.");
  EXPECT_EQ(circle->line, 72);
  EXPECT_EQ(circle->end, 72);
  EXPECT_EQ(circle->visibility, "public");

  const Symbol* square = find(*parsed, "", "Square");
  ASSERT_NE(square, nullptr);
  EXPECT_EQ(square->signature, "const Square");
  EXPECT_EQ(square->doc, "Kinds of shapes.");
  EXPECT_EQ(find(*parsed, "", "internalKind")->visibility, "private");
  EXPECT_EQ(find(*parsed, "", "internalKind")->doc, "Kinds of shapes.");

  const Symbol* empty = find(*parsed, "", "ErrEmpty");
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->kind, "variable");
  EXPECT_EQ(empty->signature, "var ErrEmpty = fmt.Errorf(\"empty\")");
  EXPECT_EQ(empty->doc, "ErrEmpty means nothing to draw.");
  EXPECT_EQ(empty->visibility, "public");

  const Symbol* count = find(*parsed, "", "count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->signature, "var count = 1");
  EXPECT_EQ(count->visibility, "private");
  EXPECT_EQ(count->doc, "");
  ASSERT_NE(find(*parsed, "", "total"), nullptr);
  EXPECT_EQ(find(*parsed, "", "total")->signature, "var total = 2");

  const Symbol* fallback = find(*parsed, "", "Default");
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(fallback->signature, "var Default = New");
  EXPECT_EQ(fallback->line, 83);
  EXPECT_EQ(fallback->end, 83);
}

// Exported means an upper-case first letter, in any script; `_` is no symbol.
TEST(GoDeclarations, ExportedByTheFirstLetter) {
  EXPECT_TRUE(goExported("Name"));
  EXPECT_FALSE(goExported("name"));
  EXPECT_FALSE(goExported("_Name"));
  EXPECT_TRUE(goExported("\xC3\x84rger"));   // Ärger
  EXPECT_FALSE(goExported("\xC3\xA4rger"));  // ärger
  EXPECT_TRUE(goExported("\xCE\x94lta"));    // Δlta
  EXPECT_FALSE(goExported("\xE6\x97\xA5"));  // 日: no case, so not exported
  EXPECT_FALSE(goExported(""));
  EXPECT_FALSE(goExported("\xFF"));

  auto parsed = readDeclarations(
      "go", "a/a.go", "package a\n\nfunc \xC3\x84rger() {}\n\nfunc \xC3\xA4rger() {}\n\nvar _ io.Reader = (*T)(nil)\n");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->symbols.size(), 2u);
  EXPECT_EQ(parsed->symbols[0].visibility, "public");
  EXPECT_EQ(parsed->symbols[1].visibility, "private");
}

// Nothing in an internal/ folder or a test file is API.
TEST(GoDeclarations, InternalFoldersAndTestsArePrivate) {
  const std::string code = "package cache\n\n// Get gets.\nfunc Get() {}\n\n// T is a type.\ntype T struct{}\n";
  for (const char* path : {"pkg/internal/cache/cache.go", "internal/cache.go", "cache/cache_test.go"}) {
    auto parsed = readDeclarations("go", path, code);
    ASSERT_TRUE(parsed) << path;
    ASSERT_EQ(parsed->symbols.size(), 2u) << path;
    for (const auto& s : parsed->symbols) EXPECT_EQ(s.visibility, "private") << path << ": " << s.name;
  }
  for (const char* path : {"pkg/internals/cache.go", "pkg/notinternal/cache.go", "cache/cache.go"}) {
    auto parsed = readDeclarations("go", path, code);
    ASSERT_TRUE(parsed) << path;
    for (const auto& s : parsed->symbols) EXPECT_EQ(s.visibility, "public") << path << ": " << s.name;
  }
}

// "A numbered list in a doc comment wipes its opening": the paragraph before a list stays
// whole, whether the list is indented (gofmt's form) or its items are not and only their
// continuation lines are (Go's repair of that mistake).
TEST(GoDoc, ANumberedListKeepsTheParagraphBeforeIt) {
  std::string indented = goDocMarkdown(
      "Parse reads the input in three steps:\n 1. Split it into lines.\n 2. Read each line.\n 3. Join them.\n\n"
      "It returns the result.");
  EXPECT_EQ(indented,
            "Parse reads the input in three steps:\n\n1. Split it into lines.\n2. Read each line.\n3. Join them.\n\n"
            "It returns the result.");
  EXPECT_EQ(doc_text::firstSentence(indented), "Parse reads the input in three steps:");

  std::string repaired = goDocMarkdown(
      "closer wraps rc with two features:\n1) On a read error the stop func is called.\n"
      "2) On a failure the error is wrapped and\n   marked as a timeout.");
  EXPECT_EQ(repaired,
            "closer wraps rc with two features:\n\n1. On a read error the stop func is called.\n"
            "2. On a failure the error is wrapped and\n   marked as a timeout.");

  // Unindented items alone are paragraph text to Go; none of it is lost or read as a list.
  EXPECT_EQ(goDocMarkdown("Steps:\n1. one\n2. two"), "Steps:\n1\\. one\n2\\. two");

  // Bullets, and items separated by blank lines (a loose list) with a second paragraph.
  EXPECT_EQ(goDocMarkdown("Options:\n  - fast\n  * slow,\n    really\n\nMore:\n\n  - a\n\n  - b\n\n    b again"),
            "Options:\n\n- fast\n- slow,\n  really\n\nMore:\n\n- a\n\n- b\n\n  b again");

  auto parsed = readDeclarations(
      "go", "p/p.go",
      "package p\n\n// Parse reads the input in steps:\n//  1. split;\n//  2. join.\nfunc Parse() {}\n");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->symbols.size(), 1u);
  EXPECT_EQ(parsed->symbols[0].doc, "Parse reads the input in steps:\n\n1. split;\n2. join.");
  EXPECT_EQ(parsed->symbols[0].summary, "Parse reads the input in steps:");
}

// Indented spans are code blocks, fenced as Go when they read as Go; an unindented
// `func main() {` with its indented body is repaired into one block, as Go does.
TEST(GoDoc, CodeBlocks) {
  EXPECT_EQ(goDocMarkdown("Use it like this:\n\n\tc := shapes.New(1, 2)\n\tc.Draw(s)\n\nOr run:\n\n\t$ shapes draw\n\n"
                          "The output:\n\n\tcircle\n\t  square"),
            "Use it like this:\n\n```go\nc := shapes.New(1, 2)\nc.Draw(s)\n```\n\nOr run:\n\n```\n$ shapes draw\n```"
            "\n\nThe output:\n\n```\ncircle\n  square\n```");
  EXPECT_EQ(goDocMarkdown("Example:\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n\nDone."),
            "Example:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nDone.");
  // A fence longer than any backtick run inside.
  EXPECT_EQ(goDocMarkdown("Quote:\n\n\ts := \"```\""), "Quote:\n\n````go\ns := \"```\"\n````");
  // A comment that starts with code: the summary is the first sentence after it.
  std::string md = goDocMarkdown("\tx := 1\n\nSets the value. Then more.");
  EXPECT_EQ(doc_text::firstSentence(md), "Sets the value.");
}

// `# ` headings set off by blank lines (and Go's older implicit headings), doc links as
// code, [text] links with their definitions, URLs as links.
TEST(GoDoc, HeadingsAndLinks) {
  EXPECT_EQ(goDocMarkdown("Intro.\n\n# Usage\n\nText."), "Intro.\n\n# Usage\n\nText.");
  EXPECT_EQ(goDocMarkdown("Intro.\n\nOverview\n\nText."), "Intro.\n\n# Overview\n\nText.");
  EXPECT_EQ(goDocMarkdown("Intro.\n# Not a heading\nText."), "Intro.\n\\# Not a heading\nText.");
  EXPECT_EQ(goDocMarkdown("Intro.\n\nNot a heading.\n\nText."), "Intro.\n\nNot a heading.\n\nText.");

  EXPECT_EQ(goDocMarkdown("Call [Open], [Conn.Close], [net/http.Handler] or [*bytes.Buffer]; see the [spec] and "
                          "https://go.dev/ref/spec.\nNot links: map[string]int, [sic], [1].\n\n"
                          "[spec]: https://go.dev/ref/spec"),
            "Call `Open`, `Conn.Close`, `net/http.Handler` or `*bytes.Buffer`; see the [spec](https://go.dev/ref/spec) "
            "and <https://go.dev/ref/spec>.\nNot links: map\\[string\\]int, \\[sic\\], \\[1\\].");
  // A URL keeps its balanced parentheses, not the sentence's.
  EXPECT_EQ(goDocMarkdown("See https://en.wikipedia.org/wiki/Go_(language) (the language)."),
            "See <https://en.wikipedia.org/wiki/Go_(language)> (the language).");
}

// Go doc comments are plain text: what Markdown would read as syntax is escaped, so the
// text reads as written; `` and '' are Go's curly quotes.
TEST(GoDoc, PlainTextStaysPlain) {
  EXPECT_EQ(goDocMarkdown("Multiplies a*b*c for <n> & _this_ snake_case value.\n- not a list\n> not a quote"),
            "Multiplies a\\*b\\*c for \\<n> & \\_this\\_ snake_case value.\n\\- not a list\n\\> not a quote");
  EXPECT_EQ(goDocMarkdown("Says ``hello''."), "Says \xE2\x80\x9Chello\xE2\x80\x9D.");
  EXPECT_EQ(goDocMarkdown("Returns `nil` when done."), "Returns `nil` when done.");
  // Blank lines at the ends go, runs of them are one, the common indentation is removed.
  EXPECT_EQ(goDocMarkdown("\n\n  First.\n\n\n\n  Second.\n\n"), "First.\n\nSecond.");
}

// Hostile input: deep nesting, long lines, invalid UTF-8 and huge comments give an answer
// in bounded time.
TEST(GoDeclarations, HostileInputIsReadInBoundedTime) {
  std::string nested = "package p\n\nvar x = " + std::string(3000, '(') + "1" + std::string(3000, ')') +
                       "\n\n// F is after it.\nfunc F() {}\n";
  auto kept = readDeclarations("go", "p/p.go", nested);
  ASSERT_TRUE(kept);
  ASSERT_NE(find(*kept, "", "F"), nullptr);
  EXPECT_EQ(find(*kept, "", "F")->doc, "F is after it.");

  std::string brackets = "package p\n\nvar x = " + std::string(100000, '[') + "\n";
  std::string longLine =
      "package p\n\n// " + std::string(200000, 'a') + "\nfunc F(" + std::string(200000, 'b') + " int) {}\n";
  std::string binary = "package p\n\n// Doc \xff\xfe\xc3.\nfunc \xff\xfe() {}\n" + std::string(1000, '\0');
  std::string many = "package p\n";
  for (int i = 0; i < 3000; ++i) many += "func F" + std::to_string(i) + "() {}\n";
  std::string comments = "package p\n\n";
  for (int i = 0; i < 20000; ++i) comments += i % 2 ? "// [[[ ``` http://a.b/((((\n" : "//\t1. x\n";
  comments += "func G() {}\n";
  std::string blocks = "package p\n\n/*" + std::string(300000, '*') + "*/\nfunc H() {}\n";
  for (const auto* text : {&brackets, &longLine, &binary, &many, &comments, &blocks}) {
    auto started = std::chrono::steady_clock::now();
    auto parsed = readDeclarations("go", "h/h.go", *text);
    auto took = std::chrono::steady_clock::now() - started;
    EXPECT_LT(took, std::chrono::seconds(30));  // the parse budget is 5 s; this only catches a hang
    if (parsed) {
      EXPECT_LE(parsed->symbols.size(), 2000u);
      for (const auto& s : parsed->symbols) EXPECT_LE(s.signature.size(), 403u);
    }
  }

  std::string text;
  for (int i = 0; i < 100000; ++i) text += "http://a.b/(((( [x `` ";
  auto started = std::chrono::steady_clock::now();
  std::string md = goDocMarkdown(text);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
  EXPECT_FALSE(md.empty());
}
