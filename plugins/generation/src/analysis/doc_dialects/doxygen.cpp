#include "analysis/doc_dialects/doxygen.hpp"

#include <array>
#include <cctype>
#include <set>
#include <vector>

namespace docs_generation {

namespace {

using doc_text::Field;
using doc_text::Sections;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// One comment's lines without its markers.
void stripMarkers(std::string_view comment, std::string& out) {
  comment = trimmed(comment);
  bool block = comment.starts_with("/*");
  if (block) {
    comment.remove_prefix(2);
    if (comment.ends_with("*/")) comment.remove_suffix(2);
    while (!comment.empty() && (comment.front() == '*' || comment.front() == '!')) comment.remove_prefix(1);
    if (!comment.empty() && comment.front() == '<') comment.remove_prefix(1);
    bool first = true;
    for (auto line : splitLines(comment)) {
      // Each line's leading `*` goes (and a line of only `*`s, a frame).
      std::string_view rest = line;
      auto lead = rest.find_first_not_of(" \t");
      if (!first && lead != std::string_view::npos && rest[lead] == '*') {
        rest.remove_prefix(lead + 1);
        if (rest.find_first_not_of('*') == std::string_view::npos) rest = {};
        else if (!rest.empty() && rest.front() == '*' && rest.find_first_not_of('*') != std::string_view::npos)
          rest.remove_prefix(rest.find_first_not_of('*'));
      }
      out.append(rest);
      out += '\n';
      first = false;
    }
    return;
  }
  for (auto line : splitLines(comment)) {
    std::string_view rest = trimmed(line);
    if (rest.starts_with("//")) rest.remove_prefix(2);
    if (!rest.empty() && (rest.front() == '/' || rest.front() == '!')) rest.remove_prefix(1);
    if (!rest.empty() && rest.front() == '<') rest.remove_prefix(1);
    // A separator line (////////, // -------) is no text.
    std::string_view content = trimmed(rest);
    if (content.size() >= 3 && content.find_first_not_of(content.front()) == std::string_view::npos &&
        std::string_view("/-=*#~_+").find(content.front()) != std::string_view::npos)
      rest = {};
    out.append(rest);
    out += '\n';
  }
}

// Commands that say where a comment belongs or how to group it, never what it says.
bool structuralCommand(std::string_view name) {
  static const std::set<std::string, std::less<>> kNames = {"file",
                                                            "fn",
                                                            "class",
                                                            "struct",
                                                            "union",
                                                            "enum",
                                                            "namespace",
                                                            "def",
                                                            "var",
                                                            "typedef",
                                                            "property",
                                                            "interface",
                                                            "protocol",
                                                            "category",
                                                            "package",
                                                            "page",
                                                            "mainpage",
                                                            "defgroup",
                                                            "ingroup",
                                                            "addtogroup",
                                                            "weakgroup",
                                                            "name",
                                                            "headerfile",
                                                            "overload",
                                                            "relates",
                                                            "related",
                                                            "relatesalso",
                                                            "relatedalso",
                                                            "memberof",
                                                            "showinitializer",
                                                            "hideinitializer",
                                                            "nosubgrouping",
                                                            "static",
                                                            "pure",
                                                            "public",
                                                            "private",
                                                            "protected",
                                                            "publicsection",
                                                            "privatesection",
                                                            "protectedsection",
                                                            "anchor",
                                                            "cond",
                                                            "endcond",
                                                            "if",
                                                            "ifnot",
                                                            "else",
                                                            "elseif",
                                                            "endif",
                                                            "image",
                                                            "dotfile",
                                                            "mscfile",
                                                            "diafile",
                                                            "example",
                                                            "include",
                                                            "includelineno",
                                                            "dontinclude",
                                                            "skip",
                                                            "skipline",
                                                            "until",
                                                            "line",
                                                            "snippet",
                                                            "snippetlineno",
                                                            "showrefs",
                                                            "hiderefs",
                                                            "callgraph",
                                                            "callergraph",
                                                            "hidecallgraph",
                                                            "hidecallergraph",
                                                            "showenumvalues",
                                                            "hideenumvalues",
                                                            "idlexcept",
                                                            "concept",
                                                            "module",
                                                            "dir",
                                                            "extends",
                                                            "implements",
                                                            "qualifier",
                                                            "tableofcontents",
                                                            "endinternal",
                                                            "endcode",
                                                            "endverbatim",
                                                            "exception_spec",
                                                            "ifile"};
  return kNames.count(name) > 0;
}

// Blocks whose content is for one output format only (or a diagram): not shown.
std::string_view skippedBlockEnd(std::string_view name) {
  static const std::array<std::pair<std::string_view, std::string_view>, 10> kBlocks = {
      {{"dot", "enddot"},
       {"msc", "endmsc"},
       {"startuml", "enduml"},
       {"latexonly", "endlatexonly"},
       {"htmlonly", "endhtmlonly"},
       {"rtfonly", "endrtfonly"},
       {"xmlonly", "endxmlonly"},
       {"manonly", "endmanonly"},
       {"docbookonly", "enddocbookonly"},
       {"internal", "endinternal"}}};
  for (const auto& [open, close] : kBlocks)
    if (open == name) return close;
  return {};
}

// Notes' labels, as Doxygen titles them.
std::string_view noteLabel(std::string_view name) {
  static const std::array<std::pair<std::string_view, std::string_view>, 21> kNotes = {{{"note", "Note"},
                                                                                        {"warning", "Warning"},
                                                                                        {"attention", "Attention"},
                                                                                        {"remark", "Remark"},
                                                                                        {"remarks", "Remarks"},
                                                                                        {"pre", "Precondition"},
                                                                                        {"post", "Postcondition"},
                                                                                        {"invariant", "Invariant"},
                                                                                        {"since", "Since"},
                                                                                        {"deprecated", "Deprecated"},
                                                                                        {"see", "See also"},
                                                                                        {"sa", "See also"},
                                                                                        {"todo", "To do"},
                                                                                        {"bug", "Bug"},
                                                                                        {"author", "Author"},
                                                                                        {"authors", "Authors"},
                                                                                        {"version", "Version"},
                                                                                        {"date", "Date"},
                                                                                        {"copyright", "Copyright"},
                                                                                        {"test", "Test"},
                                                                                        {"parblock", ""}}};
  for (const auto& [name_, label] : kNotes)
    if (name_ == name) return label;
  return {};
}

// An HTML tag comments use, as Markdown; empty when `tag` is not one of them.
std::string_view htmlAsMarkdown(std::string_view tag) {
  static const std::array<std::pair<std::string_view, std::string_view>, 26> kTags = {
      {{"<b>", "**"},     {"</b>", "**"},     {"<strong>", "**"}, {"</strong>", "**"},  {"<i>", "*"},
       {"</i>", "*"},     {"<em>", "*"},      {"</em>", "*"},     {"<tt>", "`"},        {"</tt>", "`"},
       {"<code>", "`"},   {"</code>", "`"},   {"<br>", " "},      {"<br/>", " "},       {"<br />", " "},
       {"<p>", "\n\n"},   {"</p>", "\n\n"},   {"<ul>", "\n\n"},   {"</ul>", "\n\n"},    {"<ol>", "\n\n"},
       {"</ol>", "\n\n"}, {"<li>", "\n\n- "}, {"</li>", ""},      {"<pre>", "\n```\n"}, {"</pre>", "\n```\n"},
       {"<hr>", "\n\n"}}};
  std::string lowered;
  for (char c : tag) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [html, markdown] : kTags)
    if (html == lowered) return markdown;
  return {};
}

// The word after an inline command (`@c name`), and where it ends.
std::string_view wordAt(std::string_view text, std::size_t at, std::size_t& end) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  end = at;
  // Doxygen's word: up to a space, with a trailing '.', ',' or ')' left as prose.
  while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n') ++end;
  while (end > at && std::string_view(".,;:)").find(text[end - 1]) != std::string_view::npos) --end;
  return text.substr(at, end - at);
}

