#include "analysis/doc_dialects/jsdoc.hpp"

#include <cctype>
#include <vector>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

namespace {

using doc_text::Field;

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// The comment's lines without `/**`, `*/` and each line's leading `*` (when it has one).
std::string commentBody(std::string_view comment) {
  if (comment.starts_with("/**")) comment.remove_prefix(3);
  else if (comment.starts_with("/*")) comment.remove_prefix(2);
  if (comment.ends_with("*/")) comment.remove_suffix(2);
  std::string out;
  std::size_t at = 0;
  while (at <= comment.size()) {
    auto end = comment.find('\n', at);
    if (end == std::string_view::npos) end = comment.size();
    std::string_view line = comment.substr(at, end - at);
    auto first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] == '*') {
      line.remove_prefix(first + 1);
      if (line.starts_with(' ')) line.remove_prefix(1);
    }
    out += line;
    out += '\n';
    at = end + 1;
  }
  return doc_text::cleanIndentation("\n" + out);
}

// {@link Target}, {@link Target|text}, {@link Target text}, {@linkcode ...}: their text.
std::string inlineTags(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "{@") != 0) {
      out += text[i++];
      continue;
    }
    auto close = text.find('}', i);
    if (close == std::string::npos) {
      out += text.substr(i);
      break;
    }
    std::string inner = text.substr(i + 2, close - i - 2);
    auto space = inner.find_first_of(" \t\n");
    std::string tag = inner.substr(0, space);
    std::string rest = space == std::string::npos ? "" : trim(inner.substr(space));
    if (tag == "link" || tag == "linkcode" || tag == "linkplain") {
      std::string target = rest, label;
      auto bar = rest.find('|');
      auto gap = rest.find_first_of(" \t\n");
      if (bar != std::string::npos) {
        target = trim(rest.substr(0, bar));
        label = trim(rest.substr(bar + 1));
      } else if (gap != std::string::npos) {
        target = rest.substr(0, gap);
        label = trim(rest.substr(gap));
      }
      bool url = target.starts_with("http://") || target.starts_with("https://");
      if (url) out += "[" + (label.empty() ? target : label) + "](" + target + ")";
      else if (!label.empty()) out += tag == "linkcode" ? "`" + label + "`" : label;
      else out += "`" + target + "`";
    } else if (tag == "inheritDoc" || tag == "inheritdoc") {
      // Nothing to show here: the parent's doc is elsewhere.
    } else {
      out += rest.empty() ? "" : "`" + rest + "`";
    }
    i = close + 1;
  }
  return out;
}

struct Tag {
  std::string name;
  std::string text;
};

}  // namespace

JsDoc jsdocMarkdown(std::string_view comment, std::string_view codeLanguage) {
  JsDoc out;
  std::string body = commentBody(comment);
  // The description runs to the first block tag at a line's start (outside code fences).
  std::string description;
  std::vector<Tag> tags;
  bool inFence = false;
  std::size_t at = 0;
  while (at <= body.size()) {
    auto end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(at, end - at);
    at = end + 1;
    std::string t = trim(line);
    if (t.starts_with("```")) inFence = !inFence;
    bool tagLine = !inFence && t.size() > 1 && t[0] == '@' && std::isalpha(static_cast<unsigned char>(t[1]));
    if (tagLine) {
      auto space = t.find_first_of(" \t");
      tags.push_back({t.substr(1, space == std::string::npos ? std::string::npos : space - 1),
                      space == std::string::npos ? "" : t.substr(space + 1)});
      continue;
    }
    std::string& target = tags.empty() ? description : tags.back().text;
    target += (target.empty() && tags.empty() ? "" : "\n") + line;
  }
  doc_text::Sections s;
  s.body = inlineTags(trim(description));
  for (auto& tag : tags) {
    const std::string& n = tag.name;
    std::string text = tag.name == "example" ? tag.text : trim(tag.text);
    // "{type} rest": the type, for @param, @returns and @throws.
    std::string type;
    if (text.starts_with('{') && n != "example") {
      int depth = 0;
      std::size_t k = 0;
      for (; k < text.size(); ++k) {
        if (text[k] == '{') ++depth;
        if (text[k] == '}' && --depth == 0) break;
      }
      if (k < text.size()) {
        type = trim(text.substr(1, k - 1));
        text = trim(text.substr(k + 1));
      }
    }
    if (n == "param" || n == "arg" || n == "argument" || n == "typeParam" || n == "template" || n == "property" ||
        n == "prop") {
      Field f;
      f.type = type;
      auto space = text.find_first_of(" \t\n");
      std::string name = text.substr(0, space);
      std::string rest = space == std::string::npos ? "" : trim(text.substr(space));
      if (name.starts_with('[') && name.find(']') != std::string::npos) {  // [name=default]: optional
        std::string inner = name.substr(1, name.find(']') - 1);
        auto eq = inner.find('=');
        f.defaultValue = eq == std::string::npos ? "" : inner.substr(eq + 1);
        name = inner.substr(0, eq);
        if (f.defaultValue.empty()) f.type = f.type.empty() ? "optional" : f.type + ", optional";
      }
      if (rest.starts_with("- ")) rest = rest.substr(2);
      f.name = (n == "typeParam" || n == "template" ? "<" + name + ">" : name);
      f.description = inlineTags(rest);
      s.parameters.push_back(std::move(f));
    } else if (n == "returns" || n == "return") {
      s.returns.push_back({"", type, inlineTags(text), ""});
    } else if (n == "throws" || n == "throw" || n == "exception") {
      s.raises.push_back({"", type, inlineTags(text), ""});
    } else if (n == "example") {
      std::string code = doc_text::cleanIndentation("\n" + tag.text);
      std::string example =
          code.find("```") != std::string::npos ? code : "```" + std::string(codeLanguage) + "\n" + code + "\n```";
      s.body += (s.body.empty() ? "" : "\n\n") + std::string("**Example**\n\n") + example;
    } else if (n == "remarks") {
      s.body += (s.body.empty() ? "" : "\n\n") + inlineTags(text);
    } else if (n == "deprecated") {
      s.notes.emplace_back("Deprecated", text.empty() ? "yes" : inlineTags(text));
    } else if (n == "since") {
      s.notes.emplace_back("Since", inlineTags(text));
    } else if (n == "see") {
      s.notes.emplace_back("See also", inlineTags(text));
    } else if (n == "defaultValue" || n == "default") {
      s.notes.emplace_back("Default", "`" + text + "`");
    } else if (n == "internal" || n == "private" || n == "hidden" || n == "ignore") {
      out.isPrivate = true;
    } else if (n == "packageDocumentation" || n == "module" || n == "file" || n == "fileoverview" || n == "overview") {
      out.moduleDoc = true;
      if (!text.empty() && n != "module") s.body += (s.body.empty() ? "" : "\n\n") + inlineTags(text);
    }
    // Other tags (@public, @category, @type, @typedef, @author, ...) are not shown.
  }
  out.markdown = doc_text::toMarkdown(s);
  while (!out.markdown.empty() && (out.markdown.back() == '\n' || out.markdown.back() == ' ')) out.markdown.pop_back();
  return out;
}

}  // namespace docs_generation
