#include "writing/offline_writer.hpp"

#include "analysis/file_roles.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analysis/inventory.hpp"
#include "writing/guide_pages.hpp"
#include "writing/markdown_blocks.hpp"
#include "writing/page_nodes.hpp"

namespace docs_generation {

using docs::ydoc::Json;
namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::map<std::string, std::string>> kPhrases = {
    {"en",
     {{"overview", "Overview"},
      {"at_a_glance", "At a glance"},
      {"language", "Language"},
      {"files", "Files"},
      {"lines", "Lines"},
      {"modules", "Modules"},
      {"module", "Module"},
      {"about", "About"},
      {"architecture", "Architecture"},
      {"entry_points", "Entry points"},
      {"build", "Build and packaging"},
      {"public_api", "Public API"},
      {"symbol", "Symbol"},
      {"kind", "Kind"},
      {"signature", "Signature"},
      {"defined_in", "Defined in"},
      {"dependencies", "Dependencies"},
      {"uses", "Uses"},
      {"used_by", "Used by"},
      {"file", "File"},
      {"purpose", "Purpose"},
      {"symbols", "Symbols"},
      {"imports", "Imports"},
      {"imported_by", "Imported by"},
      {"source", "Source"},
      {"no_description", "No description in the code."},
      {"project_intro", "{name} is a {language} code base of {files} files and {lines} lines."},
      {"topic_intro", "This part of the code holds {files} files ({lines} lines) in `{folder}`."},
      {"topic_intro_root", "These are the files at the top of the source tree: {files} files ({lines} lines)."},
      {"file_intro", "`{path}` is a {language} file of {lines} lines with {symbols} symbols."},
      {"diagram_note", "Arrows point from a module to the modules it imports."},
      {"notes", "Notes"},
      {"sections", "Sections"},
      {"top_level", "Top-level files"},
      {"defined_at", "lines {from}-{to}"},
      {"skipped", "Not documented"},
      {"skipped_note", "{count} files were left out (binary, generated, too large or links)."},
      {"main_modules",
       "The library's modules come first, the most depended-on first; examples, tooling and tests follow."},
      {"api", "API"},
      {"internals", "Internals"},
      {"reference", "Reference"},
      {"internals_note", "Helpers the file does not export, for readers of its code."},
      {"tested_where", "What is tested where"},
      {"tests", "Tests"},
      {"exercises", "Exercises"},
      {"test_cases", "Test cases"},
      {"test_file_intro", "`{path}` holds {count} test cases for the code it imports."},
      {"tests_intro", "{files} test files ({lines} lines). Each row names the library code a test file exercises."},
      {"examples_intro", "{files} example files ({lines} lines) that show the library in use."},
      {"tooling_intro",
       "{files} files ({lines} lines) of scripts and tooling around the code: builds, releases, checks."},
      {"methods_of", "Members of {type}"},
      {"concepts", "Concepts"},
      {"concepts_intro", "The types and functions the rest of {name} is built from, the most used first."},
      {"used_in", "Used in"},
      {"related", "Related"},
      {"usage", "In use"},
      {"more_concepts", "All concepts"},
      {"getting_started", "Getting started"},
      {"getting_started_intro", "The first steps, from the README of {name}."},
      {"read_next", "Read next"},
      {"guides", "Guides"},
      {"guides_intro", "The project's own documentation: {count} pages, in the order its site gives them."},
      {"guide_source", "Source:"},
      {"guide_code", "Code it describes:"},
      {"in_this_section", "In this section"},
      {"relation_extends", "Extends"},
      {"relation_embeds", "Embeds"},
      {"relation_holds", "Holds"},
      {"relation_returns", "Its methods return"},
      {"relation_created_by", "Created by"}}},
    {"ru",
     {{"overview", "Обзор"},
      {"at_a_glance", "Коротко"},
      {"language", "Язык"},
      {"files", "Файлы"},
      {"lines", "Строки"},
      {"modules", "Модули"},
      {"module", "Модуль"},
      {"about", "О проекте"},
      {"architecture", "Архитектура"},
      {"entry_points", "Точки входа"},
      {"build", "Сборка и пакеты"},
      {"public_api", "Публичный API"},
      {"symbol", "Символ"},
      {"kind", "Вид"},
      {"signature", "Сигнатура"},
      {"defined_in", "Где определён"},
      {"dependencies", "Зависимости"},
      {"uses", "Использует"},
      {"used_by", "Используется в"},
      {"file", "Файл"},
      {"purpose", "Назначение"},
      {"symbols", "Символы"},
      {"imports", "Импорты"},
      {"imported_by", "Импортируется в"},
      {"source", "Исходный код"},
      {"no_description", "В коде нет описания."},
      {"project_intro", "{name}: кодовая база на {language}, {files} файлов и {lines} строк."},
      {"topic_intro", "Эта часть кода: {files} файлов ({lines} строк) в `{folder}`."},
      {"topic_intro_root", "Файлы в корне исходного дерева: {files} файлов ({lines} строк)."},
      {"file_intro", "`{path}`: файл на {language}, {lines} строк, {symbols} символов."},
      {"diagram_note", "Стрелки ведут от модуля к модулям, которые он импортирует."},
      {"notes", "Заметки"},
      {"sections", "Разделы"},
      {"top_level", "Файлы верхнего уровня"},
      {"defined_at", "строки {from}-{to}"},
      {"skipped", "Не описано"},
      {"skipped_note", "Пропущено файлов: {count} (двоичные, сгенерированные, слишком большие или ссылки)."},
      {"main_modules",
       "Сначала модули библиотеки, от которых зависит больше всего кода; затем примеры, инструменты и тесты."},
      {"api", "API"},
      {"internals", "Внутреннее"},
      {"reference", "Справочник"},
      {"internals_note", "Вспомогательные функции, которые файл не экспортирует."},
      {"tested_where", "Что где тестируется"},
      {"tests", "Тесты"},
      {"exercises", "Проверяет"},
      {"test_cases", "Тестовые случаи"},
      {"test_file_intro", "`{path}`: {count} тестовых случаев для кода, который он импортирует."},
      {"tests_intro",
       "{files} файлов тестов ({lines} строк). В каждой строке: код библиотеки, который проверяет файл."},
      {"examples_intro", "{files} файлов примеров ({lines} строк), показывающих библиотеку в деле."},
      {"tooling_intro",
       "{files} файлов ({lines} строк) скриптов и инструментов вокруг кода: сборка, выпуск, проверки."},
      {"methods_of", "Члены {type}"},
      {"concepts", "Основные понятия"},
      {"concepts_intro", "Типы и функции, на которых построен {name}; сначала самые используемые."},
      {"used_in", "Используется в"},
      {"related", "Связано с"},
      {"usage", "Пример использования"},
      {"more_concepts", "Все понятия"},
      {"getting_started", "Начало работы"},
      {"getting_started_intro", "Первые шаги из README проекта {name}."},
      {"read_next", "Что читать дальше"},
      {"guides", "Руководства"},
      {"guides_intro", "Собственная документация проекта: {count} страниц, в порядке её сайта."},
      {"guide_source", "Источник:"},
      {"guide_code", "Код, о котором идёт речь:"},
      {"in_this_section", "В этом разделе"},
      {"relation_extends", "Расширяет"},
      {"relation_embeds", "Встраивает"},
      {"relation_holds", "Содержит"},
      {"relation_returns", "Его методы возвращают"},
      {"relation_created_by", "Создаётся функцией"}}},
    {"de",
     {{"overview", "Überblick"},
      {"at_a_glance", "Auf einen Blick"},
      {"language", "Sprache"},
      {"files", "Dateien"},
      {"lines", "Zeilen"},
      {"modules", "Module"},
      {"module", "Modul"},
      {"about", "Über das Projekt"},
      {"architecture", "Architektur"},
      {"entry_points", "Einstiegspunkte"},
      {"build", "Build und Pakete"},
      {"public_api", "Öffentliche API"},
      {"symbol", "Symbol"},
      {"kind", "Art"},
      {"signature", "Signatur"},
      {"defined_in", "Definiert in"},
      {"dependencies", "Abhängigkeiten"},
      {"uses", "Verwendet"},
      {"used_by", "Verwendet von"},
      {"file", "Datei"},
      {"purpose", "Zweck"},
      {"symbols", "Symbole"},
      {"imports", "Importe"},
      {"imported_by", "Importiert von"},
      {"source", "Quelltext"},
      {"no_description", "Keine Beschreibung im Code."},
      {"project_intro", "{name} ist eine {language}-Codebasis mit {files} Dateien und {lines} Zeilen."},
      {"topic_intro", "Dieser Teil des Codes umfasst {files} Dateien ({lines} Zeilen) in `{folder}`."},
      {"topic_intro_root", "Die Dateien oben im Quellbaum: {files} Dateien ({lines} Zeilen)."},
      {"file_intro", "`{path}` ist eine {language}-Datei mit {lines} Zeilen und {symbols} Symbolen."},
      {"diagram_note", "Pfeile zeigen von einem Modul zu den Modulen, die es importiert."},
      {"notes", "Hinweise"},
      {"sections", "Abschnitte"},
      {"top_level", "Dateien der obersten Ebene"},
      {"defined_at", "Zeilen {from}-{to}"},
      {"skipped", "Nicht dokumentiert"},
      {"skipped_note", "{count} Dateien wurden ausgelassen (binär, generiert, zu groß oder Links)."},
      {"main_modules",
       "Zuerst die Module der Bibliothek, von denen am meisten abhängt; dann Beispiele, Werkzeuge und Tests."},
      {"api", "API"},
      {"internals", "Interna"},
      {"reference", "Referenz"},
      {"internals_note", "Hilfsfunktionen, die die Datei nicht exportiert."},
      {"tested_where", "Was wo getestet wird"},
      {"tests", "Tests"},
      {"exercises", "Prüft"},
      {"test_cases", "Testfälle"},
      {"test_file_intro", "`{path}` enthält {count} Testfälle für den Code, den es importiert."},
      {"tests_intro",
       "{files} Testdateien ({lines} Zeilen). Jede Zeile nennt den Bibliothekscode, den eine Testdatei prüft."},
      {"examples_intro", "{files} Beispieldateien ({lines} Zeilen), die die Bibliothek im Einsatz zeigen."},
      {"tooling_intro",
       "{files} Dateien ({lines} Zeilen) mit Skripten und Werkzeugen rund um den Code: Build, Release, Prüfungen."},
      {"methods_of", "Mitglieder von {type}"},
      {"concepts", "Konzepte"},
      {"concepts_intro", "Die Typen und Funktionen, auf denen {name} aufbaut, die meistgenutzten zuerst."},
      {"used_in", "Verwendet in"},
      {"related", "Verwandt"},
      {"usage", "Im Einsatz"},
      {"more_concepts", "Alle Konzepte"},
      {"getting_started", "Erste Schritte"},
      {"getting_started_intro", "Die ersten Schritte aus der README von {name}."},
      {"read_next", "Weiterlesen"},
      {"guides", "Anleitungen"},
      {"guides_intro", "Die eigene Dokumentation des Projekts: {count} Seiten, in der Reihenfolge seiner Website."},
      {"guide_source", "Quelle:"},
      {"guide_code", "Beschriebener Code:"},
      {"in_this_section", "In diesem Abschnitt"},
      {"relation_extends", "Erweitert"},
      {"relation_embeds", "Bettet ein"},
      {"relation_holds", "Enthält"},
      {"relation_returns", "Seine Methoden liefern"},
      {"relation_created_by", "Erzeugt von"}}}};

// ---- helpers over the analysis ----

std::string languageOf(const Analysis& analysis, const std::string& path) {
  const auto* f = analysis.find(path);
  return f ? f->language : "";
}

std::string basenameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::uint64_t linesOf(const Analysis& analysis, const std::vector<std::string>& files) {
  std::uint64_t total = 0;
  for (const auto& path : files)
    if (const auto* f = analysis.find(path)) total += f->lines;
  return total;
}

std::vector<std::string> allFiles(const Topic& topic) {
  std::vector<std::string> files = topic.files;
  for (const auto& sub : topic.subtopics) files.insert(files.end(), sub.files.begin(), sub.files.end());
  return files;
}

std::string primaryLanguage(const Analysis& analysis, const std::vector<std::string>& files) {
  std::map<std::string, std::uint64_t> counts;
  for (const auto& path : files)
    if (const auto* f = analysis.find(path)) counts[f->language] += f->lines + 1;
  std::string best;
  std::uint64_t most = 0;
  for (const auto& [language, lines] : counts)
    if (lines > most) {
      most = lines;
      best = language;
    }
  return best;
}

// A file page documents at most this many declarations whole (a generated module can
// have thousands; the API table still lists every one).
constexpr std::size_t kMaxReferenceEntries = 400;

bool isPublic(const Symbol& s) {
  // A parser read the language's own rules (Python's `_` and `__all__`, ...).
  if (!s.visibility.empty()) return s.visibility == "public" && !s.name.empty();
  if (s.name.empty() || s.name[0] == '_') return false;
  static const std::set<std::string> kinds = {
      "function", "class", "struct", "interface",      "method",   "enum",     "type",
      "typedef",  "trait", "module", "namespace",      "macro",    "constant", "member",
      "field",    "union", "alias",  "implementation", "protocol", "object",   "func"};
  return kinds.count(s.kind) > 0;
}

// Doc comments link into their project's documentation site, which the pages are not:
// only absolute links stay links, the rest keep their text.
const MarkdownOptions& docCommentLinks() {
  static const MarkdownOptions options = [] {
    MarkdownOptions o;
    o.link = [](const std::string& href) {
      return href.starts_with("https://") || href.starts_with("http://") || href.starts_with("mailto:") ? href
                                                                                                        : std::string();
    };
    return o;
  }();
  return options;
}

// A doc comment's blocks placed under a heading of `parentLevel`: its own headings ("#
// Examples", "# Panics") go below it, and those past the editor's three levels become
// bold paragraphs.
Json docBlocks(const std::string& markdown, int parentLevel) {
  Json blocks = markdownBlocks(markdown, docCommentLinks());
  for (auto& block : blocks) {
    if (block.value("type", "") != "heading") continue;
    int level = block["attrs"].value("level", 1) + parentLevel;
    if (level <= 3) {
      block["attrs"]["level"] = level;
      continue;
    }
    Json content = block.value("content", Json::array());
    for (auto& node : content) {
      if (!node.contains("marks")) node["marks"] = Json::array();
      node["marks"].push_back({{"type", "bold"}});
    }
    block = {{"type", "paragraph"}, {"content", content}};
  }
  return blocks;
}

// A symbol's purpose in a table: its summary sentence (parsed languages, Markdown) or the
// first sentences of its comment.
Json purposeOf(const Symbol& s, const std::string& language, std::size_t maxChars = 140) {
  if (s.markdownDoc) {
    Json blocks = markdownBlocks(s.summary, docCommentLinks());
    if (!blocks.empty() && blocks[0].value("type", "") == "paragraph" && blocks[0].contains("content"))
      return blocks[0]["content"];
    return Json::array();
  }
  return s.doc.empty() ? Json::array() : docCommentInlines(firstSentences(s.doc, maxChars), language);
}

bool isTopLevelApi(const Symbol& s) {
  static const std::set<std::string> kinds = {"function", "class", "struct", "interface", "enum",  "type",
                                              "typedef",  "trait", "macro",  "union",     "alias", "protocol",
                                              "object",   "func",  "record", "annotation"};
  return isPublic(s) && kinds.count(s.kind) > 0;
}

// What a file offers its users, by its language's rule: Go exports capitalised names;
// elsewhere a leading underscore marks a private name.
bool isExported(const Symbol& s, const std::string& language) {
  if (!isPublic(s)) return false;
  if (!s.visibility.empty()) return true;  // a parser applied the language's rule
  if (language == "go") return std::isupper(static_cast<unsigned char>(s.name[0])) != 0;
  return true;
}

// A member's name with its type's, as its language writes it (`Widget::size` in C++).
std::string qualifiedName(const Symbol& s, const std::string& language) {
  if (s.scope.empty()) return s.name;
  return s.scope + (language == "c++" ? "::" : ".") + s.name;
}

// The outermost type of a scope (`Outer` of `Outer.Inner` or `Outer::Inner`).
std::string outermostScope(const std::string& scope) {
  return scope.substr(0, std::min(scope.find('.'), scope.find("::")));
}

bool isTypeKind(const std::string& kind) {
  static const std::set<std::string> kinds = {"class",   "struct", "interface", "enum",   "type",
                                              "trait",   "union",  "protocol",  "object", "implementation",
                                              "typedef", "record", "annotation"};
  return kinds.count(kind) > 0;
}

// A test case by the conventions of its language's test frameworks.
bool looksLikeTestCase(const Symbol& s, const std::string& language) {
  const std::string& n = s.name;
  if (language == "go")
    return (n.rfind("Test", 0) == 0 || n.rfind("Benchmark", 0) == 0 || n.rfind("Example", 0) == 0 ||
            n.rfind("Fuzz", 0) == 0) &&
           s.scope.empty();
  if (language == "python" || language == "ruby" || language == "php" || language == "java" || language == "kotlin" ||
      language == "csharp" || language == "rust")
    return n.rfind("test", 0) == 0 || n.rfind("Test", 0) == 0;
  return false;
}

// `it("does x", ...)`, `test('...')`, `describe(...)` (JavaScript) and gtest's
// `TEST(Suite, Name)`: test cases ctags does not see, read from the text in one pass.
std::vector<std::string> scannedTestCases(const std::string& language, const std::string& text) {
  std::vector<std::string> out;
  bool js = language == "javascript" || language == "typescript";
  bool cpp = language == "c++" || language == "c";
  if (!js && !cpp) return out;
  std::size_t at = 0;
  while (at < text.size() && out.size() < 500) {
    std::size_t next = std::string::npos, width = 0;
    for (const char* opener : js ? std::vector<const char*>{"it(", "test(", "it.only(", "test.only(", "it.each"}
                                 : std::vector<const char*>{"TEST(", "TEST_F(", "TEST_P(", "TYPED_TEST("}) {
      auto found = text.find(opener, at);
      if (found != std::string::npos && found < next &&
          (found == 0 || !std::isalnum(static_cast<unsigned char>(text[found - 1])))) {
        next = found;
        width = std::string(opener).size();
      }
    }
    if (next == std::string::npos) break;
    std::size_t p = next + width;
    if (js) {
      while (p < text.size() && text[p] != '(' && text[p] != '\'' && text[p] != '"' && text[p] != '`' &&
             text[p] != '\n')
        ++p;
      if (p < text.size() && text[p] == '(') ++p;
      if (p < text.size() && (text[p] == '\'' || text[p] == '"' || text[p] == '`')) {
        char quote = text[p];
        auto close = text.find(quote, p + 1);
        if (close != std::string::npos && close - p < 300 && text.find('\n', p) > close)
          out.push_back(text.substr(p + 1, close - p - 1));
      }
    } else {
      auto close = text.find(')', p);
      if (close != std::string::npos && close - p < 200) {
        std::string inside = text.substr(p, close - p);
        inside.erase(std::remove(inside.begin(), inside.end(), ' '), inside.end());
        auto comma = inside.find(',');
        if (comma != std::string::npos) out.push_back(inside.substr(0, comma) + "." + inside.substr(comma + 1));
      }
    }
    at = next + width;
  }
  return out;
}

std::string signatureOf(const Symbol& s) {
  std::string sig = s.signature;
  if (sig.size() > 120) sig = sig.substr(0, 117) + "...";
  return sig;
}

std::string topicFolderText(const Topic& topic) { return topic.folder.empty() ? "." : topic.folder; }

std::string mermaidLabel(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"') out += "#quot;";
    else if (c == '\n' || c == '\r' || c == '[' || c == ']' || c == '{' || c == '}' || c == '<' || c == '>' ||
             c == '|' || c == '`')
      out += ' ';
    else out += c;
  }
  return out.substr(0, 60);
}

