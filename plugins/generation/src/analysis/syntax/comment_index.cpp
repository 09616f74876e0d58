#include "analysis/syntax/comment_index.hpp"

#include <algorithm>

namespace docs_generation::syntax {

namespace {
constexpr std::size_t kMaxNodes = 400000;  // a generated file's tree is not walked whole
}

CommentIndex::CommentIndex(const Node& root, std::string_view commentType) {
  if (root) source_ = std::string_view(root.text().data() - root.startByte(), root.endByte());
  std::vector<Node> pending = {root};
  std::size_t visited = 0;
  while (!pending.empty() && ++visited < kMaxNodes) {
    Node node = pending.back();
    pending.pop_back();
    if (node.type() == commentType) {
      comments_.push_back(node);
      continue;
    }
    auto children = node.namedChildren();
    for (auto it = children.rbegin(); it != children.rend(); ++it) pending.push_back(*it);
  }
  std::sort(comments_.begin(), comments_.end(),
            [](const Node& a, const Node& b) { return a.startByte() < b.startByte(); });
}

bool CommentIndex::startsItsLine(const Node& comment) const {
  std::uint32_t at = comment.startByte();
  while (at > 0 && at <= source_.size()) {
    char c = source_[at - 1];
    if (c == '\n') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
    --at;
  }
  return true;
}

std::vector<Node> CommentIndex::runAbove(int line) const {
  // The last comment ending before `line`.
  auto after = std::lower_bound(comments_.begin(), comments_.end(), line,
                                [](const Node& c, int l) { return c.startLine() < l; });
  std::vector<Node> run;
  int expected = line - 1;
  for (auto it = std::make_reverse_iterator(after); it != comments_.rend() && run.size() < 400; ++it) {
    if (it->endLine() != expected && !(run.empty() && it->endLine() == line)) break;
    if (!startsItsLine(*it)) break;
    run.push_back(*it);
    expected = it->startLine() - 1;
  }
  std::reverse(run.begin(), run.end());
  return run;
}

Node CommentIndex::trailing(int line) const {
  auto at = std::lower_bound(comments_.begin(), comments_.end(), line,
                             [](const Node& c, int l) { return c.startLine() < l; });
  for (; at != comments_.end() && at->startLine() == line; ++at)
    if (!startsItsLine(*at)) return *at;
  return {};
}

}  // namespace docs_generation::syntax