// Inline commands, escapes and HTML tags of a run of prose as Markdown; code spans as written.
std::string inlineMarkdown(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '`') {  // a code span is copied as is
      std::size_t ticks = 0;
      while (i + ticks < text.size() && text[i + ticks] == '`') ++ticks;
      auto close = text.find(std::string(ticks, '`'), i + ticks);
      std::size_t end = close == std::string_view::npos ? i + ticks : close + ticks;
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '<') {
      auto close = text.find('>', i);
      if (close != std::string_view::npos && close - i <= 8) {
        std::string_view markdown = htmlAsMarkdown(text.substr(i, close + 1 - i));
        if (!markdown.empty() || text.substr(i, close + 1 - i) == "</li>") {
          out.append(markdown);
          i = close + 1;
          continue;
        }
      }
      out += c;
      ++i;
      continue;
    }
    if ((c == '\\' || c == '@') && i + 1 < text.size()) {
      char next = text[i + 1];
      if (c == '\\' && next == 'f' && i + 2 < text.size() &&
          std::string_view("$([{").find(text[i + 2]) != std::string_view::npos) {
        // \f$ x \f$ (and \f( \f), \f[ \f]): a formula, shown as code.
        char open = text[i + 2];
        char closer = open == '$' ? '$' : open == '(' ? ')' : open == '[' ? ']' : '}';
        auto end = text.find(std::string("\\f") + closer, i + 3);
        if (end != std::string_view::npos) {
          out += '`';
          out.append(trimmed(text.substr(i + 3, end - i - 3)));
          out += '`';
          i = end + 3;
          continue;
        }
      }
      if (!isWordChar(next) && next != ' ' && next != '\t' && next != '\n' && next != '{' && next != '}') {
        out += next;  // \@ \\ \& \< \> \# \% \" \. \$ \|: the character itself
        i += 2;
        if (next == ':' && i < text.size() && text[i] == ':') out += text[i++];
        continue;
      }
      std::size_t nameEnd = i + 1;
      while (nameEnd < text.size() && std::isalpha(static_cast<unsigned char>(text[nameEnd]))) ++nameEnd;
      std::string_view name = text.substr(i + 1, nameEnd - i - 1);
      std::size_t end = nameEnd;
      if (name == "c" || name == "p" || name == "a" || name == "e" || name == "em" || name == "b") {
        std::string_view word = wordAt(text, nameEnd, end);
        if (!word.empty()) {
          std::string_view mark = name == "c" || name == "p" ? "`" : name == "b" ? "**" : "*";
          out.append(mark);
          out.append(word);
          out.append(mark);
          i = end;
          continue;
        }
      } else if (name == "ref" || name == "refitem" || name == "subpage") {
        std::string_view target = wordAt(text, nameEnd, end);
        std::size_t after = end;
        while (after < text.size() && text[after] == ' ') ++after;
        if (after < text.size() && text[after] == '"') {  // \ref name "text"
          auto close = text.find('"', after + 1);
          if (close != std::string_view::npos) {
            out.append(text.substr(after + 1, close - after - 1));
            i = close + 1;
            continue;
          }
        }
        if (!target.empty()) {
          out += '`';
          out.append(target);
          out += '`';
        }
        i = end;
        continue;
      } else if (name == "link") {  // \link target text \endlink
        std::string_view target = wordAt(text, nameEnd, end);
        auto close = text.find("endlink", end);
        if (close != std::string_view::npos && close > end) {
          std::string_view label = trimmed(text.substr(end, close - 1 - end));
          out += inlineMarkdown(label.empty() ? target : label);
          i = close + 7;
          continue;
        }
      } else if (name == "n") {
        out += ' ';
        i = nameEnd;
        continue;
      } else if (name == "emoji") {
        wordAt(text, nameEnd, end);
        i = end;
        continue;
      } else if (name == "copydoc" || name == "copybrief" || name == "copydetails") {
        std::string_view target = wordAt(text, nameEnd, end);
        out += "See `" + std::string(target) + "`.";
        i = end;
        continue;
      } else if (name == "endlink") {
        i = nameEnd;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

enum class Target { Body, Brief, Parameter, Return, Raise, Note };

class DoxygenReader {
 public:
  explicit DoxygenReader(std::string_view codeLanguage) : codeLanguage_(codeLanguage) {}

  void line(std::string_view raw) {
    std::string_view text = trimmed(raw);
    if (!skipUntil_.empty()) {  // an @internal or format-only block
      if (isCommand(text, skipUntil_)) skipUntil_ = {};
      return;
    }
    if (!codeEnd_.empty()) {
      if (isCommand(text, codeEnd_) || (codeEnd_ == "```" && (text.starts_with("```") || text.starts_with("~~~")))) {
        body_ += "```\n";
        codeEnd_ = {};
      } else {
        body_.append(raw);
        body_ += '\n';
      }
      return;
    }
    if (text.starts_with("```") || text.starts_with("~~~")) {  // a Markdown fence
      endParagraph();
      body_ += "```" + std::string(trimmed(text.substr(3))) + "\n";
      codeEnd_ = "```";
      return;
    }
    if (text.empty()) {
      endParagraph();
      return;
    }
    if ((text.front() == '@' || text.front() == '\\') && text.size() > 1 && isWordChar(text[1]) && command(text))
      return;
    if (text.front() == '@' && (text == "@{" || text == "@}")) return;
    if (text.front() == '\\' && (text == "\\{" || text == "\\}")) return;
    append(raw);
  }

  doc_text::RenderedDoc finish() {
    endParagraph();
    if (!codeEnd_.empty()) body_ += "```\n";
    doc_text::RenderedDoc out;
    Sections sections;
    std::string brief(trimmed(inlineMarkdown(brief_)));
    std::string body = renderBody(body_);
    sections.body = brief.empty() ? body : body.empty() ? brief : brief + "\n\n" + body;
    sections.parameters = std::move(parameters_);
    sections.returns = std::move(returns_);
    sections.raises = std::move(raises_);
    for (auto& field : sections.parameters) field.description = inlineMarkdown(trimmed(field.description));
    for (auto& field : sections.returns) field.description = inlineMarkdown(trimmed(field.description));
    for (auto& field : sections.raises) field.description = inlineMarkdown(trimmed(field.description));
    for (auto& [label, note] : notes_) sections.notes.emplace_back(label, inlineMarkdown(trimmed(note)));
    out.markdown = doc_text::toMarkdown(sections);
    while (!out.markdown.empty() && (out.markdown.back() == '\n' || out.markdown.back() == ' '))
      out.markdown.pop_back();
    out.summary = brief.empty() ? doc_text::firstSentence(body) : doc_text::firstSentence(brief);
    return out;
  }

 private:
  static bool isCommand(std::string_view text, std::string_view name) {
    return (text.starts_with("@") || text.starts_with("\\")) && text.substr(1).starts_with(name) &&
           (text.size() == name.size() + 1 || !isWordChar(text[name.size() + 1]));
  }

  // Prose outside code blocks becomes Markdown a line at a time; code blocks stay as written.
  static std::string renderBody(const std::string& body) {
    std::string out;
    bool inCode = false;
    for (auto line : splitLines(body)) {
      std::string_view text = trimmed(line);
      if (text.starts_with("```")) inCode = !inCode;
      out += inCode || text.starts_with("```") ? std::string(line) : inlineMarkdown(line);
      out += '\n';
    }
    std::string_view kept = trimmed(out);
    while (!kept.empty() && kept.back() == '\n') kept.remove_suffix(1);
    while (!kept.empty() && kept.front() == '\n') kept.remove_prefix(1);
    return std::string(kept);
  }

  void endParagraph() {
    target_ = Target::Body;  // a blank line ends a command's paragraph
    if (!body_.empty() && !body_.ends_with("\n\n")) body_ += '\n';
  }

  void append(std::string_view raw) {
    std::string_view text = trimmed(raw);
    switch (target_) {
      case Target::Body:
        body_.append(raw);
        body_ += '\n';
        return;
      case Target::Brief: brief_ += (brief_.empty() ? "" : " ") + std::string(text); return;
      case Target::Parameter: parameters_.back().description += " " + std::string(text); return;
      case Target::Return: returns_.back().description += " " + std::string(text); return;
      case Target::Raise: raises_.back().description += " " + std::string(text); return;
      case Target::Note: notes_.back().second += " " + std::string(text); return;
    }
  }

  // A block command at the start of a line; false when `text` starts with no such command
  // (an inline one, read with the prose).
  bool command(std::string_view text) {
    std::size_t nameEnd = 1;
    while (nameEnd < text.size() && std::isalpha(static_cast<unsigned char>(text[nameEnd]))) ++nameEnd;
    std::string_view name = text.substr(1, nameEnd - 1);
    std::string_view rest = text.substr(nameEnd);
    if (name == "code" || name == "verbatim") {
      endParagraph();
      std::string language = name == "code" ? std::string(codeLanguage_) : "text";
      if (rest.starts_with("{")) {  // @code{.py}
        auto close = rest.find('}');
        if (close != std::string_view::npos) {
          std::string_view given = trimmed(rest.substr(1, close - 1));
          if (given.starts_with(".")) given.remove_prefix(1);
          if (!given.empty()) language = std::string(given);
          rest = rest.substr(close + 1);
        }
      }
      body_ += "```" + language + "\n";
      codeEnd_ = name == "code" ? "endcode" : "endverbatim";
      if (!trimmed(rest).empty()) body_ += std::string(trimmed(rest)) + "\n";
      return true;
    }
    if (auto end = skippedBlockEnd(name); !end.empty()) {
      skipUntil_ = end;
      return true;
    }
    if (structuralCommand(name)) return true;
    rest = trimmed(rest);
    if (name == "brief" || name == "short") {
      target_ = Target::Brief;
      brief_ += (brief_.empty() ? "" : " ") + std::string(rest);
      return true;
    }
    if (name == "details") {
      endParagraph();
      if (!rest.empty()) append(rest);
      return true;
    }
    if (name == "param" || name == "tparam") {
      std::string_view direction;
      if (rest.starts_with("[")) {  // @param[in,out]
        auto close = rest.find(']');
        if (close != std::string_view::npos) {
          direction = rest.substr(1, close - 1);
          rest = trimmed(rest.substr(close + 1));
        }
      }
      auto space = rest.find_first_of(" \t");
      Field field;
      field.name = std::string(rest.substr(0, space));
      if (name == "tparam") field.name = "<" + field.name + ">";
      if (!direction.empty()) field.type = "[" + std::string(direction) + "]";
      if (space != std::string_view::npos) field.description = std::string(trimmed(rest.substr(space)));
      parameters_.push_back(std::move(field));
      target_ = Target::Parameter;
      return true;
    }
    if (name == "return" || name == "returns" || name == "result" || name == "retval") {
      Field field;
      if (name == "retval") {  // @retval VALUE what it means
        auto space = rest.find_first_of(" \t");
        field.name = std::string(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view() : trimmed(rest.substr(space));
      }
      field.description = std::string(rest);
      returns_.push_back(std::move(field));
      target_ = Target::Return;
      return true;
    }
    if (name == "throw" || name == "throws" || name == "exception") {
      auto space = rest.find_first_of(" \t");
      Field field;
      field.type = std::string(rest.substr(0, space));
      if (space != std::string_view::npos) field.description = std::string(trimmed(rest.substr(space)));
      raises_.push_back(std::move(field));
      target_ = Target::Raise;
      return true;
    }
    if (name == "par") {  // @par Title: then a paragraph
      endParagraph();
      if (!rest.empty()) body_ += "**" + std::string(rest) + "**\n\n";
      return true;
    }
    if (name == "li" || name == "arg") {
      body_ += "- " + std::string(rest) + "\n";
      target_ = Target::Body;
      return true;
    }
    if (name == "section" || name == "subsection" || name == "subsubsection" || name == "paragraph") {
      endParagraph();
      auto space = rest.find_first_of(" \t");  // the label, then the title
      std::string_view title = space == std::string_view::npos ? rest : trimmed(rest.substr(space));
      std::string marks = name == "section" ? "#" : name == "subsection" ? "##" : "###";
      if (!title.empty()) body_ += marks + " " + std::string(title) + "\n\n";
      return true;
    }
    if (name == "endparblock") return true;
    if (auto label = noteLabel(name); !label.empty()) {
      notes_.emplace_back(std::string(label), std::string(rest));
      target_ = Target::Note;
      return true;
    }
    return false;
  }

  std::string_view codeLanguage_;
  std::string body_, brief_;
  std::vector<Field> parameters_, returns_, raises_;
  std::vector<std::pair<std::string, std::string>> notes_;
  Target target_ = Target::Body;
  std::string_view codeEnd_, skipUntil_;
};

}  // namespace

std::string doxygenCommentText(std::string_view comments) {
  std::string out;
  // Comments come one after another; each `/*` starts a block, other lines are `//` lines.
  std::size_t at = 0;
  while (at < comments.size()) {
    auto start = comments.find_first_not_of(" \t\r\n", at);
    if (start == std::string_view::npos) break;
    if (comments.substr(start).starts_with("/*")) {
      auto end = comments.find("*/", start + 2);
      end = end == std::string_view::npos ? comments.size() : end + 2;
      stripMarkers(comments.substr(start, end - start), out);
      at = end;
    } else {
      auto end = comments.find('\n', start);
      if (end == std::string_view::npos) end = comments.size();
      stripMarkers(comments.substr(start, end - start), out);
      at = end + 1;
    }
  }
  return doc_text::cleanIndentation(out);
}

doc_text::RenderedDoc renderDoxygen(std::string_view text, std::string_view codeLanguage) {
  DoxygenReader reader(codeLanguage);
  for (auto line : splitLines(text)) reader.line(line);
  return reader.finish();
}

}  // namespace docs_generation
