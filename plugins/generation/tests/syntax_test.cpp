// Declarations read with the language's parser (tree-sitter) and doc comments rendered
// from their dialect: each language and each dialect, and hostile input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/jsdoc.hpp"
#include "analysis/doc_dialects/python_docstring.hpp"
#include "analysis/doc_dialects/rustdoc.hpp"
#include "analysis/inventory.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/syntax/syntax_tree.hpp"
#include "syntax_test_support.hpp"
#include "test_support.hpp"

using namespace docs_generation;
using namespace docs_generation::testing;

TEST(Grammars, EveryLanguageParses) {
  struct Case {
    const char* language;
    const char* path;
    const char* code;
  };
  const Case cases[] = {{"python", "a.py", "def f():\n    pass\n"},
                        {"javascript", "a.js", "export function f() {}\n"},
                        {"typescript", "a.ts", "export function f(a: number): string { return ''; }\n"},
                        {"typescript", "a.tsx", "export const A = () => <div/>;\n"},
                        {"go", "a.go", "package a\nfunc F() {}\n"},
                        {"rust", "a.rs", "pub fn f() -> i32 { 1 }\n"},
                        {"java", "A.java", "public class A { public void f() {} }\n"},
                        {"kotlin", "A.kt", "class A {\n    fun f() {}\n}\n"},
                        {"c", "a.c", "int f(void) { return 0; }\n"},
                        {"c++", "a.cpp", "template <class T> T f(T t) { return t; }\n"},
                        {"csharp", "A.cs", "public class A { public void F() {} }\n"},
                        {"ruby", "a.rb", "class A\n  def f; end\nend\n"},
                        {"php", "a.php", "<?php\nfunction f() {}\n"}};
  for (const auto& c : cases) {
    auto tree = syntax::parse(syntax::grammarFor(c.language, c.path), c.code);
    ASSERT_TRUE(tree) << c.language;
    EXPECT_FALSE(tree->root().hasError()) << c.language << ": " << tree->root().type();
    EXPECT_GT(tree->root().namedChildren().size(), 0u) << c.language;
  }
  EXPECT_EQ(syntax::grammarFor("cobol"), nullptr);
}