// A flowchart of at most `limit` nodes: edges from -> to with counts.
std::string flowchart(const std::vector<std::pair<std::string, std::string>>& nodes,  // key, label
                      const std::map<std::string, std::map<std::string, int>>& edges, std::size_t limit) {
  std::map<std::string, std::string> ids;
  std::string text = "flowchart LR\n";
  for (const auto& [key, label] : nodes) {
    if (ids.size() >= limit) break;
    std::string id = "n" + std::to_string(ids.size());
    ids[key] = id;
    text += "  " + id + "[\"" + mermaidLabel(label) + "\"]\n";
  }
  for (const auto& [from, targets] : edges) {
    auto a = ids.find(from);
    if (a == ids.end()) continue;
    for (const auto& [to, count] : targets) {
      auto b = ids.find(to);
      if (b == ids.end()) continue;
      text += "  " + a->second + " -->|" + std::to_string(count) + "| " + b->second + "\n";
    }
  }
  return text;
}

std::string readLines(const std::string& root, const std::string& path, int from, int to) {
  std::ifstream in(fs::path(root) / path, std::ios::binary);
  std::string line, out;
  for (int n = 1; std::getline(in, line) && n <= to; ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (n >= from) out += line + "\n";
  }
  if (!out.empty()) out.pop_back();
  // Code blocks hold text: invalid UTF-8 becomes U+FFFD.
  std::string valid;
  for (std::size_t i = 0; i < out.size();) {
    auto c = static_cast<unsigned char>(out[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= out.size() && (c >= 0x20 || c == '\n' || c == '\t');
    for (int k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(out[i + k]) >> 6) == 2;
    if (ok) valid.append(out, i, static_cast<std::size_t>(n)), i += static_cast<std::size_t>(n);
    else valid += "\xEF\xBF\xBD", i += 1;
  }
  return valid;
}

const Topic* findTopic(const Plan& plan, const std::string& key) {
  for (const auto& t : plan.topics) {
    if (t.key == key) return &t;
    for (const auto& s : t.subtopics)
      if (s.key == key) return &s;
  }
  return nullptr;
}

std::string topicTitle(const Topic& topic, const std::string& language) {
  return topic.title.empty() ? phrase(language, "top_level") : topic.title;
}

// What a topic is for: wiki.json, its README, else the leading comment of its most
// important file.
// A comment that describes: a few words, not a bare link, a to-do or a tool's note.
bool usefulPurpose(const std::string& text) {
  if (text.empty()) return false;
  std::size_t words = 1;
  for (char c : text) words += c == ' ' ? 1 : 0;
  if (words < 4) return false;
  for (const char* noise :
       {"See http", "see http", "TODO", "FIXME", "XXX", "HACK", "NOTE:", "http://", "https://", "eslint", "@"})
    if (text.rfind(noise, 0) == 0) return false;
  return true;
}

std::string describeTopic(const Topic& topic, const Analysis& analysis) {
  if (!topic.description.empty()) return topic.description;
  for (const auto& f : analysis.files) {
    if (!f.documentation || topic.folder.empty()) continue;
    std::string lower = f.path;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.rfind(topic.folder + "/readme", 0) == 0 && !f.summary.empty()) return f.summary;
  }
  // The most used file's own description says most about the topic: a package's doc
  // comment (Go's doc.go, Python's __init__), else the file the rest of the code imports.
  const FileAnalysis* best = nullptr;
  double bestScore = -1;
  for (const auto& path : allFiles(topic)) {
    const auto* f = analysis.find(path);
    if (!f || !usefulPurpose(f->summary)) continue;
    std::string base = basenameOf(path);
    double score =
        static_cast<double>(f->usedBy.size()) +
        (base == "doc.go" || base == "__init__.py" || base == "index.js" || base == "index.ts" || base == "mod.rs"
             ? 1000
             : 0) +
        (f->summary.rfind("Package ", 0) == 0 ? 1000 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = f;
    }
  }
  return best ? firstSentences(best->summary, 300) : "";
}

// Each core type or function: what it is, where it is used, what it relates to, and how
// the examples or the README use it.
void writeConcepts(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = Json::array();
  blocks.push_back(heading(1, phrase(lang, "concepts")));
  blocks.push_back(paragraphText(fill(phrase(lang, "concepts_intro"), {{"name", analysis.name}})));
  for (const auto& c : plan.concepts) {
    blocks.push_back(heading(2, c.name));
    Json where =
        Json::array({textNode(c.kind + ", "), linkText(c.file, ctx.pageHref("file:" + c.file), true), textNode(" ("),
                     linkText(fill(phrase(lang, "defined_at"),
                                   {{"from", std::to_string(c.line)}, {"to", std::to_string(std::max(c.line, c.end))}}),
                              ctx.sourceUrl(c.file, c.line, std::max(c.line, c.end))),
                     textNode(")")});
    blocks.push_back(paragraph(where));
    if (!c.doc.empty()) blocks.push_back(paragraph(docCommentInlines(c.doc, languageOf(analysis, c.file))));
    if (!c.relations.empty()) {
      // How it relates to the others: what it extends or embeds, holds, returns, and what creates it.
      std::vector<Json> items;
      for (const char* kind : {"extends", "embeds", "holds", "returns", "created_by"}) {
        Json item = Json::array({textNode(phrase(lang, std::string("relation_") + kind) + " ")});
        bool any = false;
        for (const auto& [relation, other] : c.relations) {
          if (relation != kind) continue;
          if (any) item.push_back(textNode(", "));
          item.push_back(codeText(other));
          any = true;
        }
        if (any) items.push_back(item);
      }
      blocks.push_back(bulletList(items));
    }
    if (!c.related.empty()) {
      Json inlines = Json::array({textNode(phrase(lang, "related") + ": ")});
      for (std::size_t i = 0; i < c.related.size(); ++i) {
        if (i) inlines.push_back(textNode(", "));
        inlines.push_back(codeText(c.related[i]));
      }
      blocks.push_back(paragraph(inlines));
    }
    if (!c.example.empty()) {
      blocks.push_back(heading(3, phrase(lang, "usage")));
      const auto* from = analysis.find(c.examplePath);
      std::string language = from ? codeBlockLanguage(from->language) : "";
      if (from && from->role == kRoleGuide)
        language = codeBlockLanguage(analysis.find(c.file) ? analysis.find(c.file)->language : "");
      int to = c.exampleLine + static_cast<int>(std::count(c.example.begin(), c.example.end(), '\n'));
      blocks.push_back(codeBlock(language, c.example, ctx.sourceUrl(c.examplePath, c.exampleLine, to)));
    }
    if (!c.usedIn.empty()) {
      blocks.push_back(heading(3, phrase(lang, "used_in")));
      std::vector<Json> items;
      for (const auto& path : c.usedIn) {
        const auto* f = analysis.find(path);
        // Its page when it has one (a file page, a guide page), else the source.
        std::string href;
        if (std::find(plan.filePages.begin(), plan.filePages.end(), path) != plan.filePages.end())
          href = ctx.pageHref("file:" + path);
        else if (f && f->role == kRoleGuide) href = ctx.pageHref("guide:" + path);
        if (href.empty()) href = ctx.sourceUrl(path, 1, std::max<int>(1, f ? static_cast<int>(f->lines) : 1));
        items.push_back(Json::array({linkText(path, href, true)}));
      }
      blocks.push_back(bulletList(items));
    }
  }
  page.content = doc(blocks);
}

void writeOverview(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = Json::array();
  std::vector<std::string> code;
  std::uint64_t lines = 0;
  for (const auto& f : analysis.files)
    if (isCodeFile(f)) {
      code.push_back(f.path);
      lines += f.lines;
    }
  blocks.push_back(heading(1, analysis.name));
  blocks.push_back(paragraphText(fill(phrase(lang, "project_intro"), {{"name", analysis.name},
                                                                      {"language", primaryLanguage(analysis, code)},
                                                                      {"files", std::to_string(code.size())},
                                                                      {"lines", std::to_string(lines)}})));
  // The README's opening as the README shows it (links, emphasis, code), else its text.
  Json about = readmeOpeningBlocks(analysis, plan, ctx);
  if (!about.empty() || !analysis.readme.empty()) {
    blocks.push_back(heading(2, phrase(lang, "about")));
    if (about.empty()) about = markdownBlocks(analysis.readme);
    for (auto& block : about) blocks.push_back(std::move(block));
  }
  if (!plan.gettingStarted.empty())
    blocks.push_back(
        paragraph(Json::array({linkText(phrase(lang, "getting_started"), ctx.pageHref("getting-started"))})));
  for (const auto& b : analysis.builds)
    if (!b.description.empty() && b.path.find('/') == std::string::npos && analysis.readme.empty())
      blocks.push_back(paragraphText(b.description));
  if (!plan.notes.empty()) blocks.push_back(alert("info", plan.notes));
  if (!plan.concepts.empty()) {
    // The five a reader meets first, each with its one line and where it is defined.
    blocks.push_back(heading(2, phrase(lang, "concepts")));
    std::vector<Json> items;
    for (std::size_t i = 0; i < plan.concepts.size() && i < 5; ++i) {
      const auto& c = plan.concepts[i];
      Json item = Json::array({linkText(c.name, ctx.sourceUrl(c.file, c.line, std::max(c.line, c.end)), true)});
      item.push_back(textNode(" (" + c.kind + ")"));
      if (!c.doc.empty()) {
        item.push_back(textNode(": "));
        for (auto& part : docCommentInlines(firstSentences(c.doc, 160), languageOf(analysis, c.file)))
          item.push_back(part);
      }
      items.push_back(item);
    }
    blocks.push_back(bulletList(items));
    if (plan.concepts.size() > 0)
      blocks.push_back(paragraph(Json::array({linkText(phrase(lang, "more_concepts"), ctx.pageHref("concepts"))})));
  }

  blocks.push_back(heading(2, phrase(lang, "at_a_glance")));
  std::vector<std::pair<std::string, std::uint64_t>> languages(analysis.linesByLanguage.begin(),
                                                               analysis.linesByLanguage.end());
  std::sort(languages.begin(), languages.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::map<std::string, std::size_t> filesByLanguage;
  for (const auto& f : analysis.files)
    if (!f.documentation) filesByLanguage[f.language] += 1;
  std::vector<std::vector<Json>> rows;
  for (const auto& [language, count] : languages) {
    if (rows.size() >= 12) break;
    rows.push_back({Json::array({textNode(language)}),
                    Json::array({textNode(std::to_string(filesByLanguage[language]))}),
                    Json::array({textNode(std::to_string(count))})});
  }
  blocks.push_back(table({phrase(lang, "language"), phrase(lang, "files"), phrase(lang, "lines")}, rows));

  blocks.push_back(heading(2, phrase(lang, "modules")));
  blocks.push_back(paragraphText(phrase(lang, "main_modules")));
  rows.clear();
  for (const auto& topic : plan.topics) {
    auto files = allFiles(topic);
    std::string description = describeTopic(topic, analysis);
    rows.push_back({Json::array({linkText(topicTitle(topic, lang), ctx.pageHref(topic.key))}),
                    Json::array({textNode(std::to_string(files.size()))}),
                    description.empty() ? Json::array() : inlineWithCode(firstSentences(description, 160))});
  }
  blocks.push_back(table({phrase(lang, "module"), phrase(lang, "files"), phrase(lang, "purpose")}, rows));

  // The library's architecture: examples, tooling and tests are no part of it.
  std::vector<std::pair<std::string, std::string>> nodes;
  for (const auto& topic : plan.topics)
    if (topic.role == kRoleLibrary) nodes.emplace_back(topic.key, topicTitle(topic, lang));
  if (nodes.size() > 1) {
    blocks.push_back(heading(2, phrase(lang, "architecture")));
    blocks.push_back(codeBlock("mermaid", flowchart(nodes, plan.topicGraph, 20)));
    blocks.push_back(paragraphText(phrase(lang, "diagram_note")));
  }

  std::vector<Json> entries;
  for (const auto& f : analysis.files)
    if (f.entryPoint && isCodeFile(f) && entries.size() < 15) {
      Json item = Json::array({linkText(f.path, ctx.pageHref("file:" + f.path), true)});
      if (!f.summary.empty()) item.push_back(textNode(": " + firstSentences(f.summary, 160)));
      entries.push_back(item);
    }
  if (!entries.empty()) {
    blocks.push_back(heading(2, phrase(lang, "entry_points")));
    blocks.push_back(bulletList(entries));
  }
  if (!analysis.builds.empty()) {
    blocks.push_back(heading(2, phrase(lang, "build")));
    std::vector<Json> items;
    for (const auto& b : analysis.builds) {
      if (items.size() >= 20) break;
      std::string text = b.path + (b.name.empty() ? "" : " (" + b.name + ")");
      Json item = Json::array({codeText(b.path)});
      if (!b.name.empty()) item.push_back(textNode(": " + b.name));
      std::string facts;
      for (std::size_t i = 0; i < b.facts.size() && i < 6; ++i) facts += (facts.empty() ? "" : "; ") + b.facts[i];
      if (!facts.empty()) {
        item.push_back(textNode(". "));
        for (auto& part : inlineWithCode(facts)) item.push_back(part);
      }
      items.push_back(item);
    }
    blocks.push_back(bulletList(items));
  }
  if (!analysis.skipped.empty())
    blocks.push_back(
        alert("info", fill(phrase(lang, "skipped_note"), {{"count", std::to_string(analysis.skipped.size())}})));
  page.content = doc(blocks);
}

// Examples, tooling and tests: what each file is for and, for tests, which library
// code each test file exercises. No API: none of it is the library's.
void writeRoleTopic(Json& blocks, const Topic& topic, const Analysis& analysis, const Plan& plan,
                    const WriterContext& ctx) {
  const auto& lang = ctx.language;
  std::string intro = topic.role == kRoleTest      ? "tests_intro"
                      : topic.role == kRoleExample ? "examples_intro"
                                                   : "tooling_intro";
  blocks.push_back(
      paragraphText(fill(phrase(lang, intro), {{"files", std::to_string(topic.files.size())},
                                               {"lines", std::to_string(linesOf(analysis, topic.files))}})));
  std::vector<std::vector<Json>> rows;
  for (const auto& path : topic.files) {
    const auto* f = analysis.find(path);
    if (!f) continue;
    Json fileCell = Json::array({linkText(path, ctx.pageHref("file:" + path), true)});
    if (topic.role != kRoleTest) {
      rows.push_back({fileCell, f->summary.empty() ? Json::array()
                                                   : docCommentInlines(firstSentences(f->summary, 160), f->language)});
      continue;
    }
    // The library topics this test file imports from.
    std::set<std::string> exercised;
    for (const auto& target : f->dependsOn) {
      const auto* t = analysis.find(target);
      auto topicOf = plan.topicOfFile.find(target);
      if (t && isLibraryRole(t->role) && topicOf != plan.topicOfFile.end()) exercised.insert(topicOf->second);
    }
    // A test inside its package (Go's x_test.go) imports nothing: it exercises its folder.
    if (exercised.empty()) {
      std::string folder = path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
      for (const auto& [other, key] : plan.topicOfFile) {
        const auto* o = analysis.find(other);
        std::string otherFolder = other.substr(0, other.rfind('/') == std::string::npos ? 0 : other.rfind('/'));
        if (o && isLibraryRole(o->role) && otherFolder == folder) exercised.insert(key);
      }
    }
    Json exercisedCell = Json::array();
    for (const auto& key : exercised) {
      const Topic* other = findTopic(plan, key);
      if (!other) continue;
      if (!exercisedCell.empty()) exercisedCell.push_back(textNode(", "));
      exercisedCell.push_back(linkText(topicTitle(*other, lang), ctx.pageHref(key)));
    }
    std::size_t cases = 0;
    for (const auto& s : f->symbols) cases += looksLikeTestCase(s, f->language) ? 1 : 0;
    if (cases == 0)
      cases = scannedTestCases(f->language, readLines(ctx.sourceRoot, path, 1, static_cast<int>(f->lines))).size();
    rows.push_back({fileCell, exercisedCell, Json::array({textNode(std::to_string(cases))})});
  }
  if (rows.empty()) return;
  if (topic.role == kRoleTest) {
    blocks.push_back(heading(2, phrase(lang, "tested_where")));
    blocks.push_back(table({phrase(lang, "file"), phrase(lang, "exercises"), phrase(lang, "test_cases")}, rows));
  } else {
    blocks.push_back(heading(2, phrase(lang, "files")));
    blocks.push_back(table({phrase(lang, "file"), phrase(lang, "purpose")}, rows));
  }
}

void writeTopic(PageDraft& page, const Topic& topic, const Analysis& analysis, const Plan& plan,
                const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = Json::array();
  auto files = allFiles(topic);
  blocks.push_back(heading(1, topicTitle(topic, lang)));
  std::string description = describeTopic(topic, analysis);
  if (!description.empty()) blocks.push_back(paragraphText(description));
  if (topic.role != kRoleLibrary) {
    writeRoleTopic(blocks, topic, analysis, plan, ctx);
    page.content = doc(blocks);
    return;
  }
  blocks.push_back(paragraphText(fill(phrase(lang, topic.folder.empty() ? "topic_intro_root" : "topic_intro"),
                                      {{"files", std::to_string(files.size())},
                                       {"lines", std::to_string(linesOf(analysis, files))},
                                       {"folder", topicFolderText(topic)}})));
  if (!topic.subtopics.empty()) {
    blocks.push_back(heading(2, phrase(lang, "sections")));
    std::vector<Json> items;
    for (const auto& sub : topic.subtopics) {
      Json item = Json::array({linkText(topicTitle(sub, lang), ctx.pageHref(sub.key))});
      std::string d = describeTopic(sub, analysis);
      if (!d.empty()) item.push_back(textNode(": " + firstSentences(d, 160)));
      items.push_back(item);
    }
    blocks.push_back(bulletList(items));
  }
  // The repository's guides that use this code: how to use it, before what it holds.
  if (Json guides = guidesOfTopic(topic, plan, ctx); !guides.is_null()) {
    blocks.push_back(heading(2, phrase(lang, "guides")));
    blocks.push_back(std::move(guides));
  }
  if (!topic.files.empty()) {
    blocks.push_back(heading(2, phrase(lang, "files")));
    std::vector<std::vector<Json>> rows;
    for (const auto& path : topic.files) {
      const auto* f = analysis.find(path);
      if (!f) continue;
      rows.push_back(
          {Json::array({linkText(path, ctx.pageHref("file:" + path), true)}),
           f->summary.empty() ? Json::array() : docCommentInlines(firstSentences(f->summary, 160), f->language),
           Json::array({textNode(std::to_string(f->symbols.size()))})});
    }
    blocks.push_back(table({phrase(lang, "file"), phrase(lang, "purpose"), phrase(lang, "symbols")}, rows));
  }
  // The API other code uses: top-level symbols, those used from elsewhere first.
  std::vector<std::vector<Json>> api;
  for (const auto& path : topic.files) {
    const auto* f = analysis.find(path);
    if (!f) continue;
    // Every exported top-level symbol: a topic page lists its API whole (members are on
    // the file pages).
    for (const auto& s : f->symbols) {
      if (!isTopLevelApi(s) || !s.scope.empty() || !isExported(s, f->language)) continue;
      api.push_back({Json::array({linkText(s.name, ctx.sourceUrl(path, s.line, std::max(s.line, s.end)), true)}),
                     Json::array({textNode(s.kind)}),
                     signatureOf(s).empty() ? Json::array() : Json::array({codeText(signatureOf(s))}),
                     purposeOf(s, f->language)});
    }
  }
  if (!api.empty()) {
    blocks.push_back(heading(2, phrase(lang, "public_api")));
    blocks.push_back(
        table({phrase(lang, "symbol"), phrase(lang, "kind"), phrase(lang, "signature"), phrase(lang, "purpose")}, api));
  }
  // Dependencies between the files of this topic and with other topics.
  std::map<std::string, std::map<std::string, int>> edges;
  std::set<std::string> usesTopics, usedByTopics;
  for (const auto& path : files) {
    const auto* f = analysis.find(path);
    if (!f) continue;
    for (const auto& target : f->dependsOn) {
      auto t = plan.topicOfFile.find(target);
      if (t == plan.topicOfFile.end()) continue;
      if (std::find(files.begin(), files.end(), target) != files.end()) edges[path][target] += 1;
      else usesTopics.insert(t->second);
    }
    for (const auto& user : f->usedBy) {
      auto t = plan.topicOfFile.find(user);
      if (t != plan.topicOfFile.end() && std::find(files.begin(), files.end(), user) == files.end())
        usedByTopics.insert(t->second);
    }
  }
  if (!edges.empty() || !usesTopics.empty() || !usedByTopics.empty()) {
    blocks.push_back(heading(2, phrase(lang, "dependencies")));
    auto topicLinks = [&](const std::set<std::string>& keys) {
      Json inlines = Json::array();
      for (const auto& key : keys) {
        const Topic* other = findTopic(plan, key);
        if (!other) continue;
        if (!inlines.empty()) inlines.push_back(textNode(", "));
        inlines.push_back(linkText(topicTitle(*other, lang), ctx.pageHref(key)));
      }
      return inlines;
    };
    std::vector<Json> items;
    if (!usesTopics.empty()) {
      Json item = Json::array({textNode(phrase(lang, "uses") + ": ")});
      for (auto& part : topicLinks(usesTopics)) item.push_back(part);
      items.push_back(item);
    }
    if (!usedByTopics.empty()) {
      Json item = Json::array({textNode(phrase(lang, "used_by") + ": ")});
      for (auto& part : topicLinks(usedByTopics)) item.push_back(part);
      items.push_back(item);
    }
    if (!items.empty()) blocks.push_back(bulletList(items));
    if (!edges.empty()) {
      std::vector<std::pair<std::string, std::string>> nodes;
      for (const auto& path : files) nodes.emplace_back(path, basenameOf(path));
      blocks.push_back(codeBlock("mermaid", flowchart(nodes, edges, 25)));
    }
  }
  page.content = doc(blocks);
}

void writeFile(PageDraft& page, const FileAnalysis& f, const Analysis& analysis, const WriterContext& ctx) {
  const auto& lang = ctx.language;
  Json blocks = Json::array();
  blocks.push_back(heading(1, f.path));
  if (!f.doc.empty()) {
    // The module's own documentation, whole (a parser read it: docstring, //!, package doc).
    for (auto& block : docBlocks(f.doc, 1)) blocks.push_back(std::move(block));
  } else {
    blocks.push_back(f.summary.empty() ? paragraphText(phrase(lang, "no_description"))
                                       : paragraph(docCommentInlines(f.summary, f.language)));
  }
  blocks.push_back(paragraphText(fill(phrase(lang, "file_intro"), {{"path", f.path},
                                                                   {"language", f.language},
                                                                   {"lines", std::to_string(f.lines)},
                                                                   {"symbols", std::to_string(f.symbols.size())}})));
  auto symbolRow = [&](const Symbol& s, const std::string& name) {
    return std::vector<Json>{
        Json::array({linkText(name, ctx.sourceUrl(f.path, s.line, std::max(s.line, s.end)), true)}),
        Json::array({textNode(s.kind)}),
        signatureOf(s).empty() ? Json::array() : Json::array({codeText(signatureOf(s))}), purposeOf(s, f.language)};
  };
  if (f.role == kRoleTest) {
    // A test file: its cases, and what it exercises (its imports below). Never an API.
    std::vector<Json> cases;
    for (const auto& s : f.symbols)
      if (looksLikeTestCase(s, f.language))
        cases.push_back(Json::array(
            {linkText(qualifiedName(s, f.language), ctx.sourceUrl(f.path, s.line, std::max(s.line, s.end)), true)}));
    if (cases.empty())
      for (const auto& name :
           scannedTestCases(f.language, readLines(ctx.sourceRoot, f.path, 1, static_cast<int>(f.lines))))
        cases.push_back(Json::array({textNode(name)}));
    blocks.push_back(paragraphText(
        fill(phrase(lang, "test_file_intro"), {{"path", f.path}, {"count", std::to_string(cases.size())}})));
    if (!cases.empty()) {
      blocks.push_back(heading(2, phrase(lang, "test_cases")));
      blocks.push_back(bulletList(cases));
    }
  } else if (!f.symbols.empty()) {
    // The API whole, in source order: top-level symbols, then each exported type's
    // members in a section of their own (long pages get sections, never a cut).
    std::set<std::string> exportedTypes;
    for (const auto& s : f.symbols)
      if (s.scope.empty() && isTypeKind(s.kind) && isExported(s, f.language)) exportedTypes.insert(s.name);
    std::vector<std::vector<Json>> api;
    std::map<std::string, std::vector<std::vector<Json>>> members;
    std::vector<std::string> memberOrder;
    std::vector<const Symbol*> internals;
    for (const auto& s : f.symbols) {
      if (!isExported(s, f.language)) {
        internals.push_back(&s);
        continue;
      }
      if (!s.scope.empty() && (exportedTypes.count(s.scope) || exportedTypes.count(outermostScope(s.scope)))) {
        if (!members.count(s.scope)) memberOrder.push_back(s.scope);
        members[s.scope].push_back(symbolRow(s, qualifiedName(s, f.language)));
        continue;
      }
      api.push_back(symbolRow(s, qualifiedName(s, f.language)));
    }
    std::vector<std::string> columns = {phrase(lang, "symbol"), phrase(lang, "kind"), phrase(lang, "signature"),
                                        phrase(lang, "purpose")};
    if (!api.empty() || !members.empty()) blocks.push_back(heading(2, phrase(lang, "api")));
    if (!api.empty()) blocks.push_back(table(columns, api));
    for (const auto& type : memberOrder) {
      blocks.push_back(heading(3, fill(phrase(lang, "methods_of"), {{"type", type}})));
      blocks.push_back(table(columns, members[type]));
    }
    if (!internals.empty()) {
      blocks.push_back(heading(2, phrase(lang, "internals")));
      blocks.push_back(paragraphText(phrase(lang, "internals_note")));
      Json inlines = Json::array();
      for (const auto* s : internals) {
        if (!inlines.empty()) inlines.push_back(textNode(", "));
        inlines.push_back(
            linkText(qualifiedName(*s, f.language), ctx.sourceUrl(f.path, s->line, std::max(s->line, s->end)), true));
      }
      blocks.push_back(paragraph(inlines));
    }
    bool parsed =
        std::any_of(f.symbols.begin(), f.symbols.end(), [](const Symbol& s) { return !s.visibility.empty(); });
    if (parsed) {
      // Every public declaration whole, as the language's documentation tool shows it: its
      // head (with types, defaults and return type) linked to its source, then its doc.
      std::vector<const Symbol*> entries;
      for (const auto& s : f.symbols)
        if (isExported(s, f.language) &&
            (s.scope.empty() || exportedTypes.count(s.scope) || exportedTypes.count(outermostScope(s.scope))))
          entries.push_back(&s);
      if (!entries.empty()) blocks.push_back(heading(2, phrase(lang, "reference")));
      for (std::size_t i = 0; i < entries.size() && i < kMaxReferenceEntries; ++i) {
        const Symbol& s = *entries[i];
        blocks.push_back(heading(3, qualifiedName(s, f.language)));
        blocks.push_back(codeBlock(codeBlockLanguage(f.language), s.signature.empty() ? s.name : s.signature,
                                   ctx.sourceUrl(f.path, s.line, std::max(s.line, s.end))));
        if (s.markdownDoc)
          for (auto& block : docBlocks(s.doc, 3)) blocks.push_back(std::move(block));
      }
    }
    // Excerpts of the main definitions: exported ones, documented first, then the largest.
    std::vector<const Symbol*> main;
    for (const auto& s : f.symbols)
      if (!parsed && isTopLevelApi(s) && s.scope.empty() && isExported(s, f.language)) main.push_back(&s);
    std::stable_sort(main.begin(), main.end(), [](const Symbol* a, const Symbol* b) {
      if (a->doc.empty() != b->doc.empty()) return !a->doc.empty();
      return (a->end - a->line) > (b->end - b->line);
    });
    for (std::size_t i = 0; i < main.size() && i < 5; ++i) {
      const Symbol& s = *main[i];
      int to = std::min(std::max(s.line, s.end), s.line + 24);
      std::string code = readLines(ctx.sourceRoot, f.path, s.line, to);
      if (code.empty()) continue;
      blocks.push_back(heading(3, s.name));
      if (!s.doc.empty()) blocks.push_back(paragraph(docCommentInlines(s.doc, f.language)));
      blocks.push_back(codeBlock(codeBlockLanguage(f.language), code, ctx.sourceUrl(f.path, s.line, to)));
    }
  } else if (f.lines > 0) {
    int to = static_cast<int>(std::min<std::uint64_t>(f.lines, 30));
    blocks.push_back(heading(2, phrase(lang, "source")));
    blocks.push_back(codeBlock(codeBlockLanguage(f.language), readLines(ctx.sourceRoot, f.path, 1, to),
                               ctx.sourceUrl(f.path, 1, to)));
  }
  auto fileLinks = [&](const std::vector<std::string>& paths) {
    std::vector<Json> items;
    for (const auto& p : paths) {
      if (items.size() >= 30) break;
      items.push_back(Json::array({linkText(p, ctx.pageHref("file:" + p), true)}));
    }
    return items;
  };
  if (!f.dependsOn.empty()) {
    blocks.push_back(heading(2, phrase(lang, "imports")));
    blocks.push_back(bulletList(fileLinks(f.dependsOn)));
  }
  if (!f.usedBy.empty()) {
    blocks.push_back(heading(2, phrase(lang, "imported_by")));
    blocks.push_back(bulletList(fileLinks(f.usedBy)));
  }
  (void)analysis;
  page.content = doc(blocks);
}

}  // namespace

std::string phrase(const std::string& language, const std::string& key) {
  auto table = kPhrases.find(language);
  if (table == kPhrases.end()) table = kPhrases.find("en");
  auto found = table->second.find(key);
  if (found != table->second.end()) return found->second;
  return kPhrases.at("en").at(key);
}

std::vector<PageDraft> planPages(const Analysis& analysis, const Plan& plan, const std::string& language) {
  std::vector<PageDraft> pages;
  pages.push_back(
      {"overview", "", analysis.name.empty() ? phrase(language, "overview") : analysis.name, "generated", nullptr});
  bool startGuides = std::any_of(plan.guides.begin(), plan.guides.end(),
                                 [](const Guide& g) { return isGettingStartedTitle(g.title); });
  if (!plan.gettingStarted.empty() || startGuides)
    pages.push_back({"getting-started", "overview", phrase(language, "getting_started"), "generated", nullptr});
  if (!plan.concepts.empty())
    pages.push_back({"concepts", "overview", phrase(language, "concepts"), "generated", nullptr});
  bool guidesPlaced = false;
  auto placeGuides = [&]() {
    if (guidesPlaced || plan.guides.empty()) return;
    guidesPlaced = true;
    pages.push_back({"guides", "overview", phrase(language, "guides"), "generated", nullptr});
    for (const auto& guide : plan.guides)
      pages.push_back({guide.key, guide.parentKey, guide.title.substr(0, 120), "generated", nullptr});
  };
  for (const auto& topic : plan.topics) {
    // Guides after the library's topics, before its examples, tooling and tests.
    if (topic.role != kRoleLibrary) placeGuides();
    pages.push_back({topic.key, "overview", topicTitle(topic, language), "generated", nullptr});
    for (const auto& sub : topic.subtopics)
      pages.push_back({sub.key, topic.key, topicTitle(sub, language), "generated", nullptr});
  }
  placeGuides();
  for (const auto& path : plan.filePages) {
    auto topic = plan.topicOfFile.find(path);
    pages.push_back({"file:" + path, topic == plan.topicOfFile.end() ? "overview" : topic->second, basenameOf(path),
                     "file", nullptr});
  }
  return pages;
}

void writePage(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& context) {
  if (page.key == "overview") return writeOverview(page, analysis, plan, context);
  if (page.key == "concepts") return writeConcepts(page, analysis, plan, context);
  if (page.key == "getting-started") return writeGettingStarted(page, analysis, plan, context);
  if (page.key == "guides") return writeGuidesIndex(page, plan, context);
  if (page.key.rfind("guide:", 0) == 0) {
    for (const auto& guide : plan.guides)
      if (guide.key == page.key) return writeGuide(page, guide, analysis, plan, context);
  }
  if (page.key.rfind("topic:", 0) == 0) {
    if (const Topic* topic = findTopic(plan, page.key)) return writeTopic(page, *topic, analysis, plan, context);
  }
  if (page.key.rfind("file:", 0) == 0) {
    if (const auto* f = analysis.find(page.key.substr(5))) return writeFile(page, *f, analysis, context);
  }
  page.content = doc(Json::array({heading(1, page.title)}));
}

namespace {

// The checked mermaid subset, read line by line with plain scans (a model writes these).
bool isNodeIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isNodeIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// A node id at `at`; moves past it.
bool nodeId(const std::string& line, std::size_t& at) {
  if (at >= line.size() || !isNodeIdStart(line[at])) return false;
  while (++at < line.size() && isNodeIdChar(line[at])) {
  }
  return true;
}

// flowchart LR
bool isMermaidHeader(const std::string& line) {
  for (const char* direction : {"LR", "TD", "TB", "RL", "BT"})
    if (line == std::string("flowchart ") + direction) return true;
  return false;
}

// A["label"]: a label without quotes, brackets, braces, angle brackets, pipes or backticks.
bool isMermaidNode(const std::string& line) {
  std::size_t at = 0;
  while (at < line.size() && isBlank(line[at])) ++at;
  if (!nodeId(line, at) || line.compare(at, 2, "[\"") != 0) return false;
  auto close = line.find_first_of("\"[]{}<>|`", at + 2);
  return close != std::string::npos && line[close] == '"' && close + 2 == line.size() && line[close + 1] == ']';
}

// A --> B, or A -->|label| B with a label of 1 to 40 characters.
bool isMermaidEdge(const std::string& line) {
  std::size_t at = 0;
  while (at < line.size() && isBlank(line[at])) ++at;
  if (!nodeId(line, at) || line.compare(at, 4, " -->") != 0) return false;
  at += 4;
  if (at < line.size() && line[at] == '|') {
    auto close = line.find('|', at + 1);
    if (close == std::string::npos || close == at + 1 || close - at - 1 > 40) return false;
    at = close + 1;
  }
  if (at >= line.size() || line[at] != ' ') return false;
  ++at;
  return nodeId(line, at) && at == line.size();
}

}  // namespace

bool checkMermaid(const std::string& text, std::string* error) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 ? isMermaidHeader(line) : (isMermaidNode(line) || isMermaidEdge(line) || line.empty())) continue;
    if (error) *error = "line " + std::to_string(n) + " is outside the supported mermaid subset: " + line;
    return false;
  }
  if (n == 0) {
    if (error) *error = "empty diagram";
    return false;
  }
  return true;
}

}  // namespace docs_generation
