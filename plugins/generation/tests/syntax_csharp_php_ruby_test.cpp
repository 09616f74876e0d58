// C#, PHP and Ruby declarations read with tree-sitter as DocFX, phpDocumentor and YARD
// read them, their doc dialects rendered, and hostile input.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "analysis/doc_dialects/csharp_xml_doc.hpp"
#include "analysis/doc_dialects/phpdoc.hpp"
#include "analysis/doc_dialects/yard.hpp"
#include "analysis/syntax/declarations.hpp"
#include "syntax_test_support.hpp"

using namespace docs_generation;
using namespace docs_generation::testing;

TEST(CsharpDeclarations, ReadAsDocFxDoes) {
  std::string code = R"CS(using System;

namespace Acme.Http
{
    /// <summary>
    /// A client that sends <see cref="T:Acme.Http.Request"/>s, or <see langword="null"/>.
    /// </summary>
    /// <remarks>Thread-safe. Use <c>Dispose</c>.</remarks>
    public sealed class Client : IDisposable
    {
        /// <summary>The default timeout.</summary>
        public const int Timeout = 30;

        private readonly int retries;

        /// <summary>Gets the name.</summary>
        public string Name { get; set; }

        /// <summary>Sends a request to <paramref name="url"/>.</summary>
        /// <param name="url">The address.</param>
        /// <param name="retries">How often.</param>
        /// <returns>The response.</returns>
        /// <exception cref="HttpException">When it fails.</exception>
        /// <example><code>
        /// var r = await client.SendAsync("/");
        /// </code></example>
        [Obsolete("x")]
        public Task<Response> SendAsync(string url, int retries = 3) { return null; }

        internal void Helper() { }
        void Private() { }
        protected Client(int n) { }
        public event EventHandler Changed;
    }

    public interface ISendable { Response Send(string url); }
    public enum Suit { Hearts, Spades }
    internal class Hidden { public void M() {} }
}
)CS";
  auto parsed = readDeclarations("csharp", "src/Client.cs", code);
  ASSERT_TRUE(parsed);
  const Symbol* client = find(*parsed, "", "Client");
  ASSERT_TRUE(client);
  EXPECT_EQ(client->kind, "class");
  EXPECT_EQ(client->visibility, "public");
  EXPECT_EQ(client->signature, "public sealed class Client : IDisposable");
  EXPECT_EQ(client->summary, "A client that sends `Request`s, or `null`.");
  EXPECT_TRUE(contains(client->doc, "**Remarks**\n\nThread-safe. Use `Dispose`.")) << client->doc;
  const Symbol* send = find(*parsed, "Client", "SendAsync");
  ASSERT_TRUE(send);
  EXPECT_EQ(send->signature, "public Task<Response> SendAsync(string url, int retries = 3)");
  EXPECT_EQ(send->summary, "Sends a request to `url`.");
  EXPECT_TRUE(contains(send->doc, "| `url` | The address. |")) << send->doc;
  EXPECT_TRUE(contains(send->doc, "- `HttpException`: When it fails.")) << send->doc;
  EXPECT_TRUE(contains(send->doc, "```csharp\nvar r = await client.SendAsync(\"/\");\n```")) << send->doc;
  EXPECT_EQ(find(*parsed, "Client", "Timeout")->kind, "constant");
  EXPECT_EQ(find(*parsed, "Client", "Name")->signature, "public string Name { get; set; }");
  EXPECT_EQ(find(*parsed, "Client", "retries")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "Helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "Private")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "Client")->visibility, "public");  // protected: for subclasses
  EXPECT_EQ(find(*parsed, "Client", "Changed")->kind, "event");
  EXPECT_EQ(find(*parsed, "ISendable", "Send")->visibility, "public");  // an interface's members
  EXPECT_EQ(find(*parsed, "Suit", "Spades")->visibility, "public");
  EXPECT_EQ(find(*parsed, "", "Hidden")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Hidden", "M")->visibility, "private");
}

TEST(PhpDeclarations, ReadAsPhpDocumentorDoes) {
  std::string code = R"PHP(<?php
/**
 * HTTP clients.
 */
namespace Acme\Http;

use Acme\Foo;

/**
 * A client. See {@see Request} and {@link https://example.com the site}.
 */
final class Client extends Base implements Sendable
{
    /** The default timeout. */
    public const TIMEOUT = 30;

    /** @var int how often to retry */
    private int $retries = 3;

    /** @var string|null the name */
    protected ?string $name;

    /**
     * Sends a request.
     *
     * @param string $url the address
     * @param array<string, mixed> $options options
     * @return Response the response
     * @throws HttpException when it fails
     */
    #[Route('/send')]
    public function send(string $url, array $options = []): Response
    {
        return new Response();
    }

    private static function helper(): void {}
    function legacy() {}

    /** @internal */
    public function plumbing() {}
}

enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
/** Makes one. */
function make(int $n = 1): Client { return new Client(); }
)PHP";
  auto parsed = readDeclarations("php", "src/Client.php", code);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->doc, "HTTP clients.");
  const Symbol* client = find(*parsed, "", "Client");
  ASSERT_TRUE(client);
  EXPECT_EQ(client->signature, "final class Client extends Base implements Sendable");
  EXPECT_EQ(client->summary, "A client.");
  EXPECT_TRUE(contains(client->doc, "See `Request` and [the site](https://example.com).")) << client->doc;
  const Symbol* send = find(*parsed, "Client", "send");
  ASSERT_TRUE(send);
  EXPECT_EQ(send->signature, "public function send(string $url, array $options = []): Response");
  EXPECT_EQ(send->summary, "Sends a request.");
  EXPECT_TRUE(contains(send->doc, "| `$url` | `string` | the address |")) << send->doc;
  EXPECT_TRUE(contains(send->doc, "- `Response`: the response")) << send->doc;
  EXPECT_TRUE(contains(send->doc, "- `HttpException`: when it fails")) << send->doc;
  EXPECT_EQ(find(*parsed, "Client", "TIMEOUT")->summary, "The default timeout.");
  EXPECT_EQ(find(*parsed, "Client", "$retries")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "$name")->visibility, "public");
  EXPECT_EQ(find(*parsed, "Client", "$name")->summary, "the name");
  EXPECT_EQ(find(*parsed, "Client", "helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Client", "legacy")->visibility, "public");
  EXPECT_EQ(find(*parsed, "Client", "plumbing")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Suit", "Spades")->kind, "constant");
  EXPECT_EQ(find(*parsed, "", "make")->signature, "function make(int $n = 1): Client");
  EXPECT_EQ(find(*parsed, "", "make")->summary, "Makes one.");
}

