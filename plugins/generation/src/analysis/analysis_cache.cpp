#include "analysis/analysis_cache.hpp"

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace docs_generation {

namespace {
bool stat(const fs::path& file, std::uintmax_t& size, fs::file_time_type& modified) {
  std::error_code error;
  size = fs::file_size(file, error);
  if (error) return false;
  modified = fs::last_write_time(file, error);
  return !error;
}
}  // namespace

std::shared_ptr<const Analysis> AnalysisCache::read(const fs::path& file) {
  std::uintmax_t size = 0;
  fs::file_time_type modified;
  if (!stat(file, size, modified)) return nullptr;
  {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->file != file) continue;
      if (it->size == size && it->modified == modified) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().analysis;
      }
      entries_.erase(it);  // the file changed under us: parse it again
      break;
    }
  }
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("files")) return nullptr;
  try {
    return std::make_shared<const Analysis>(Analysis::fromJson(json));
  } catch (const nlohmann::json::exception&) {
    return nullptr;  // an older or damaged file: the caller analyses from scratch
  }
}

void AnalysisCache::remember(const fs::path& file, std::shared_ptr<const Analysis> analysis) {
  Entry entry{file, 0, {}, std::move(analysis)};
  if (!entry.analysis || !stat(file, entry.size, entry.modified)) return;
  std::lock_guard lock(mutex_);
  entries_.remove_if([&](const Entry& e) { return e.file == file; });
  entries_.push_front(std::move(entry));
  std::size_t files = 0;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    files += it->analysis->files.size();
    if (files > maxFiles_ && it != entries_.begin()) {
      entries_.erase(it, entries_.end());
      break;
    }
  }
}

}  // namespace docs_generation
