#pragma once
// The Documents service: a page's stored content and its log of accepted updates,
// merged for readers, folded into the content in one transaction (docs/services/documents.hpp).

#include <docs/context.hpp>
#include <docs/registry.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/page_history.hpp>

namespace docs_pages {

class DocumentsService final : public docs::Documents {
 public:
  // Declares the PageHistory service it uses (whether collab folds the log).
  explicit DocumentsService(docs::Registry& registry);

  std::optional<std::string> read(std::int64_t pageId) override;
  std::optional<docs::StoredDocument> load(std::int64_t pageId) override;
  std::vector<std::int64_t> append(std::string_view node, const std::vector<docs::LogRow>& rows) override;
  std::vector<docs::LoggedUpdate> readNode(std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                           std::int64_t toId) override;
  std::vector<std::int64_t> pagesWithLog(int limit) override;
  bool fold(
      std::int64_t pageId, std::string_view node, std::int64_t upToId,
      const std::function<std::string(const docs::FoldInput&)>& merge,
      const std::function<void(docs::Tx&, const docs::FoldedRows&, std::string_view storedBefore)>& inSameTx) override;
  std::optional<std::string> lockStored(docs::Tx& tx, std::int64_t pageId) override;
  bool apply(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) override;
  bool replace(std::int64_t pageId, std::string_view document) override;

 private:
  docs::Context& context_;
  docs::ServiceRef<docs::PageHistory> history_;
};

}  // namespace docs_pages
