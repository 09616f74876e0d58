// A test plugin whose job edits a page through DocumentEditor until docsd stops, and on
// past the stop deadline, while collab stops under it: collab must refuse the edit that
// comes after its stop() began instead of blocking the job forever.
#include <docs/context.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>
#include <docs/plugin.hpp>
#include <docs/services/document_editor.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace {

constexpr const char* kJob = "late_editor.edit";

class LateEditor final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.require(editor_);
    registry.route(docs::Method::Post, "/api/late_editor/edit",
                   [this](docs::Request& request, docs::Response& response) {
                     auto pageId = request.jsonObject().value("page_id", std::int64_t{0});
                     response.json({{"job", context_->jobs().enqueue({kJob, {{"page_id", pageId}}, 1})}}, 202);
                   });
    registry.jobHandler(kJob, [this](docs::JobContext& job) { edit(job); });
  }

 private:
  // Appends a paragraph every few milliseconds; after the stop began, for at most a minute.
  void edit(docs::JobContext& job) {
    const auto pageId = job.payload().at("page_id").get<std::int64_t>();
    std::optional<std::chrono::steady_clock::time_point> stopSeen;
    for (int n = 1;; ++n) {
      if (!stopSeen && job.stopping()) stopSeen = std::chrono::steady_clock::now();
      if (stopSeen && std::chrono::steady_clock::now() - *stopSeen > std::chrono::minutes(1)) {
        context_->logger().error("late editor: never refused");
        return;
      }
      auto state = editor_->currentState(pageId);
      if (!state) return;
      docs::ydoc::Doc doc(4343);
      doc.applyUpdate(docs::ydoc::Bytes(state->begin(), state->end()));
      auto before = doc.encodeStateVector();
      docs::ydoc::appendProseMirrorJson(
          doc, {{"type", "doc"},
                {"content",
                 {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "late " + std::to_string(n)}}}}}}}});
      auto update = doc.encodeStateAsUpdate(before);
      try {
        editor_->applyUpdate(pageId, std::string_view(reinterpret_cast<const char*>(update.data()), update.size()));
      } catch (const std::exception& error) {
        context_->logger().warn("late editor: edit refused",
                                {{"error", error.what()}, {"after_stop", stopSeen.has_value()}});
        return;
      }
      if (n == 1) context_->logger().info("late editor: first edit applied");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // paces the edits
    }
  }

  docs::Context* context_ = nullptr;
  docs::ServiceRef<docs::DocumentEditor> editor_;
};

}  // namespace

DOCS_PLUGIN(LateEditor, "late_editor", "1.0.0", "", "Test: a job that edits pages through the stop")
