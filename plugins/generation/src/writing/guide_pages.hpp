#pragma once
// Pages from the repository's own prose: each guide converted from its Markdown, the
// Guides index, "Getting started" from the README's first steps, and the README's
// opening for the overview. Links between guides become page links, links to code
// become file pages (or the file at its commit), anything unresolvable becomes text.

#include <string>

#include <docs/ydoc/any.hpp>

#include "analysis/analysis.hpp"
#include "planning/planner.hpp"
#include "writing/offline_writer.hpp"

namespace docs_generation {

void writeGuidesIndex(PageDraft& page, const Plan& plan, const WriterContext& ctx);
void writeGuide(PageDraft& page, const Guide& guide, const Analysis& analysis, const Plan& plan,
                const WriterContext& ctx);
void writeGettingStarted(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& ctx);

// The README's opening (what the project is), as blocks; empty when it has no Markdown
// README or says nothing before its first section.
docs::ydoc::Json readmeOpeningBlocks(const Analysis& analysis, const Plan& plan, const WriterContext& ctx);

// The guides that name a topic's (or its subtopics') symbols, as a bullet list ("" when none).
docs::ydoc::Json guidesOfTopic(const Topic& topic, const Plan& plan, const WriterContext& ctx, std::size_t max = 8);

// A link target in a document at `fromPath`, resolved against the tree: another guide's
// page, the overview for the README, a file page, the file at its commit; "" when none.
std::string resolveDocumentLink(const std::string& fromPath, const std::string& href, const Analysis& analysis,
                                const Plan& plan, const WriterContext& ctx);

}  // namespace docs_generation
