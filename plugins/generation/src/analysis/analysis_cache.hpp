#pragma once
// The last analyses this node wrote, kept in memory so that a sync (and the write stage
// after an analysis) does not parse analysis.json again. An entry is used only while the
// file on disk is the one it was remembered with (same size and modification time).

#include <cstddef>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>

#include "analysis/analysis.hpp"

namespace docs_generation {

class AnalysisCache {
 public:
  // At most `maxFiles` analysed files across all entries (a rough bound on memory).
  explicit AnalysisCache(std::size_t maxFiles = 25000) : maxFiles_(maxFiles) {}
  // The analysis in `file`: from memory when it is current, else parsed (nullptr when the
  // file is missing or unreadable).
  std::shared_ptr<const Analysis> read(const std::filesystem::path& file);
  // `analysis` was just written to `file`.
  void remember(const std::filesystem::path& file, std::shared_ptr<const Analysis> analysis);

 private:
  struct Entry {
    std::filesystem::path file;
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::shared_ptr<const Analysis> analysis;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;  // most recent first
  std::size_t maxFiles_;
};

}  // namespace docs_generation
