// Java and Kotlin declarations read with their parsers (tree-sitter), Javadoc and KDoc
// rendered as javadoc and Dokka show them, and hostile input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "analysis/doc_dialects/javadoc.hpp"
#include "analysis/syntax/declarations.hpp"
#include "syntax_test_support.hpp"

using namespace docs_generation;
using namespace docs_generation::testing;

TEST(Javadoc, HtmlAndInlineTagsBecomeMarkdown) {
  std::string md = javadocMarkdown(R"(/**
     * Reads a <b>value</b> with <i>care</i>, see {@link #read(java.lang.String, int)},
     * {@link Reader#close()}, {@link java.util.List the list} and {@linkplain Other plainly}.
     * <p>
     * Use <code>Map&lt;K, V&gt;</code> or {@code List<String>} or {@code a {b} c}; {@literal a<b}.
     * {@inheritDoc} The limit is {@value #MAX}.
     * <ul>
     *   <li>first
     *   <li>second <tt>x</tt></li>
     * </ul>
     * <ol><li>one</li><li>two</li></ol>
     * <h2>Example</h2>
     * <pre>{@code
     * if (a < b) {
     *     read();
     * }
     * }</pre>
     * <pre>
     *   &#64;Override x &lt; y &amp;&amp; z
     * </pre>
     * Visit <a href="https://example.com/docs">the docs</a> or <a href="Other.html">Other</a>.
     * <span>Spanned</span> text.
     */)");
  EXPECT_TRUE(contains(md,
                       "Reads a **value** with *care*, see `read(String, int)`, `Reader.close()`, the list and "
                       "plainly."))
      << md;
  EXPECT_TRUE(contains(md, "Use `Map<K, V>` or `List<String>` or `a {b} c`; a\\<b.")) << md;
  EXPECT_TRUE(contains(md, "The limit is `MAX`.")) << md;
  EXPECT_TRUE(contains(md, "- first\n- second `x`")) << md;
  EXPECT_TRUE(contains(md, "1. one\n2. two")) << md;
  EXPECT_TRUE(contains(md, "## Example")) << md;
  EXPECT_TRUE(contains(md, "```java\nif (a < b) {\n    read();\n}\n```")) << md;
  EXPECT_TRUE(contains(md, "```java\n@Override x < y && z\n```")) << md;
  EXPECT_TRUE(contains(md, "Visit [the docs](https://example.com/docs) or Other.")) << md;
  EXPECT_TRUE(contains(md, "Spanned text.")) << md;
  for (const char* raw : {"<p>", "<b>", "<code>", "<li>", "<pre>", "<a ", "<span>", "{@link", "{@code", "{@value",
                          "{@inheritDoc", "&#64;", "/**", "*/"})
    EXPECT_FALSE(contains(md, raw)) << raw << " left in:\n" << md;
}

TEST(Javadoc, BlockTagsBecomeSections) {
  RenderedDoc doc = renderJavadoc(R"(/**
   * Sends a message, e.g. a greeting. Then waits for the answer.
   *
   * @param <T> the payload's type
   * @param message the text to send,
   *        on two lines
   * @param retries how often to try
   * @return {@code true} when it arrived
   * @throws IllegalStateException when the client is closed
   * @exception java.io.IOException when the network fails
   * @since 2.1
   * @deprecated Use {@link #post(String)} instead.
   * @see Client#post(String, int)
   * @author Jane Doe
   * @version 1.4
   * @apiNote Not thread-safe.
   */)");
  const std::string& md = doc.markdown;
  EXPECT_EQ(doc.summary, "Sends a message, e.g. a greeting.");
  EXPECT_TRUE(contains(md,
                       "| Name | Description |\n| --- | --- |\n"
                       "| `<T>` | the payload's type |\n"
                       "| `message` | the text to send, on two lines |\n"
                       "| `retries` | how often to try |"))
      << md;
  EXPECT_TRUE(contains(md, "**Returns**\n\n- `true` when it arrived")) << md;
  EXPECT_TRUE(contains(md, "- `IllegalStateException`: when the client is closed")) << md;
  EXPECT_TRUE(contains(md, "- `java.io.IOException`: when the network fails")) << md;
  EXPECT_TRUE(contains(md, "**Since:** 2.1")) << md;
  EXPECT_TRUE(contains(md, "**Deprecated:** Use `post(String)` instead.")) << md;
  EXPECT_TRUE(contains(md, "**See also:** `Client.post(String, int)`")) << md;
  EXPECT_TRUE(contains(md, "**API Note:** Not thread-safe.")) << md;
  for (const char* raw : {"@param", "@return", "@throws", "@since", "@see", "Jane Doe", "1.4"})
    EXPECT_FALSE(contains(md, raw)) << raw << " left in:\n" << md;
}

TEST(Javadoc, AnAtSignInsideCodeStartsNoTag) {
  RenderedDoc doc = renderJavadoc(R"(/**
   * Annotate it:
   * <pre>{@code
   * @Override
   * public String toString() { return "x"; }
   * }</pre>
   * @since 3
   */)");
  EXPECT_TRUE(contains(doc.markdown, "```java\n@Override\npublic String toString() { return \"x\"; }\n```"))
      << doc.markdown;
  EXPECT_TRUE(contains(doc.markdown, "**Since:** 3")) << doc.markdown;
  EXPECT_EQ(doc.summary, "Annotate it:");
}

TEST(Kdoc, MarkdownBodyLinksAndTags) {
  RenderedDoc doc = renderKdoc(R"(/**
 * Creates a [Group] of [members][Member], see the [guide](https://example.com/guide).
 *
 * ```
 * val g = group()
 * ```
 *
 * @param T the type of a member.
 * @param[name] the group's
 *   name.
 * @property size how many there are
 * @return the new group
 * @throws IllegalArgumentException when [name] is blank
 * @since 1.3
 * @author Someone
 */)");
  const std::string& md = doc.markdown;
  EXPECT_EQ(doc.summary, "Creates a Group of members, see the [guide](https://example.com/guide).");
  EXPECT_TRUE(contains(md, "```kotlin\nval g = group()\n```")) << md;
  EXPECT_TRUE(contains(md, "| `T` | the type of a member. |")) << md;
  EXPECT_TRUE(contains(md, "| `name` | the group's name. |")) << md;
  EXPECT_TRUE(contains(md, "**Returns**\n\n- the new group")) << md;
  EXPECT_TRUE(contains(md, "- `IllegalArgumentException`: when name is blank")) << md;
  EXPECT_TRUE(contains(md, "**Property `size`:** how many there are")) << md;
  EXPECT_TRUE(contains(md, "**Since:** 1.3")) << md;
  EXPECT_FALSE(contains(md, "Someone")) << md;
  EXPECT_FALSE(contains(md, "[Group]")) << md;
}

// javadoc's reading: doc comments through annotations, access by Java's rules, nested
// types under their type, heads without annotations or bodies, whole extents.
TEST(JavaDeclarations, ReadAsJavadocDoes) {
  std::string code = R"JAVA(/*
 * Copyright header, not a doc.
 */
package com.example.api;

import java.util.List;

/**
 * A client for the service, e.g. the default one. It keeps a connection.
 *
 * <p>Use {@link #send(String, int)} or {@linkplain Client#close() closing it}.
 *
 * @param <T> the payload type
 * @since 2.0
 */
@Deprecated
public final class Client<T> extends Base implements AutoCloseable {
  /** The default port. */
  public static final int PORT = 80, BACKUP_PORT = 81;

  private int secret;

  /** Package-private, so no API. */
  int hidden;

  /**
   * Makes a client.
   *
   * @param host where to connect
   */
  public Client(String host) {}

  Client() {}

  /**
   * Sends a message.
   *
   * @param message the text
   * @param retries how often to try
   * @return whether it arrived
   */
  @Override
  @SuppressWarnings("unchecked")
  public <R extends T> boolean send(
      final String message,
      @Nullable Integer retries)
      throws java.io.IOException {
    return true;
  }

  /** Closes it. */
  // A plain comment in between: javadoc still takes the doc above.
  protected void close() {}

  private void helper() {}

  /** Options of a client. */
  public static class Options {
    /** Merge two. */
    public Options merge(Options other) { return this; }
  }

  /** A marker. */
  public @interface Marker {
    String value() default "";
  }

  public interface Listener {
    void onEvent(String name);

    private void internalHelper() {}
  }

  public enum Mode {
    /** Fast mode. */
    FAST,
    SLOW;
  }
}

class PackagePrivate {
  public void visible() {}
}
)JAVA";
  auto parsed = readDeclarations("java", "src/main/java/com/example/api/Client.java", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc, "") << "only package-info.java documents the package";

  const Symbol* client = find(*parsed, "", "Client");
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->kind, "class");
  EXPECT_EQ(client->visibility, "public");
  EXPECT_EQ(client->signature, "public final class Client<T> extends Base implements AutoCloseable");
  EXPECT_EQ(client->line, lineOf(code, "@Deprecated")) << "the annotations are part of the declaration";
  EXPECT_EQ(client->end, lineOf(code, "class PackagePrivate") - 2);
  EXPECT_EQ(client->summary, "A client for the service, e.g. the default one.");
  EXPECT_TRUE(client->markdownDoc);
  EXPECT_TRUE(contains(client->doc, "Use `send(String, int)` or closing it.")) << client->doc;
  EXPECT_TRUE(contains(client->doc, "| `<T>` | the payload type |")) << client->doc;
  EXPECT_TRUE(contains(client->doc, "**Since:** 2.0")) << client->doc;

  const Symbol* port = find(*parsed, "Client", "PORT");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->kind, "field");
  EXPECT_EQ(port->visibility, "public");
  EXPECT_EQ(port->signature, "public static final int PORT");
  EXPECT_EQ(port->summary, "The default port.");
  ASSERT_NE(find(*parsed, "Client", "BACKUP_PORT"), nullptr);
  EXPECT_EQ(find(*parsed, "Client", "BACKUP_PORT")->signature, "public static final int BACKUP_PORT");
  EXPECT_EQ(find(*parsed, "Client", "secret")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "hidden")->visibility, "private") << "package-private";

  int constructors = 0;
  for (const auto& s : parsed->symbols) {
    if (s.kind != "constructor") continue;
    ++constructors;
    EXPECT_EQ(s.name, "Client");
    EXPECT_EQ(s.scope, "Client");
    if (s.signature == "public Client(String host)") {
      EXPECT_EQ(s.visibility, "public");
      EXPECT_EQ(s.summary, "Makes a client.");
    } else {
      EXPECT_EQ(s.signature, "Client()");
      EXPECT_EQ(s.visibility, "private") << "package-private";
    }
  }
  EXPECT_EQ(constructors, 2);

  const Symbol* send = find(*parsed, "Client", "send");
  ASSERT_NE(send, nullptr);
  EXPECT_EQ(send->kind, "method");
  EXPECT_EQ(send->visibility, "public");
  EXPECT_EQ(send->signature,
            "public <R extends T> boolean send(final String message, Integer retries) throws java.io.IOException");
  EXPECT_EQ(send->line, lineOf(code, "@Override"));
  EXPECT_EQ(send->end, lineOf(code, "return true;") + 1);
  EXPECT_EQ(send->summary, "Sends a message.");
  EXPECT_TRUE(contains(send->doc, "| `message` | the text |\n| `retries` | how often to try |")) << send->doc;
  EXPECT_TRUE(contains(send->doc, "**Returns**\n\n- whether it arrived")) << send->doc;

  const Symbol* close = find(*parsed, "Client", "close");
  ASSERT_NE(close, nullptr);
  EXPECT_EQ(close->visibility, "public") << "protected is API";
  EXPECT_EQ(close->summary, "Closes it.") << "a plain comment between the doc and the method is skipped";
  EXPECT_EQ(find(*parsed, "Client", "helper")->visibility, "private");

  const Symbol* options = find(*parsed, "Client", "Options");
  ASSERT_NE(options, nullptr);
  EXPECT_EQ(options->kind, "class");
  EXPECT_EQ(options->visibility, "public");
  const Symbol* merge = find(*parsed, "Client.Options", "merge");
  ASSERT_NE(merge, nullptr);
  EXPECT_EQ(merge->summary, "Merge two.");
  EXPECT_EQ(merge->visibility, "public");

  const Symbol* marker = find(*parsed, "Client", "Marker");
  ASSERT_NE(marker, nullptr);
  EXPECT_EQ(marker->kind, "annotation");
  EXPECT_EQ(marker->signature, "public @interface Marker");
  EXPECT_EQ(marker->visibility, "public");
  ASSERT_NE(find(*parsed, "Client.Marker", "value"), nullptr);
  EXPECT_EQ(find(*parsed, "Client.Marker", "value")->visibility, "public");

  EXPECT_EQ(find(*parsed, "Client.Listener", "onEvent")->visibility, "public") << "interface members are public";
  EXPECT_EQ(find(*parsed, "Client.Listener", "internalHelper")->visibility, "private");

  const Symbol* fast = find(*parsed, "Client.Mode", "FAST");
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(fast->kind, "constant");
  EXPECT_EQ(fast->visibility, "public");
  EXPECT_EQ(fast->summary, "Fast mode.");
  EXPECT_EQ(find(*parsed, "Client.Mode", "SLOW")->visibility, "public");

  EXPECT_EQ(find(*parsed, "", "PackagePrivate")->visibility, "private");
  EXPECT_EQ(find(*parsed, "PackagePrivate", "visible")->visibility, "private") << "its type is not public";
}

TEST(JavaDeclarations, InternalAndImplPackagesArePrivate) {
  std::string code =
      "package com.example.internal;\n\n/** Helps. */\npublic class Helper {\n  public void help() {}\n}\n";
  auto internal = readDeclarations("java", "src/main/java/com/example/internal/Helper.java", code);
  ASSERT_TRUE(internal);
  ASSERT_NE(find(*internal, "", "Helper"), nullptr);
  EXPECT_EQ(find(*internal, "", "Helper")->visibility, "private");
  EXPECT_EQ(find(*internal, "Helper", "help")->visibility, "private");
  EXPECT_EQ(find(*internal, "", "Helper")->summary, "Helps.") << "still documented";

  std::string other = "package com.example;\n\npublic class Engine {\n  public void run() {}\n}\n";
  auto impl = readDeclarations("java", "core/src/com/example/impl/Engine.java", other);
  ASSERT_TRUE(impl);
  EXPECT_EQ(find(*impl, "", "Engine")->visibility, "private");
  auto api = readDeclarations("java", "core/src/com/example/Engine.java", other);
  ASSERT_TRUE(api);
  EXPECT_EQ(find(*api, "", "Engine")->visibility, "public");
  EXPECT_EQ(find(*api, "Engine", "run")->visibility, "public");
}

TEST(JavaDeclarations, PackageInfoDocumentsThePackage) {
  std::string code =
      "/*\n * License.\n */\n\n/**\n * Tools for <b>parsing</b>, see {@link com.example.Parser}.\n"
      " *\n * @since 1.0\n */\n@ParametersAreNonnullByDefault\npackage com.example;\n";
  auto parsed = readDeclarations("java", "src/main/java/com/example/package-info.java", code);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(contains(parsed->doc, "Tools for **parsing**, see `Parser`.")) << parsed->doc;
  EXPECT_TRUE(contains(parsed->doc, "**Since:** 1.0")) << parsed->doc;
  EXPECT_TRUE(parsed->symbols.empty());
}

// Dokka's reading: public by default, private and internal not, KDoc before each.
TEST(KotlinDeclarations, ReadAsDokkaDoes) {
  std::string code = R"KT(package com.example

import kotlin.math.max

/**
 * A greeter, see [Greeting] for the text.
 *
 * @property name who is greeted
 */
class Greeter(val name: String, private val secret: Int) {
    /**
     * Greets [name].
     *
     * @param loud whether to shout
     * @return the greeting
     */
    fun greet(loud: Boolean = false): String {
        return "Hello"
    }

    private fun helper() {}

    internal val cache: Map<String, Int> = emptyMap()

    protected open fun hook() {}

    class Nested {
        fun inner() {}
    }

    companion object {
        const val DEFAULT = "world"
    }
}

private fun topSecret() {}

fun topLevel(a: Int,
             b: String): Unit {}
)KT";
  auto parsed = readDeclarations("kotlin", "src/main/kotlin/com/example/Greeter.kt", code);
  ASSERT_TRUE(parsed);
  const Symbol* greeter = find(*parsed, "", "Greeter");
  ASSERT_NE(greeter, nullptr);
  EXPECT_EQ(greeter->kind, "class");
  EXPECT_EQ(greeter->visibility, "public");
  EXPECT_EQ(greeter->signature, "class Greeter(val name: String, private val secret: Int)");
  EXPECT_EQ(greeter->line, lineOf(code, "class Greeter"));
  EXPECT_EQ(greeter->end, lineOf(code, "private fun topSecret") - 2);
  EXPECT_EQ(greeter->summary, "A greeter, see Greeting for the text.") << "after the imports";
  EXPECT_TRUE(contains(greeter->doc, "**Property `name`:** who is greeted")) << greeter->doc;

  EXPECT_EQ(find(*parsed, "Greeter", "name")->visibility, "public");
  EXPECT_EQ(find(*parsed, "Greeter", "secret")->visibility, "private");

  const Symbol* greet = find(*parsed, "Greeter", "greet");
  ASSERT_NE(greet, nullptr);
  EXPECT_EQ(greet->kind, "method");
  EXPECT_EQ(greet->visibility, "public");
  EXPECT_EQ(greet->signature, "fun greet(loud: Boolean = false): String");
  EXPECT_EQ(greet->line, lineOf(code, "fun greet"));
  EXPECT_EQ(greet->end, lineOf(code, "return \"Hello\"") + 1);
  EXPECT_EQ(greet->summary, "Greets name.");
  EXPECT_TRUE(contains(greet->doc, "| `loud` | whether to shout |")) << greet->doc;
  EXPECT_TRUE(contains(greet->doc, "**Returns**\n\n- the greeting")) << greet->doc;

  const Symbol* helper = find(*parsed, "Greeter", "helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->visibility, "private");
  EXPECT_EQ(helper->signature, "private fun helper()");
  const Symbol* cache = find(*parsed, "Greeter", "cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->kind, "property");
  EXPECT_EQ(cache->visibility, "private") << "internal";
  EXPECT_EQ(cache->signature, "internal val cache: Map<String, Int>");
  EXPECT_EQ(find(*parsed, "Greeter", "hook")->visibility, "public") << "protected is API";
  EXPECT_EQ(find(*parsed, "Greeter.Nested", "inner")->visibility, "public");
  ASSERT_NE(find(*parsed, "Greeter", "Companion"), nullptr);
  ASSERT_NE(find(*parsed, "Greeter.Companion", "DEFAULT"), nullptr);
  EXPECT_EQ(find(*parsed, "Greeter.Companion", "DEFAULT")->signature, "const val DEFAULT = \"world\"");

  EXPECT_EQ(find(*parsed, "", "topSecret")->visibility, "private");
  const Symbol* top = find(*parsed, "", "topLevel");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->kind, "function");
  EXPECT_EQ(top->visibility, "public");
  EXPECT_EQ(top->signature, "fun topLevel(a: Int, b: String): Unit");
  EXPECT_EQ(top->end - top->line, 1);
}

// Hostile input: deep nesting, long lines, invalid UTF-8 and pathological comments give
// an answer in bounded time.
TEST(JavaDeclarations, HostileInputIsReadInBoundedTime) {
  std::string deep = "package a;\n";
  for (int i = 0; i < 3000; ++i) deep += "public class C" + std::to_string(i) + " {\n";
  deep += std::string(3000, '}');
  std::string longLine = "public class L { public void f(" + std::string(200000, 'a') + ") {} }\n";
  std::string binary =
      "/** \xff\xfe\xc3 doc */\npublic class B { public void \xc3\x28() {} }\n" + std::string(1000, '\0');
  std::string brackets = "public class X { int[] a = " + std::string(100000, '{') + "; }\n";
  std::string comment = "/**\n * ";
  for (int i = 0; i < 2000; ++i) comment += "<ul><li><b><a href=\"https://x\"><code><pre>&#64;&lt;<!-- ";
  for (int i = 0; i < 1000; ++i) comment += "{@link A {@code ";
  comment += std::string(100000, '<') + "\n * @param x " + std::string(50000, '@') + "\n */\npublic class D {}\n";
  for (const std::string* text : {&deep, &longLine, &binary, &brackets, &comment}) {
    for (const char* language : {"java", "kotlin"}) {
      auto started = std::chrono::steady_clock::now();
      auto parsed = readDeclarations(language, "h/H.java", *text);
      auto took = std::chrono::steady_clock::now() - started;
      EXPECT_LT(took, std::chrono::seconds(30)) << language;  // the parse budget is 5 s; this only catches a hang
      if (parsed) {
        EXPECT_LE(parsed->symbols.size(), 2000u);
      }
    }
  }
  auto deepParsed = readDeclarations("java", "a/C.java", deep);
  ASSERT_TRUE(deepParsed);
  ASSERT_FALSE(deepParsed->symbols.empty());
  EXPECT_EQ(deepParsed->symbols[0].name, "C0");

  // The dialects alone, on comments far larger than any real one.
  std::string javadoc = "/** " + std::string(300000, '{') + std::string(100000, '}') + "{@code " +
                        std::string(100000, '<') + "</pre><pre>" + std::string(100000, '&') + " */";
  std::string kdoc = "/** " + std::string(200000, '[') + std::string(100000, '`') + "]](" + std::string(100000, ']') +
                     "\n * @param " + std::string(100000, '[') + " */";
  for (const std::string* text : {&comment, &javadoc, &kdoc}) {
    auto started = std::chrono::steady_clock::now();
    std::string md = javadocMarkdown(*text) + kdocMarkdown(*text);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
    EXPECT_FALSE(md.empty());
  }
}