TEST(RubyDeclarations, ReadAsYardDoes) {
  std::string code = R"RB(# frozen_string_literal: true

# The HTTP client library.
module Acme
  # A client that sends requests. Use +get+ for most things.
  #
  # @example Fetch the front page
  #   Acme::Client.new.get("/")
  class Client < Base
    # The default timeout.
    TIMEOUT = 30

    # @return [String] the client's name
    attr_reader :name

    # Sends a request.
    #
    # @param url [String] the address
    # @param options [Hash] extra options
    # @option options [Integer] :retries (3) how often
    # @return [Response] the response
    # @raise [HttpError] when it fails
    def get(url, options = {}, *rest, key: 1, &block)
      helper
    end

    # Builds one.
    def self.build(**kw); end

    # @api private
    def plumbing; end

    private

    def helper; end

    public

    def visible; end

    private def inline_private; end
  end
end
)RB";
  auto parsed = readDeclarations("ruby", "lib/acme/client.rb", code);
  ASSERT_TRUE(parsed);
  const Symbol* acme = find(*parsed, "", "Acme");
  ASSERT_TRUE(acme);
  EXPECT_EQ(acme->kind, "module");
  EXPECT_EQ(acme->summary, "The HTTP client library.");  // not the magic comment
  const Symbol* client = find(*parsed, "Acme", "Client");
  ASSERT_TRUE(client);
  EXPECT_EQ(client->signature, "class Client < Base");
  EXPECT_EQ(client->summary, "A client that sends requests.");
  EXPECT_TRUE(contains(client->doc, "Use `get` for most things.")) << client->doc;
  EXPECT_TRUE(contains(client->doc, "**Example: Fetch the front page**\n\n```ruby\nAcme::Client.new.get(\"/\")\n```"))
      << client->doc;
  const Symbol* get = find(*parsed, "Acme::Client", "get");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->signature, "def get(url, options = {}, *rest, key: 1, &block)");
  EXPECT_EQ(get->summary, "Sends a request.");
  EXPECT_TRUE(contains(get->doc, "| `url` | `String` | the address |")) << get->doc;
  EXPECT_TRUE(contains(get->doc, "| `options[:retries]` | `Integer` | (3) how often |")) << get->doc;
  EXPECT_TRUE(contains(get->doc, "- `Response`: the response")) << get->doc;
  EXPECT_TRUE(contains(get->doc, "- `HttpError`: when it fails")) << get->doc;
  EXPECT_EQ(find(*parsed, "Acme::Client", "build")->signature, "def self.build(**kw)");
  EXPECT_EQ(find(*parsed, "Acme::Client", "TIMEOUT")->summary, "The default timeout.");
  EXPECT_EQ(find(*parsed, "Acme::Client", "name")->kind, "attribute");
  EXPECT_EQ(find(*parsed, "Acme::Client", "plumbing")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Acme::Client", "helper")->visibility, "private");
  EXPECT_EQ(find(*parsed, "Acme::Client", "visible")->visibility, "public");
  EXPECT_EQ(find(*parsed, "Acme::Client", "inline_private")->visibility, "private");
}

TEST(ScriptingDeclarations, HostileInputEndsInBoundedTime) {
  std::string deep(100000, '{');
  std::string longLine(300000, 'a');
  std::string invalid = "/// \xff\xfe <summary>\xc3</summary>\nclass \xc3 {}\n# \xff\ndef \xfe; end\n<?php /** \xff */";
  std::string comments;
  for (int i = 0; i < 20000; ++i) comments += "# line " + std::to_string(i) + "\n";
  comments += "def f; end\n";
  for (const char* language : {"csharp", "php", "ruby"})
    for (const std::string& code :
         {deep, longLine, invalid, comments, std::string("<?php class {"), std::string("/// <summary><see cref=\"")}) {
      auto started = std::chrono::steady_clock::now();
      (void)readDeclarations(language, "a", code);
      EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));  // catches a hang only
    }
  // The dialects alone on unclosed markup.
  (void)renderCsharpXmlDoc("/// <summary><list><item><c>x");
  (void)renderPhpDoc("/** {@link");
  (void)renderYard("# @param [\n# @example");
}
