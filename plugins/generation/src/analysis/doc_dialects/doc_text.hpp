#pragma once
// What every doc dialect shares once it is Markdown: the summary sentence, and the
// parameter, return and exception sections written the same way for every language (a
// table of parameters, as Sphinx, rustdoc and javadoc readers expect to find them).

#include <string>
#include <string_view>
#include <vector>

namespace docs_generation::doc_text {

// A doc comment as its dialect's tool shows it.
struct RenderedDoc {
  std::string markdown;  // the whole doc as Markdown
  std::string summary;   // its summary sentence by the dialect's rule, inline Markdown
};

// The first sentence of the first paragraph of `markdown` (a doc comment as Markdown):
// it ends at '.', '!' or '?' followed by a space and not after an abbreviation ("e.g.",
// "i.e.", "etc.", "vs.", an initial), nor inside `code` or (parentheses); a paragraph
// with no such end is whole. Line breaks become spaces; code blocks and headings before
// the first paragraph are skipped. At most `maxChars` (cut at a word, with "...").
std::string firstSentence(std::string_view markdown, std::size_t maxChars = 240);

// The first paragraph of prose of `markdown`, its lines joined (code blocks, headings and
// tables before it skipped).
std::string firstParagraph(std::string_view markdown);

struct Field {
  std::string name;         // parameter or exception name ("" for a return)
  std::string type;         // as written, may be empty
  std::string description;  // inline Markdown, one paragraph
  std::string defaultValue;
};

// The structured part of a doc comment, as the dialects' readers fill it.
struct Sections {
  std::string body;  // Markdown before and around the fields
  std::vector<Field> parameters;
  std::vector<Field> returns;  // one usually; yields go here too with name "yields"
  std::vector<Field> raises;
  std::vector<std::pair<std::string, std::string>> notes;  // ("Since", "2.0"), ("See also", "...")
};

// The sections as Markdown: the body, then "**Parameters**" as a table (name, type,
// description), "**Returns**", "**Raises**" as lists, then the notes.
std::string toMarkdown(const Sections& sections);

// Lines of text with the common indentation of all but the first removed, leading and
// trailing blank lines dropped, tabs expanded (Python's inspect.cleandoc).
std::string cleanIndentation(std::string_view text);

// A tagged doc comment (PHPDoc, YARD) split into its body and its block tags: each line
// starting with `@name` (outside ``` fences) starts a tag, whose text runs to the next
// tag, continuation lines joined with newlines.
struct TaggedText {
  std::string body;
  std::vector<std::pair<std::string, std::string>> tags;  // ("param", "string $url the address")
};
TaggedText splitBlockTags(std::string_view text);

// The first whitespace-separated word of `text`, and the rest after it (trimmed).
std::pair<std::string, std::string> firstWordAndRest(std::string_view text);

// Table cells hold one line: line breaks become spaces and '|' is escaped.
std::string oneLineCell(std::string_view text);

}  // namespace docs_generation::doc_text
