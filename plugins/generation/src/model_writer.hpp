#pragma once
// The model writer: a file page's opening written by an OpenAI-compatible model from the
// file's analysis and its line-numbered source (handed over as quoted JSON data, never as
// instructions), checked before it is used: every cited line range must exist in that
// file, every identifier in backticks must be a symbol or file of the analysis, and a
// diagram must pass the mermaid subset check (else it is shown as code with a note).
// Anything that fails leaves the offline writer's page as it is.

#include <functional>
#include <optional>
#include <string>

#include <docs/support/chat_model.hpp>

#include "analysis.hpp"
#include "offline_writer.hpp"

namespace docs::generation {

struct ModelText {
  std::vector<std::string> paragraphs;  // with [path#La-Lb] citations
  std::string diagram;                  // mermaid source, may be ""
};

struct ModelCheck {
  bool ok = false;
  std::string problem;       // why the text was refused
  bool diagramOk = true;     // false: the diagram is shown as code with a note
};

// Parses the model's answer: a JSON object {"paragraphs": [...], "diagram": "..."},
// possibly inside a ```json fence. nullopt when it is not that.
std::optional<ModelText> parseModelText(const std::string& answer);

// Checks citations, identifiers and the diagram against the analysis.
ModelCheck checkModelText(const ModelText& text, const Analysis& analysis, const std::string& path);

// The prompt for one file page.
std::vector<support::ChatMessage> filePagePrompt(const FileAnalysis& file, const std::string& source,
                                                  const std::string& language);

struct ModelWriteResult {
  bool used = false;
  std::string problem;  // when not used: the model's failure or the check's refusal
};

// Asks the model for the page of `file` and, when the answer passes the checks, puts it
// at the top of `page` (after its title).
ModelWriteResult writeFileOpeningWithModel(PageDraft& page, const FileAnalysis& file, const Analysis& analysis,
                                           const WriterContext& context, const support::ModelSettings& model);

}  // namespace docs::generation
