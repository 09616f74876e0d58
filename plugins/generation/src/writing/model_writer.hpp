#pragma once
// The model writer: a file page's opening written by an OpenAI-compatible model from the
// file's analysis and its line-numbered source (handed over as quoted JSON data, never as
// instructions), checked before it is used: every cited line range must exist in that
// file, every identifier in backticks must be a symbol or file of the analysis, and a
// diagram must pass the mermaid subset check (else it is shown as code with a note).
// Anything that fails leaves the offline writer's page as it is.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include <docs/support/chat_model.hpp>

#include "analysis/analysis.hpp"
#include "planning/planner.hpp"
#include "writing/offline_writer.hpp"

namespace docs_generation {

struct ModelText {
  std::vector<std::string> paragraphs;  // with [path#La-Lb] citations
  std::string diagram;                  // mermaid source, may be ""
};

struct ModelCheck {
  bool ok = false;
  std::string problem;    // why the text was refused
  bool diagramOk = true;  // false: the diagram is shown as code with a note
};

// Parses the model's answer: a JSON object {"paragraphs": [...], "diagram": "..."},
// possibly inside a ```json fence. nullopt when it is not that.
std::optional<ModelText> parseModelText(const std::string& answer);

// Checks citations, identifiers and the diagram against the analysis.
ModelCheck checkModelText(const ModelText& text, const Analysis& analysis, const std::string& path);

// Whole lines of a file, line-numbered ("12: text"), sent in one request.
struct SourcePart {
  int first = 1;
  int last = 0;
  std::string numbered;
};

// Splits a source into parts of whole lines, each at most `maxChars` line-numbered
// characters (a longer single line is cut), and at most `maxParts` parts: a file too long
// for them is sent up to where they end.
std::vector<SourcePart> splitSource(const std::string& source, std::size_t maxChars, std::size_t maxParts = 16);

// Where a file stands in the plan the offline writer follows too: its role, its topic,
// the concepts it defines or uses and the guides that describe its topic. The model is
// given it so its opening ties the file to the same skeleton.
struct FilePlace {
  std::string role;
  std::string topic;
  std::vector<std::string> defines;  // concepts defined in the file
  std::vector<std::string> uses;     // concepts it uses
  std::vector<std::string> guides;   // titles of guides on its topic
};
FilePlace placeOf(const FileAnalysis& file, const Plan& plan);

// Whether the model writes this file's opening: the library's code and its examples;
// tests, tooling and generated code keep the offline page (their cases and purposes).
bool modelWritesOpening(const FileAnalysis& file);

// The prompt for one part of a file page (`partCount` 1: the whole file).
// `maxSymbolChars` bounds the symbols listed (those overlapping the part come first).
std::vector<docs::support::ChatMessage> filePagePrompt(const FileAnalysis& file, const SourcePart& part,
                                                       std::size_t partIndex, std::size_t partCount,
                                                       const std::string& language, std::size_t maxSymbolChars = 8000,
                                                       const FilePlace& place = {});

struct ModelWriteResult {
  bool used = false;
  std::string problem;  // when not used: the model's failure or the check's refusal
};

// Asks the model for the page of `file` and, when the answer passes the checks, puts it
// at the top of `page` (after its title). A source longer than one request's budget
// (model.maxInputTokens) is sent in parts, one request each, and the answers are joined;
// the page is used only when every part's answer passes.
// With `plan`, the prompt carries the file's place in it (placeOf).
ModelWriteResult writeFileOpeningWithModel(PageDraft& page, const FileAnalysis& file, const Analysis& analysis,
                                           const WriterContext& context, const docs::support::ModelSettings& model,
                                           const Plan* plan = nullptr);

}  // namespace docs_generation
