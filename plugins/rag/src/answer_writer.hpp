#pragma once
// Turning ranked items into a Markdown answer: with a model, a prompt that hands the
// items over as quoted data and a check of the citations that come back; without one,
// an extractive answer built from the best passages that says so.

#include <string>
#include <vector>

#include <docs/support/chat_model.hpp>

namespace docs_rag {

// One item as the answer cites it ([n], 1-based).
struct AnswerSource {
  std::string label;     // "src/http/server.cpp lines 10-42" or "Page › Heading"
  std::string link;      // web address of the lines or the page's address; may be ""
  std::string language;  // code fence language; "" for docs
  std::string text;
  std::string doc;  // a documented definition's doc comment, shown before its code
};

inline constexpr const char* kNoModelNotice =
    "No language model is configured on this server, so this answer quotes the passages that match your question "
    "best instead of writing one.";

// `notice` opens the answer as a quote: why it quotes instead of answering.
std::string extractiveAnswer(const std::string& question, const std::vector<AnswerSource>& sources,
                             const std::string& notice = kNoModelNotice);

// The fixed instructions and the question with the sources as one JSON document. The
// repository's text never sits where instructions are.
std::vector<docs::support::ChatMessage> answerPrompt(const std::string& question,
                                                     const std::vector<AnswerSource>& sources);

struct CheckedAnswer {
  std::string markdown;
  std::vector<int> cited;    // valid citations, in order of first use
  std::vector<int> invalid;  // [n] that name no source (removed from the text)
};

// Removes citations to sources that do not exist, and appends the list of sources used.
CheckedAnswer checkCitations(const std::string& answer, const std::vector<AnswerSource>& sources);

}  // namespace docs_rag