// A signature over several lines, decorators, overload stubs, `__all__`, `_` names,
// `__init__` as API, properties, nested classes, whole extents.
TEST(PythonDeclarations, ReadAsSphinxDoes) {
  std::string code = R"PY("""The module's own doc.

It has two paragraphs.
"""
from typing import overload

__all__ = ["Client", "connect", "also"]


@overload
def connect(url: str) -> "Client": ...
@overload
def connect(url: bytes) -> "Client": ...
def connect(
    url,
    *,
    timeout: float = 5.0,
) -> "Client":
    """Open a connection to `url`.

    The real docs, not the stubs'.
    """
    return Client(url)


def helper():
    """Not in __all__."""


def _hidden():
    """Private by name."""


class Client(Base, metaclass=Meta):
    """A client.

    Args:
        url (str): Where to connect.
        retries: How often to try.
            Twice by default.
    """

    def __init__(self, url: str, retries: int = 2) -> None:
        """Make one."""

    @property
    def closed(self) -> bool:
        """Whether it is closed."""
        return False

    @closed.setter
    def closed(self, value): ...

    def __repr__(self):
        return "Client"

    def _reset(self):
        pass

    async def fetch(self, path: str) -> bytes:
        """Fetch a path."""

    class Options:
        """Nested options."""

        def merge(self, other):
            """Merge two."""
)PY";
  auto parsed = readDeclarations("python", "pkg/client.py", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc, "The module's own doc.\n\nIt has two paragraphs.");

  const Symbol* connect = find(*parsed, "", "connect");
  ASSERT_NE(connect, nullptr);
  EXPECT_EQ(connect->signature, "def connect(url, *, timeout: float = 5.0) -> \"Client\"");
  EXPECT_EQ(connect->summary, "Open a connection to `url`.");
  EXPECT_NE(connect->doc.find("The real docs"), std::string::npos);
  EXPECT_EQ(connect->visibility, "public");
  EXPECT_TRUE(connect->markdownDoc);
  int connects = 0;
  for (const auto& s : parsed->symbols) connects += s.name == "connect";
  EXPECT_EQ(connects, 1) << "the overload stubs give way to the implementation";
  EXPECT_EQ(connect->line, 14);
  EXPECT_EQ(connect->end, 23);

  EXPECT_EQ(find(*parsed, "", "helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "", "_hidden")->visibility, "private");

  const Symbol* client = find(*parsed, "", "Client");
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->kind, "class");
  EXPECT_EQ(client->signature, "class Client(Base, metaclass=Meta)");
  EXPECT_EQ(client->visibility, "public");
  EXPECT_EQ(client->end, static_cast<int>(std::count(code.begin(), code.end(), '\n'))) << "the class is last";
  EXPECT_NE(client->doc.find("| `url` | `str` | Where to connect. |"), std::string::npos) << client->doc;
  EXPECT_NE(client->doc.find("| `retries` | | How often to try. Twice by default. |"), std::string::npos)
      << client->doc;

  const Symbol* init = find(*parsed, "Client", "__init__");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->visibility, "public") << "the constructor is API";
  EXPECT_EQ(init->signature, "def __init__(self, url: str, retries: int = 2) -> None");
  const Symbol* closed = find(*parsed, "Client", "closed");
  ASSERT_NE(closed, nullptr);
  EXPECT_EQ(closed->kind, "property");
  EXPECT_EQ(closed->signature, "closed: bool");
  EXPECT_EQ(closed->line, 46) << "the decorator is part of the declaration";
  int closedCount = 0;
  for (const auto& s : parsed->symbols) closedCount += s.name == "closed";
  EXPECT_EQ(closedCount, 1) << "the setter belongs to the property";
  EXPECT_EQ(find(*parsed, "Client", "__repr__")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "_reset")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "fetch")->signature, "async def fetch(self, path: str) -> bytes");
  ASSERT_NE(find(*parsed, "Client", "Options"), nullptr);
  EXPECT_EQ(find(*parsed, "Client.Options", "merge")->summary, "Merge two.");
}

TEST(PythonDocstrings, RestFieldsAndRolesBecomeATable) {
  std::string md = pythonDocstringMarkdown(R"(Compile a :class:`~re.Pattern` from *source*.

    See :func:`re.compile` and ``flags``.

    :param source: The expression.
    :type source: str
    :param int flags: Bits of
        :data:`re.FLAGS`.
    :returns: The pattern.
    :rtype: Pattern
    :raises ValueError: When it is not one.

    .. versionadded:: 2.1
    )");
  EXPECT_NE(md.find("Compile a `Pattern` from *source*."), std::string::npos) << md;
  EXPECT_NE(md.find("See `re.compile` and `flags`."), std::string::npos) << md;
  EXPECT_NE(md.find("| `source` | `str` | The expression. |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `flags` | `int` | Bits of `re.FLAGS`. |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Returns**\n\n- `Pattern`: The pattern."), std::string::npos) << md;
  EXPECT_NE(md.find("- `ValueError`: When it is not one."), std::string::npos) << md;
  EXPECT_EQ(md.find(":param"), std::string::npos) << md;
  EXPECT_EQ(md.find(":class:"), std::string::npos) << md;
}

TEST(PythonDocstrings, GoogleSectionsAndExamples) {
  std::string md = pythonDocstringMarkdown(R"(Sum two numbers.

    Args:
        a (int): The first.
        b: The second.

    Returns:
        int: Their sum.

    Raises:
        TypeError: If they are not numbers.

    Example:
        >>> add(1, 2)
        3

    Note:
        Floats work too.
    )");
  EXPECT_NE(md.find("| `a` | `int` | The first. |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `b` | | The second. |"), std::string::npos) << md;
  EXPECT_NE(md.find("- `int`: Their sum."), std::string::npos) << md;
  EXPECT_NE(md.find("- `TypeError`: If they are not numbers."), std::string::npos) << md;
  EXPECT_NE(md.find("```python\n>>> add(1, 2)\n3\n```"), std::string::npos) << md;
  EXPECT_NE(md.find("Floats work too."), std::string::npos) << md;
  EXPECT_EQ(md.find("Args:"), std::string::npos) << md;
}

TEST(PythonDocstrings, NumpySections) {
  std::string md = pythonDocstringMarkdown(R"(Mean of an array.

    Parameters
    ----------
    a : array_like
        The values.
    axis : int, optional
        Along which axis.

    Returns
    -------
    ndarray
        The means.
    )");
  EXPECT_NE(md.find("| `a` | `array_like` | The values. |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `axis` | `int, optional` | Along which axis. |"), std::string::npos) << md;
  EXPECT_NE(md.find("- `ndarray`: The means."), std::string::npos) << md;
  EXPECT_EQ(md.find("----"), std::string::npos) << md;
}

TEST(DocText, TheSummaryIsTheFirstSentenceByTheRule) {
  EXPECT_EQ(doc_text::firstSentence("Returns a value, e.g. the first one. Then more."),
            "Returns a value, e.g. the first one.");
  EXPECT_EQ(doc_text::firstSentence("Calls `a.b()` (see i.e. this). Next."), "Calls `a.b()` (see i.e. this).");
  EXPECT_EQ(doc_text::firstSentence("Version 1.2 is here. Next."), "Version 1.2 is here.");
  EXPECT_EQ(doc_text::firstSentence("No end at all"), "No end at all");
  EXPECT_EQ(doc_text::firstSentence("```\ncode\n```\n\nProse first. Second."), "Prose first.");
  EXPECT_EQ(doc_text::firstSentence("Written by J. Smith in 2020. More."), "Written by J. Smith in 2020.");
  EXPECT_EQ(doc_text::firstSentence("A list:\n\n1. one\n2. two"), "A list:");
}

// Hostile input: deep nesting, long lines, invalid UTF-8 give an answer in bounded time.
TEST(PythonDeclarations, HostileInputIsReadInBoundedTime) {
  std::string deep;
  for (int i = 0; i < 3000; ++i)
    deep += std::string(static_cast<std::size_t>(i % 200), ' ') + "class C" + std::to_string(i) + ":\n";
  std::string longLine = "def f(" + std::string(200000, 'a') + "):\n    pass\n";
  std::string binary = "def g():\n    \"\"\"\xff\xfe\xc3\"\"\"\n" + std::string(1000, '\0');
  std::string brackets = "x = " + std::string(100000, '[') + "\n";  // crashed libtree-sitter 0.20.7
  std::string closed = "x = " + std::string(4000, '[') + std::string(4000, ']') + "\ndef h():\n    pass\n";
  auto kept = readDeclarations("python", "ok.py", closed);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->symbols.size(), 1u);
  for (const auto* text : {&deep, &longLine, &binary, &brackets}) {
    auto started = std::chrono::steady_clock::now();
    auto parsed = readDeclarations("python", "h.py", *text);
    auto took = std::chrono::steady_clock::now() - started;
    EXPECT_LT(took, std::chrono::seconds(30));  // the parse budget is 5 s; this only catches a hang
    if (parsed) {
      EXPECT_LE(parsed->symbols.size(), 2000u);
    }
  }
}

// rustdoc's reading: `//!` crate docs whole, `///` docs with their examples (hidden `# `
// lines gone), intra-doc links as text, `pub` only, inherent methods under their type,
// `pub use` re-exports, whole extents.
TEST(RustDeclarations, ReadAsRustdocDoes) {
  std::string code = R"RS(//! A crate for things.
//!
//! # Examples
//!
//! ```
//! # use things::Thing;
//! let t = Thing::new(1);
//! ```

use std::fmt;

/// A thing, see [`Other`] and [the docs](crate::docs).
///
/// Made with [`Thing::new`]; links to [an address][site] stay.
///
/// [site]: https://example.com/things
#[derive(Debug, Clone)]
pub struct Thing<T> {
    pub value: T,
    secret: u8,
}

impl<T: Clone> Thing<T> {
    /// Makes a thing.
    ///
    /// # Panics
    ///
    /// Never.
    pub fn new(value: T) -> Self {
        Thing { value, secret: 0 }
    }

    fn hidden(&self) {}

    pub(crate) fn internal(&self) {}
}

impl<T> fmt::Display for Thing<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "thing")
    }
}

/// What things do.
pub trait Behave {
    /// Act.
    fn act(&self) -> u32;
}

fn private_helper() {}

pub(crate) struct CrateOnly;

pub use crate::inner::{Alpha, beta as gamma};

/// A module in the file.
pub mod nested {
    //! Inner docs of nested.

    /// In nested.
    pub fn deep() {}
}

/// Counts.
#[macro_export]
macro_rules! count {
    () => { 0 };
}
)RS";
  auto parsed = readDeclarations("rust", "src/lib.rs", code);
  ASSERT_TRUE(parsed);
  EXPECT_NE(parsed->doc.find("A crate for things."), std::string::npos) << parsed->doc;
  EXPECT_NE(parsed->doc.find("```rust\nlet t = Thing::new(1);\n```"), std::string::npos) << parsed->doc;
  EXPECT_EQ(parsed->doc.find("# use"), std::string::npos) << parsed->doc;

  const Symbol* thing = find(*parsed, "", "Thing");
  ASSERT_NE(thing, nullptr);
  EXPECT_EQ(thing->kind, "struct");
  EXPECT_EQ(thing->visibility, "public");
  EXPECT_EQ(thing->signature, "pub struct Thing<T>");
  EXPECT_EQ(thing->line, 18);
  EXPECT_EQ(thing->end, 21);
  EXPECT_NE(thing->doc.find("A thing, see `Other` and the docs."), std::string::npos) << thing->doc;
  EXPECT_NE(thing->doc.find("Made with `Thing::new`; links to [an address][site] stay."), std::string::npos)
      << thing->doc;
  EXPECT_NE(thing->doc.find("[site]: https://example.com/things"), std::string::npos) << thing->doc;
  EXPECT_EQ(thing->summary, "A thing, see `Other` and the docs.");

  const Symbol* made = find(*parsed, "Thing", "new");
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(made->kind, "method");
  EXPECT_EQ(made->signature, "pub fn new(value: T) -> Self");
  EXPECT_EQ(made->visibility, "public");
  EXPECT_EQ(made->end - made->line, 2);
  EXPECT_NE(made->doc.find("# Panics"), std::string::npos) << made->doc;
  EXPECT_EQ(find(*parsed, "Thing", "hidden")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Thing", "internal")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Thing", "fmt"), nullptr) << "trait impls are the trait's";
  EXPECT_EQ(find(*parsed, "", "private_helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "", "CrateOnly")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Behave", "act")->visibility, "public") << "a public trait's methods are public";
  EXPECT_EQ(find(*parsed, "Behave", "act")->signature, "fn act(&self) -> u32");
  const Symbol* alpha = find(*parsed, "", "Alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->kind, "reexport");
  EXPECT_EQ(alpha->signature, "pub use crate::inner::{Alpha, beta as gamma}");
  ASSERT_NE(find(*parsed, "", "gamma"), nullptr);
  const Symbol* nested = find(*parsed, "", "nested");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->kind, "module");
  EXPECT_NE(nested->doc.find("Inner docs of nested."), std::string::npos) << nested->doc;
  EXPECT_EQ(find(*parsed, "nested", "deep")->visibility, "public");
  EXPECT_EQ(find(*parsed, "", "count")->visibility, "public") << "#[macro_export]";
}

TEST(Rustdoc, ExamplesHiddenLinesAndFences) {
  std::string md = rustdocMarkdown(
      " Runs.\n\n ```\n # fn main() {\n let x = 1;\n ## not hidden\n # }\n ```\n\n"
      " ```text\n # shown in text\n ```\n\n ```ignore,no_run\n run();\n ```");
  EXPECT_EQ(md,
            "Runs.\n\n```rust\nlet x = 1;\n# not hidden\n```\n\n```text\n# shown in text\n```\n\n```rust\nrun();\n```");
}

// TypeDoc's reading of a TypeScript module: exports are the API, the rest is the
// module's own; JSDoc blocks with or without `*` lines; members by their modifiers;
// re-exports; return types in signatures; whole extents.
TEST(ScriptDeclarations, TypeScriptReadAsTypeDocDoes) {
  std::string code = R"TS(/**
 * Tools for shapes.
 * @packageDocumentation
 */
import { helper } from './helper';

export { Circle as Round } from './circle';
export * from './square';

/**
   Area of a shape, e.g. a square. Second sentence.

   @param shape - The shape.
   @param {number} [scale=1] How much larger.
   @returns The area.
   @example
   area(unit)
 */
export function area(shape: Shape, scale = 1): number {
  return helper(shape) * scale;
}

function internalOnly(): void {}

/** A shape. */
export interface Shape {
  /** Its name. */
  name: string;
  sides(): number;
}

/** Draws shapes. */
export class Painter<T extends Shape> extends Base {
  /** Makes one. */
  constructor(private readonly canvas: Canvas) {
    super();
  }

  /** Paints. */
  async paint(shape: T, times?: number): Promise<void> {}

  private secret(): void {}

  #hidden = 1;

  /** @internal */
  wiring(): void {}
}

/** Pick one. */
export const pick = <T,>(items: T[]): T | undefined => items[0];

export type Unit = 'px' | 'em';

const local = 3;
let counter = 0;

export { internalOnly as published };
)TS";
  auto parsed = readDeclarations("typescript", "src/shapes.ts", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc, "Tools for shapes.");

  const Symbol* area = find(*parsed, "", "area");
  ASSERT_NE(area, nullptr);
  EXPECT_EQ(area->visibility, "public");
  EXPECT_EQ(area->signature, "function area(shape: Shape, scale = 1): number");  // as TypeDoc, no `export`
  EXPECT_EQ(area->summary, "Area of a shape, e.g. a square.");
  EXPECT_NE(area->doc.find("| `shape` | | | The shape. |"), std::string::npos) << area->doc;
  EXPECT_NE(area->doc.find("| `scale` | `number` | `1` | How much larger. |"), std::string::npos) << area->doc;
  EXPECT_NE(area->doc.find("- The area."), std::string::npos) << area->doc;
  EXPECT_NE(area->doc.find("```ts\narea(unit)\n```"), std::string::npos) << area->doc;
  EXPECT_EQ(area->line, 19) << "the extent starts at the export";
  EXPECT_EQ(area->end, 21);

  EXPECT_EQ(find(*parsed, "", "internalOnly")->visibility, "public") << "exported below as `published`";
  EXPECT_EQ(find(*parsed, "", "local"), nullptr) << "locals are not declarations a module offers";
  EXPECT_EQ(find(*parsed, "", "counter"), nullptr);
  EXPECT_EQ(find(*parsed, "", "helper"), nullptr) << "imports are not declarations";

  EXPECT_EQ(find(*parsed, "", "Shape")->kind, "interface");
  EXPECT_EQ(find(*parsed, "Shape", "name")->summary, "Its name.");
  EXPECT_EQ(find(*parsed, "Shape", "sides")->signature, "sides(): number");

  const Symbol* painter = find(*parsed, "", "Painter");
  ASSERT_NE(painter, nullptr);
  EXPECT_EQ(painter->signature, "class Painter<T extends Shape> extends Base");
  EXPECT_EQ(find(*parsed, "Painter", "constructor")->kind, "constructor");
  EXPECT_EQ(find(*parsed, "Painter", "constructor")->visibility, "public");
  EXPECT_EQ(find(*parsed, "Painter", "paint")->signature, "async paint(shape: T, times?: number): Promise<void>");
  EXPECT_EQ(find(*parsed, "Painter", "secret")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Painter", "#hidden")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Painter", "wiring")->visibility, "private") << "@internal";

  const Symbol* pick = find(*parsed, "", "pick");
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->kind, "function");
  EXPECT_EQ(pick->signature, "const pick = <T,>(items: T[]): T | undefined");
  EXPECT_EQ(find(*parsed, "", "Unit")->kind, "type");
  EXPECT_EQ(find(*parsed, "", "Round")->kind, "reexport");
  EXPECT_EQ(find(*parsed, "", "*")->kind, "reexport");
}

// CommonJS: what module.exports names is public; a script that exports nothing offers its
// top-level functions.
TEST(ScriptDeclarations, CommonJsExportsAndPlainScripts) {
  auto common = readDeclarations("javascript", "lib/index.js",
                                 "/** Adds. */\nfunction add(a, b) { return a + b; }\n"
                                 "function helper() {}\nmodule.exports = { add };\n");
  ASSERT_TRUE(common);
  EXPECT_EQ(find(*common, "", "add")->visibility, "public");
  EXPECT_EQ(find(*common, "", "add")->summary, "Adds.");
  EXPECT_EQ(find(*common, "", "helper")->visibility, "private");
  auto script = readDeclarations("javascript", "public/app.js", "function start() {}\n");
  ASSERT_TRUE(script);
  EXPECT_EQ(find(*script, "", "start")->visibility, "public");
}

TEST(JsDoc, TagsAndLinks) {
  auto doc = jsdocMarkdown(
      "/**\n * Uses {@link Other} and {@link Other.run|the runner}.\n"
      " * @throws {RangeError} When out of range.\n * @deprecated Use `b`.\n */");
  EXPECT_NE(doc.markdown.find("Uses `Other` and the runner."), std::string::npos) << doc.markdown;
  EXPECT_NE(doc.markdown.find("- `RangeError`: When out of range."), std::string::npos) << doc.markdown;
  EXPECT_NE(doc.markdown.find("**Deprecated:** Use `b`."), std::string::npos) << doc.markdown;
  EXPECT_EQ(doc.markdown.find("{@link"), std::string::npos);
}

// A library's entry re-exports its API: each re-export carries the doc of the declaration
// it names, across files (TypeScript `export ... from`, Rust `pub use`).
TEST(Reexports, CarryTheDocOfWhatTheyExport) {
  docs::test::TempDir root;
  std::filesystem::create_directories(root.path() + "/src/net");
  std::ofstream(root.path() + "/src/index.ts") << "export {Client as HttpClient, request} from './client.js';\n";
  std::ofstream(root.path() + "/src/client.ts")
      << "/** Talks to servers. */\nexport class Client {}\n/** Sends one request. */\nexport function request() {}\n";
  std::ofstream(root.path() + "/src/lib.rs") << "mod net;\npub use crate::net::Socket;\n";
  std::ofstream(root.path() + "/src/net.rs") << "/// An open connection.\npub struct Socket;\n";
  // A Python package: explicit and wildcard re-exports, one through a sub-package.
  std::filesystem::create_directories(root.path() + "/pkg/_transports");
  std::ofstream(root.path() + "/pkg/__init__.py")
      << "from ._client import Client as HttpClient\nfrom ._models import *\nfrom ._transports import *\n"
         "from typing import Any\n\n__all__ = [\"HttpClient\", \"Response\", \"MockTransport\"]\n";
  std::ofstream(root.path() + "/pkg/_client.py") << "class Client:\n    \"\"\"Sends requests.\"\"\"\n";
  std::ofstream(root.path() + "/pkg/_models.py") << "class Response:\n    \"\"\"What came back.\"\"\"\n";
  std::ofstream(root.path() + "/pkg/_transports/__init__.py")
      << "from .mock import *\n\n__all__ = [\"MockTransport\"]\n";
  std::ofstream(root.path() + "/pkg/_transports/mock.py")
      << "class MockTransport:\n    \"\"\"Answers without a network.\"\"\"\n";
  auto analysis = analyze(root.path(), takeInventory(root.path(), InventoryLimits{}), AnalysisOptions{});
  auto reexport = [&](const std::string& path, const std::string& name) -> const Symbol* {
    const auto* f = analysis.find(path);
    if (!f) return nullptr;
    for (const auto& s : f->symbols)
      if (s.name == name && s.kind == "reexport") return &s;
    return nullptr;
  };
  ASSERT_NE(reexport("src/index.ts", "HttpClient"), nullptr);
  EXPECT_EQ(reexport("src/index.ts", "HttpClient")->summary, "Talks to servers.");
  EXPECT_EQ(reexport("src/index.ts", "request")->summary, "Sends one request.");
  ASSERT_NE(reexport("src/lib.rs", "Socket"), nullptr);
  EXPECT_EQ(reexport("src/lib.rs", "Socket")->summary, "An open connection.");
  ASSERT_NE(reexport("pkg/__init__.py", "HttpClient"), nullptr);
  EXPECT_EQ(reexport("pkg/__init__.py", "HttpClient")->summary, "Sends requests.");
  ASSERT_NE(reexport("pkg/__init__.py", "Response"), nullptr);
  EXPECT_EQ(reexport("pkg/__init__.py", "Response")->signature, "from ._models import Response");
  EXPECT_EQ(reexport("pkg/__init__.py", "Response")->summary, "What came back.");
  ASSERT_NE(reexport("pkg/__init__.py", "MockTransport"), nullptr);
  EXPECT_EQ(reexport("pkg/__init__.py", "MockTransport")->summary, "Answers without a network.");
  EXPECT_EQ(reexport("pkg/__init__.py", "Any"), nullptr);  // not a relative import: no API
}

// rustdoc's reach: what a private `mod x;` declares is no API unless re-exported; methods
// of an impl on a public type stay its, wherever the impl is; `#[macro_export]` macros are
// the crate's; `#[doc(hidden)] pub mod` hides its file; variants and `pub` fields are shown.
TEST(RustDeclarations, PrivateModulesReexportsAndMembers) {
  docs::test::TempDir root;
  std::filesystem::create_directories(root.path() + "/src/kv");
  std::ofstream(root.path() + "/src/lib.rs")
      << "/// The error type.\npub struct Error;\nmod error;\nmod ptr;\nmod macros;\npub mod kv;\n#[doc(hidden)]\npub "
         "mod __private;\n/// Levels.\npub enum Level {\n    /// The error level.\n    Error,\n    #[doc(hidden)]\n    "
         "Secret,\n}\n/// A point.\npub struct Point {\n    /// Across.\n    pub x: i32,\n    y: i32,\n}\n";
  std::ofstream(root.path() + "/src/error.rs")
      << "impl Error {\n    /// Makes one.\n    pub fn new() -> Self { Error }\n"
         "    fn hidden(&self) {}\n}\n";
  std::ofstream(root.path() + "/src/ptr.rs")
      << "/// An owned pointer.\npub struct Own;\nimpl Own {\n    pub fn new() {}\n}\n";
  std::ofstream(root.path() + "/src/macros.rs")
      << "/// Bails out.\n#[macro_export]\nmacro_rules! bail { () => {}; }\n#[doc(hidden)]\n#[macro_export]\n"
         "macro_rules! __inner { () => {}; }\n";
  std::ofstream(root.path() + "/src/__private.rs") << "pub fn plumbing() {}\n";
  std::ofstream(root.path() + "/src/kv/mod.rs") << "mod key;\npub use self::key::Key;\n";
  std::ofstream(root.path() + "/src/kv/key.rs")
      << "/// A key.\npub struct Key;\n/// Not exported.\npub struct Other;\nmod std_support {\n    impl super::Key "
         "{\n        /// Borrows it.\n        pub fn as_str(&self) {}\n    }\n}\n";
  auto analysis = analyze(root.path(), takeInventory(root.path(), InventoryLimits{}), AnalysisOptions{});
  auto visibility = [&](const std::string& path, const std::string& scope, const std::string& name) {
    const auto* f = analysis.find(path);
    if (!f) return std::string("no file");
    for (const auto& s : f->symbols)
      if (s.name == name && s.scope == scope && s.kind != "reexport") return s.visibility;
    return std::string("absent");
  };
  EXPECT_EQ(visibility("src/error.rs", "Error", "new"), "public");
  EXPECT_EQ(visibility("src/error.rs", "Error", "hidden"), "private");
  EXPECT_EQ(visibility("src/ptr.rs", "", "Own"), "private");
  EXPECT_EQ(visibility("src/ptr.rs", "Own", "new"), "private");
  EXPECT_EQ(visibility("src/macros.rs", "", "bail"), "public");
  EXPECT_EQ(visibility("src/macros.rs", "", "__inner"), "private");
  EXPECT_EQ(visibility("src/__private.rs", "", "plumbing"), "private");
  EXPECT_EQ(visibility("src/kv/key.rs", "", "Key"), "public");  // re-exported by kv
  EXPECT_EQ(visibility("src/kv/key.rs", "", "Other"), "private");
  EXPECT_EQ(visibility("src/kv/key.rs", "Key", "as_str"), "public");
  EXPECT_EQ(visibility("src/lib.rs", "Level", "Error"), "public");
  EXPECT_EQ(visibility("src/lib.rs", "Level", "Secret"), "private");
  EXPECT_EQ(visibility("src/lib.rs", "Point", "x"), "public");
  EXPECT_EQ(visibility("src/lib.rs", "Point", "y"), "private");
  for (const auto& s : analysis.find("src/lib.rs")->symbols)
    if (s.scope == "Level" && s.name == "Error") {
      EXPECT_EQ(s.summary, "The error level.");
    }
}

// TypeDoc lists an object type alias's properties; a JSDoc block still documents its
// declaration across line comments (`// biome-ignore ...`).
TEST(ScriptDeclarations, ObjectTypeAliasMembersAndCommentsBetween) {
  auto parsed =
      readDeclarations("typescript", "src/options.ts",
                       "/** Options. */\nexport type Options = {\n  /** Shortcut for JSON. */\n  json?: unknown;\n"
                       "  /** Retries. @default 2 */\n  retry(n: number): void;\n};\n/** Deep partial. */\n"
                       "// biome-ignore format: long\nexport type DeepPartial<T> = T;\n");
  ASSERT_TRUE(parsed);
  const Symbol* options = find(*parsed, "", "Options");
  ASSERT_TRUE(options);
  EXPECT_EQ(options->signature, "type Options");
  ASSERT_TRUE(find(*parsed, "Options", "json"));
  EXPECT_EQ(find(*parsed, "Options", "json")->summary, "Shortcut for JSON.");
  EXPECT_EQ(find(*parsed, "Options", "json")->visibility, "public");
  ASSERT_TRUE(find(*parsed, "Options", "retry"));
  EXPECT_EQ(find(*parsed, "Options", "retry")->kind, "method");
  ASSERT_TRUE(find(*parsed, "", "DeepPartial"));
  EXPECT_EQ(find(*parsed, "", "DeepPartial")->summary, "Deep partial.");
}
