#pragma once
// Where a pipeline run's pages go: Markdown files (`docsd generate`, markdown_sink.hpp) or
// the project's pages on the server (server_sink.hpp).

#include <functional>
#include <string>
#include <vector>

#include "writing/offline_writer.hpp"

namespace docs_generation {

class PageSink {
 public:
  virtual ~PageSink() = default;
  // Every planned page, parents before children, before any is written: the sink makes
  // room for the ones it will write (their folders, their pages), so pages can link to
  // each other.
  virtual void prepare(const std::vector<PageDraft>& pages) = 0;
  // Whether this run writes `page` (a sync rewrites only what changed). After prepare.
  virtual bool wants(const PageDraft& page) const = 0;
  // The link from page `fromKey` to page `toKey`; "" when `toKey` has no page.
  virtual std::string href(const std::string& fromKey, const std::string& toKey) const = 0;
  // Stores one page; `compose` fills in its content (a sink may keep a page without it:
  // a person edited it). Called from several threads at once when a model writes.
  virtual void store(PageDraft& page, const std::function<void(PageDraft&)>& compose) = 0;
  // Every wanted page is stored; `pages` is the whole plan.
  virtual void finish(const std::vector<PageDraft>& pages) = 0;
};

}  // namespace docs_generation
