#pragma once
// The repository's own documentation as pages: the Markdown under docs/, doc/,
// documentation/ and website/, sub-folder READMEs and CONTRIBUTING, in the order the
// site's navigation gives (mkdocs.yml `nav:`), else introduction, installation and
// quick start first. Each guide knows the library topics whose exported names it uses,
// so topic pages can point to it. The root README feeds the overview and the "Getting
// started" page instead.

#include <map>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace docs_generation {

struct Guide {
  std::string path;                  // "docs/quickstart.md"
  std::string key;                   // "guide:docs/quickstart.md"
  std::string parentKey = "guides";  // its folder's index guide (docs/start/index.md), else the Guides page
  std::string title;                 // its front matter's or first heading's, else from its name
  std::vector<std::string> topics;   // library topic keys it names symbols of, most named first
};

inline constexpr std::size_t kMaxGuidePages = 300;

// Whether a documentation file becomes a guide page: Markdown or reStructuredText under a
// documentation folder (docs/, doc/, website/, book/, guide/, manual/, ...), a folder's
// README, or any document at the root but the README (planned first, whole) and the
// licence; nothing of tests, examples or tooling (.github/). A document a site's
// navigation names (SUMMARY.md, sidebars) is a guide wherever it is.
bool isGuideFile(const FileAnalysis& file);

// The guides in reading order (parents before their children), titled from their text
// under `sourceRoot` ("": from names). A folder's index.md or README.md holds the
// folder's other guides; siblings go by the site's navigation (mkdocs.yml), then their
// front matter's order (order, sidebar_position, nav_order, weight), then first steps
// first and paperwork last.
std::vector<Guide> planGuides(const Analysis& analysis, const std::string& sourceRoot);

// Fills each guide's topics: the library topics (by `topicOfFile`, file -> topic key)
// whose exported symbols the guide names, at least two names or one in code.
void linkGuidesToTopics(std::vector<Guide>& guides, const Analysis& analysis,
                        const std::map<std::string, std::string>& topicOfFile, const std::string& sourceRoot);

// A document's text under `root`, at most `max` bytes ("" when root is "" or it is unreadable).
std::string readDocumentText(const std::string& root, const std::string& path, std::size_t max = 1 << 20);

// The root README ("" when there is none).
std::string rootReadme(const Analysis& analysis);

// Headings of the README's sections a newcomer starts with (installation, quick start,
// usage, examples), in README order. Empty when it has none.
std::vector<std::string> gettingStartedSections(const std::string& readmeMarkdown);

// Whether a section title names a first step (install, quick start, usage, ...).
bool isGettingStartedTitle(const std::string& title);

}  // namespace docs_generation
