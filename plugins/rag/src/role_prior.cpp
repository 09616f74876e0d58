#include "role_prior.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace docs_rag {

namespace {

std::vector<std::string> lowerWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80 || c == '\'') word += static_cast<char>(std::tolower(u));
    else if (!word.empty()) words.push_back(std::move(word)), word.clear();
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

template <std::size_t N>
bool among(const std::string& word, const std::array<std::string_view, N>& set) {
  for (auto candidate : set)
    if (word == candidate) return true;
  return false;
}

// Words that open a question in English. Auxiliaries ("do", "is", "can") also open
// identifier words (`_do_read_copied`) and imperative doc sentences ("Do the inverse of
// ..."), so a question mark is what makes them questions.
constexpr std::array<std::string_view, 9> kQuestionWords = {"how",   "what",  "what's", "why",    "when",
                                                            "where", "which", "who",    "explain"};
constexpr std::array<std::string_view, 14> kTestWords = {"test",    "tests",    "testing",   "tested",     "unittest",
                                                         "spec",    "specs",    "benchmark", "benchmarks", "bench",
                                                         "fixture", "fixtures", "e2e",       "testdata"};
constexpr std::array<std::string_view, 6> kExampleWords = {"example", "examples", "demo", "demos", "sample", "samples"};
constexpr std::array<std::string_view, 17> kChangeWords = {
    "change",  "changes",   "changed", "changelog", "release",   "releases", "released",   "version", "versions",
    "upgrade", "upgrading", "migrate", "migrating", "migration", "breaking", "deprecated", "new"};
// Names of the files that log a project's history rather than teach its use.
constexpr std::array<std::string_view, 8> kChangeLogNames = {"changelog", "changes",       "history",       "news",
                                                             "releases",  "release notes", "release-notes", "whatsnew"};

// Factors; a demoted role stays findable, it only yields to the others.
constexpr double kAskedFor = 1.5;       // a test when the question is about tests (an example likewise)
constexpr double kNotAskedFor = 0.4;    // ... when it is not
constexpr double kGenerated = 0.5;      // generated or vendored code
constexpr double kGuide = 1.6;          // a guide section, for a question in words
constexpr double kDocumentedApi = 1.3;  // a documented public definition, for a question in words
constexpr double kAroundTheCode = 0.7;  // build and tooling files, for a question in words
constexpr double kChangeLog = 0.3;      // a changelog's section, for a question in words not about changes

}  // namespace

QueryIntent intentOf(std::string_view query) {
  QueryIntent intent;
  auto words = lowerWords(query);
  for (const auto& word : words) {
    intent.aboutTests =
        intent.aboutTests || among(word, kTestWords) || word.starts_with("test_") || word.ends_with("_test");
    intent.aboutExamples = intent.aboutExamples || among(word, kExampleWords);
    intent.aboutChanges = intent.aboutChanges || among(word, kChangeWords);
  }
  std::size_t end = query.find_last_not_of(" \t\r\n");
  bool questionMark = end != std::string_view::npos && query[end] == '?';
  bool opensAsQuestion = !words.empty() && among(words[0], kQuestionWords);
  bool howTo = false;
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    howTo = howTo || (words[i] == "how" && (words[i + 1] == "to" || words[i + 1] == "do"));
  // Three words at least: "how" alone, or "is empty", is not a question in words.
  intent.natural = words.size() >= 3 && (opensAsQuestion || questionMark || howTo);
  return intent;
}

bool isPublicName(std::string_view name, std::string_view language) {
  if (name.empty()) return false;
  if (name[0] == '_' || name[0] == '#') return false;
  if (language == "go" || language == "Go") return std::isupper(static_cast<unsigned char>(name[0])) != 0;
  return true;
}

bool isChangeLog(std::string_view title, std::string_view path) {
  std::string name(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  name = name.substr(0, name.find('.'));
  for (auto log : kChangeLogNames)
    if (!name.empty() && name == log) return true;
  // The title: the page's name, then its headings (`Changes › 2.0.0`).
  std::string first(title.substr(0, title.find("\u203a")));
  for (auto& c : first) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!first.empty() && first.back() == ' ') first.pop_back();
  for (auto log : kChangeLogNames)
    if (first == log || first == std::string(log) + ".md" || first == "change log") return true;
  // A version heading (`v7.18.5`, `2.0.0 (2024-01-02)`, `[1.2.0] - 2024`) as the section.
  std::string_view last = title.substr(title.rfind("\u203a") == std::string_view::npos ? 0 : title.rfind("\u203a") + 3);
  while (!last.empty() && (last.front() == ' ' || last.front() == '[' || last.front() == 'v' || last.front() == 'V'))
    last.remove_prefix(1);
  std::size_t digits = 0, dots = 0;
  for (char c : last.substr(0, last.find_first_of(" ]("))) {
    if (std::isdigit(static_cast<unsigned char>(c))) ++digits;
    else if (c == '.') ++dots;
    else return false;
  }
  return digits > 0 && dots >= 1 && title.find("\u203a") != std::string_view::npos;
}

double rolePrior(const QueryIntent& intent, std::string_view kind, std::string_view role, bool api, bool changeLog) {
  if (intent.natural && changeLog && !intent.aboutChanges) return kChangeLog;
  if (role == "test" && intent.aboutTests) return kAskedFor;
  if (role == "example" && intent.aboutExamples) return kAskedFor;
  // Identifier words and code-like text name what they look for, in a test or vendored
  // code as much as in the library: the text decides (demoting those there cost
  // rag-quality.md's symbol sets up to 0.04 MRR).
  if (!intent.natural) return 1.0;
  if (role == "test" || role == "example") return kNotAskedFor;
  if (role == "generated") return kGenerated;
  if (role == "guide" && kind == "docs") return kGuide;
  if (role == "library" && api) return kDocumentedApi;
  if (role == "build" || role == "tooling") return kAroundTheCode;
  return 1.0;
}

}  // namespace docs_rag
