#pragma once
// Markdown written for documentation sites, rewritten as the CommonMark the page converter
// reads: MyST (Sphinx's Markdown: ```{note} and :::{note} directives, {func}`name` roles,
// (label)= targets, {eval-rst} blocks, tab sets) and mkdocstrings (`::: package.name`).
// Admonitions become GitHub alerts, code directives fenced code, roles code or text;
// targets, toctrees and options are left out. Autodoc directives ({autofunction},
// {autoclass}, .. autofunction::, ::: name) become an API marker line that the guide
// writer replaces with the generated entry of that symbol (apiMarker). Line by line,
// directives nested at most a few deep, linear in the input.

#include <optional>
#include <string>
#include <string_view>

namespace docs_generation {

std::string mystToMarkdown(std::string_view markdown);

// The line that stands for "the generated entry of `name` goes here".
std::string apiMarker(std::string_view name);
// The name of an API marker line, or nullopt when `line` is none.
std::optional<std::string> apiMarkerName(std::string_view line);

}  // namespace docs_generation
