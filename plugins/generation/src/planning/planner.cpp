#include "planning/planner.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "analysis/bounded_json.hpp"
#include "analysis/file_roles.hpp"
#include "analysis/inventory.hpp"
#include "planning/import_communities.hpp"
#include "writing/rst_markdown.hpp"

namespace docs_generation {
namespace {

std::string firstSegment(const std::string& path) { return path.substr(0, path.find('/')); }

// A folder of implementation by its name (internal/, impl/, detail/, _private/).
bool implementationFolder(const std::string& folder) {
  std::string name = folder.substr(folder.rfind('/') == std::string::npos ? 0 : folder.rfind('/') + 1);
  return name == "internal" || name == "impl" || name == "detail" || name == "details" || name == "_internal" ||
         name == "_private" || name == "private";
}

std::string titleOf(const std::string& folder) {
  if (folder.empty()) return "";
  // A JVM package folder reads as its package (src/main/java/com/google/gson/internal:
  // com.google.gson.internal), as javadoc and KDoc name it.
  for (std::string_view root : {"/java/", "/kotlin/"}) {
    auto at = ("/" + folder).find(root);
    if (at == std::string::npos) continue;
    std::string package = folder.substr(at + root.size() - 1);
    if (package.find('/') == std::string::npos && package.size() < 3) break;
    for (auto& c : package)
      if (c == '/') c = '.';
    return package;
  }
  std::string name = folder.substr(folder.rfind('/') == std::string::npos ? 0 : folder.rfind('/') + 1);
  std::string title;
  bool upper = true;
  for (char c : name) {
    if (c == '_' || c == '-') {
      title += ' ';
      upper = true;
      continue;
    }
    title += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return title;
}

// Only the library's own files count as users: forty tests importing a module do not
// make it central, forty library files do.
double fileWeight(const FileAnalysis& file, const std::map<std::string, std::string>& topicOf,
                  const std::set<std::string>& library) {
  double outside = 0;
  auto mine = topicOf.find(file.path);
  for (const auto& user : file.usedBy) {
    if (!library.count(user)) continue;
    auto theirs = topicOf.find(user);
    if (theirs == topicOf.end() || mine == topicOf.end() || theirs->second != mine->second) outside += 1;
  }
  // What the rest of the code depends on matters most; size and entry points a little.
  return outside * 5 + static_cast<double>(file.symbols.size()) + static_cast<double>(file.lines) / 100.0 +
         (file.entryPoint ? 2 : 0);
}

// A topic whose own files are still too many (a flat folder): groups of files that
// import each other become subtopics, named after the group; the rest stay in the topic.
void splitByImports(Topic& topic, const Analysis& analysis, std::set<std::string>& usedKeys) {
  auto groups = importCommunities(analysis, topic.files);
  if (groups.size() < 2) return;  // one tangle (or none): a split would say nothing
  std::set<std::string> grouped;
  for (auto& group : groups) {
    std::string name = communityName(analysis, group);
    std::string base = "topic:" + (topic.folder.empty() ? name : topic.folder + "/" + name), key = base;
    for (int n = 2; usedKeys.count(key); ++n) key = base + "-" + std::to_string(n);
    usedKeys.insert(key);
    Topic subtopic;
    subtopic.key = key;
    subtopic.folder = topic.folder;
    subtopic.title = titleOf(name);
    subtopic.files = group;
    grouped.insert(group.begin(), group.end());
    topic.subtopics.push_back(std::move(subtopic));
  }
  std::vector<std::string> rest;
  for (const auto& path : topic.files)
    if (!grouped.count(path)) rest.push_back(path);
  topic.files = std::move(rest);
}

}  // namespace

bool isCodeFile(const FileAnalysis& file) {
  if (file.documentation || file.build || file.language.empty()) return false;
  static const std::set<std::string> data = {"json", "yaml", "toml", "ini", "text", "xml", "markdown", "rst"};
  return !data.count(file.language);
}

bool isLibraryCode(const FileAnalysis& file) { return isCodeFile(file) && isLibraryRole(file.role); }

Plan planTopics(const Analysis& analysis, const PlanOptions& options) {
  Plan plan;
  std::vector<const FileAnalysis*> code;
  std::set<std::string> library;
  for (const auto& file : analysis.files)
    if (isLibraryCode(file)) {
      code.push_back(&file);
      library.insert(file.path);
    }

  // Descend into a folder that holds nearly all the code (src/, lib/<name>/, ...).
  for (int depth = 0; depth < 3; ++depth) {
    std::map<std::string, std::size_t> counts;
    std::size_t inRoot = 0, total = 0;
    for (const auto* f : code) {
      if (!plan.sourceRoot.empty() && f->path.rfind(plan.sourceRoot + "/", 0) != 0) continue;
      std::string rest = plan.sourceRoot.empty() ? f->path : f->path.substr(plan.sourceRoot.size() + 1);
      ++total;
      if (rest.find('/') == std::string::npos) ++inRoot;
      else ++counts[firstSegment(rest)];
    }
    if (total == 0 || counts.size() != 1 || inRoot * 10 > total) break;
    auto& [folder, count] = *counts.begin();
    if (count * 10 < total * 8) break;
    std::size_t subfolders = 0;
    std::set<std::string> seen;
    for (const auto* f : code) {
      std::string prefix = (plan.sourceRoot.empty() ? "" : plan.sourceRoot + "/") + folder + "/";
      if (f->path.rfind(prefix, 0) != 0) continue;
      std::string rest = f->path.substr(prefix.size());
      if (rest.find('/') != std::string::npos && seen.insert(firstSegment(rest)).second) ++subfolders;
    }
    if (subfolders < 2) break;
    plan.sourceRoot = plan.sourceRoot.empty() ? folder : plan.sourceRoot + "/" + folder;
  }

  // Explicit pages from .docs/wiki.json come first and take their files.
  std::set<std::string> assigned;
  nlohmann::json wiki = parseBoundedJson(options.wikiJson.empty() ? "{}" : options.wikiJson);
  if (wiki.is_object()) {
    if (wiki.contains("notes") && wiki["notes"].is_string())
      plan.notes = wiki["notes"].get<std::string>().substr(0, 4000);
    if (wiki.contains("pages") && wiki["pages"].is_array()) {
      int n = 0;
      for (const auto& page : wiki["pages"]) {
        if (!page.is_object() || !page.contains("title") || !page["title"].is_string() || ++n > 100) continue;
        Topic topic;
        topic.title = page["title"].get<std::string>().substr(0, 120);
        topic.key = "topic:wiki/" + std::to_string(n);
        if (page.contains("description") && page["description"].is_string())
          topic.description = page["description"].get<std::string>().substr(0, 2000);
        if (page.contains("files") && page["files"].is_array())
          for (const auto& pattern : page["files"])
            if (pattern.is_string())
              for (const auto* f : code)
                if (!assigned.count(f->path) && globMatch(pattern.get<std::string>(), f->path)) {
                  topic.files.push_back(f->path);
                  assigned.insert(f->path);
                }
        plan.topics.push_back(std::move(topic));
      }
    }
  }

  // Folder topics for the rest.
  std::map<std::string, Topic> byFolder;
  for (const auto* f : code) {
    if (assigned.count(f->path)) continue;
    std::string relative = f->path, prefix;
    if (!plan.sourceRoot.empty() && f->path.rfind(plan.sourceRoot + "/", 0) == 0) {
      prefix = plan.sourceRoot;
      relative = f->path.substr(prefix.size() + 1);
    }
    // Files directly in the source root (or the repository root) form their own topic.
    std::string folder = relative.find('/') == std::string::npos
                             ? prefix
                             : (prefix.empty() ? "" : prefix + "/") + firstSegment(relative);
    Topic& topic = byFolder[folder];
    topic.folder = folder;
    topic.files.push_back(f->path);
  }
  // A folder that only wraps one sub-folder (dist/ holding development/): the topic is
  // the innermost folder that has files of its own or several sub-folders.
  std::map<std::string, Topic> collapsed;
  for (auto& [wrapper, topic] : byFolder) {
    std::string folder = wrapper;
    for (bool wraps = !folder.empty(); wraps;) {
      std::map<std::string, std::size_t> subs;  // sub-folder ("" for files here) -> files
      std::size_t counted = 0;
      for (const auto& path : topic.files) {
        if (path.size() <= folder.size() + 1 || path.compare(0, folder.size() + 1, folder + "/") != 0) continue;
        std::string rest = path.substr(folder.size() + 1);
        // Java's module-info.java and package-info.java describe the folders below: a
        // source root holding only them still wraps its packages (src/main/java/com/...).
        if (rest == "module-info.java" || rest == "package-info.java") continue;
        ++subs[rest.find('/') == std::string::npos ? std::string() : firstSegment(rest)];
        ++counted;
      }
      // One sub-folder, or one holding nine files in ten with at most three beside it
      // (gson's src/main: java/ and a java-templates/ file): the code is in there.
      auto largest =
          std::max_element(subs.begin(), subs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      wraps = largest != subs.end() && !largest->first.empty() &&
              (subs.size() == 1 || (largest->second * 10 >= counted * 9 && counted - largest->second <= 3));
      if (wraps) folder += "/" + largest->first;
    }
    topic.folder = folder;
    collapsed[folder] = std::move(topic);
  }
  byFolder = std::move(collapsed);
  std::set<std::string> usedKeys;
  for (const auto& topic : plan.topics) usedKeys.insert(topic.key);
  for (const auto& [folder, topic] : byFolder) usedKeys.insert("topic:" + (folder.empty() ? std::string(".") : folder));
  for (auto& [folder, topic] : byFolder) {
    topic.key = "topic:" + (folder.empty() ? std::string(".") : folder);
    topic.title = folder.empty() || folder == plan.sourceRoot ? "" : titleOf(folder);
    // Large topics: sub-folders with at least two files become subtopics.
    if (topic.files.size() > options.subtopicThreshold) {
      std::map<std::string, std::vector<std::string>> bySub;
      std::vector<std::string> direct;
      for (const auto& path : topic.files) {
        bool under = folder.empty() ||
                     (path.size() > folder.size() + 1 && path.compare(0, folder.size() + 1, folder + "/") == 0);
        std::string rest = !under ? std::string() : folder.empty() ? path : path.substr(folder.size() + 1);
        if (!under || rest.find('/') == std::string::npos) direct.push_back(path);
        else bySub[folder.empty() ? firstSegment(rest) : folder + "/" + firstSegment(rest)].push_back(path);
      }
      std::vector<std::string> kept = direct;
      for (auto& [sub, files] : bySub) {
        if (files.size() < 2) {
          kept.insert(kept.end(), files.begin(), files.end());
          continue;
        }
        Topic subtopic;
        subtopic.key = "topic:" + sub;
        usedKeys.insert(subtopic.key);
        subtopic.folder = sub;
        subtopic.title = titleOf(sub);
        subtopic.files = files;
        topic.subtopics.push_back(std::move(subtopic));
      }
      if (!topic.subtopics.empty()) topic.files = kept;
    }
    if (topic.files.size() > options.subtopicThreshold) splitByImports(topic, analysis, usedKeys);
    plan.topics.push_back(std::move(topic));
  }

  for (const auto& topic : plan.topics) {
    for (const auto& path : topic.files) plan.topicOfFile[path] = topic.key;
    for (const auto& sub : topic.subtopics)
      for (const auto& path : sub.files) plan.topicOfFile[path] = sub.key;
  }
  // The top-level key of a (sub)topic, for the topic graph.
  std::map<std::string, std::string> topKey;
  for (const auto& topic : plan.topics) {
    topKey[topic.key] = topic.key;
    for (const auto& sub : topic.subtopics) topKey[sub.key] = topic.key;
  }
  for (auto& topic : plan.topics) {
    auto weigh = [&](Topic& t) {
      for (const auto& path : t.files)
        if (const auto* f = analysis.find(path)) t.importance += fileWeight(*f, plan.topicOfFile, library);
    };
    weigh(topic);
    for (auto& sub : topic.subtopics) {
      weigh(sub);
      topic.importance += sub.importance;
    }
    // Implementation packages (`internal`, `impl`, `detail`) come after the API's, however
    // much the rest uses them.
    std::sort(topic.subtopics.begin(), topic.subtopics.end(), [](const Topic& a, const Topic& b) {
      bool aInternal = implementationFolder(a.folder), bInternal = implementationFolder(b.folder);
      if (aInternal != bInternal) return bInternal;
      return a.importance > b.importance;
    });
  }
  std::stable_sort(plan.topics.begin(), plan.topics.end(), [](const Topic& a, const Topic& b) {
    bool aInternal = implementationFolder(a.folder), bInternal = implementationFolder(b.folder);
    if (aInternal != bInternal) return bInternal;
    return a.importance > b.importance;
  });

  // After the library: its examples, the tooling around it, and its tests last; one
  // topic each (files in path order). Generated and vendored code gets no topic.
  for (const auto& [role, key, title] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {kRoleExample, "topic:examples", "Examples"},
           {kRoleTooling, "topic:tooling", "Tooling and scripts"},
           {kRoleTest, "topic:tests", "Tests"}}) {
    Topic topic;
    topic.key = key;
    topic.title = title;
    topic.role = role;
    for (const auto& file : analysis.files)
      if (isCodeFile(file) && file.role == role && !assigned.count(file.path)) topic.files.push_back(file.path);
    if (topic.files.empty()) continue;
    for (const auto& path : topic.files) plan.topicOfFile[path] = topic.key;
    topKey[topic.key] = topic.key;
    plan.topics.push_back(std::move(topic));
  }

  for (const auto& f : analysis.files) {
    if (!library.count(f.path)) continue;  // the diagram is the library's; tests import everything
    auto from = plan.topicOfFile.find(f.path);
    if (from == plan.topicOfFile.end()) continue;
    for (const auto& target : f.dependsOn) {
      auto to = plan.topicOfFile.find(target);
      if (to == plan.topicOfFile.end()) continue;
      const std::string& a = topKey[from->second];
      const std::string& b = topKey[to->second];
      if (a != b) plan.topicGraph[a][b] += 1;
    }
  }

  // Files worth a page of their own: with symbols or some size, most important first within each topic.
  auto addFiles = [&](const Topic& t) {
    std::vector<const FileAnalysis*> files;
    for (const auto& path : t.files)
      if (const auto* f = analysis.find(path); f && (!f->symbols.empty() || f->lines >= 20)) files.push_back(f);
    std::sort(files.begin(), files.end(), [&](const auto* a, const auto* b) {
      return fileWeight(*a, plan.topicOfFile, library) > fileWeight(*b, plan.topicOfFile, library);
    });
    for (const auto* f : files)
      if (plan.filePages.size() < options.maxFilePages) plan.filePages.push_back(f->path);
  };
  for (const auto& topic : plan.topics) {
    addFiles(topic);
    for (const auto& sub : topic.subtopics) addFiles(sub);
  }
  if (!options.sourceRoot.empty()) plan.concepts = rankConcepts(analysis, options.sourceRoot);
  plan.guides = planGuides(analysis, options.sourceRoot);
  linkGuidesToTopics(plan.guides, analysis, plan.topicOfFile, options.sourceRoot);
  plan.readme = rootReadme(analysis);
  if (!plan.readme.empty())
    plan.gettingStarted =
        gettingStartedSections(documentAsMarkdown(plan.readme, readDocumentText(options.sourceRoot, plan.readme)));
  return plan;
}

}  // namespace docs_generation
