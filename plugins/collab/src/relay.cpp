#include "relay.hpp"

#include <docs/codec/codec.hpp>

#include <algorithm>
#include <stdexcept>

namespace docs_collab::relay {
namespace {

using nlohmann::json;

// Bytes travel in the notices' JSON as "\x" + hex (the form bytea had in the notices
// of earlier releases, which this one still reads).
std::string toHex(std::string_view bytes) { return "\\x" + docs::codec::hexEncode(bytes); }

std::optional<std::string> fromHex(std::string_view text) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') return std::nullopt;
  return docs::codec::hexDecode(text.substr(2));
}

json originJson(const Origin& origin) {
  return {{"project_id", origin.projectId}, {"page_id", origin.pageId}, {"node", origin.node}};
}

std::optional<Origin> originOf(const json& payload) {
  if (!payload.is_object()) return std::nullopt;
  auto project = payload.find("project_id");
  auto page = payload.find("page_id");
  auto node = payload.find("node");
  if (project == payload.end() || page == payload.end() || node == payload.end()) return std::nullopt;
  if (!project->is_number_integer() || !page->is_number_integer() || !node->is_string()) return std::nullopt;
  Origin origin{project->get<std::int64_t>(), page->get<std::int64_t>(), node->get<std::string>()};
  if (origin.projectId <= 0 || origin.pageId <= 0 || origin.node.empty()) return std::nullopt;
  return origin;
}

std::optional<std::string> bytesOf(const json& value) {
  if (!value.is_string()) return std::nullopt;
  return fromHex(value.get_ref<const std::string&>());
}

}  // namespace

json encode(const RoomNotice& notice) {
  auto out = originJson(notice.origin);
  out["open"] = notice.open;
  out["reply"] = notice.reply;
  return out;
}

json encode(const UpdatesNotice& notice) {
  auto out = originJson(notice.origin);
  if (!notice.updates.empty()) {
    auto& list = out["updates"] = json::array();
    for (const auto& update : notice.updates) list.push_back(toHex(update));
  } else {
    out["from_id"] = notice.fromId;
    out["to_id"] = notice.toId;
  }
  if (notice.sentMs > 0) out["sent_ms"] = notice.sentMs;
  return out;
}

json encode(const AwarenessNotice& notice) {
  auto out = originJson(notice.origin);
  out["update"] = toHex(notice.update);
  return out;
}

std::optional<RoomNotice> decodeRoom(const json& payload) {
  auto origin = originOf(payload);
  if (!origin) return std::nullopt;
  auto open = payload.find("open");
  if (open == payload.end() || !open->is_boolean()) return std::nullopt;
  auto reply = payload.find("reply");
  return RoomNotice{*origin, open->get<bool>(), reply != payload.end() && reply->is_boolean() && reply->get<bool>()};
}

std::optional<UpdatesNotice> decodeUpdates(const json& payload) {
  auto origin = originOf(payload);
  if (!origin) return std::nullopt;
  UpdatesNotice notice{*origin, {}, 0, 0, 0};
  if (auto sent = payload.find("sent_ms"); sent != payload.end() && sent->is_number_integer())
    notice.sentMs = std::max<std::int64_t>(0, sent->get<std::int64_t>());
  if (auto updates = payload.find("updates"); updates != payload.end()) {
    if (!updates->is_array() || updates->empty()) return std::nullopt;
    for (const auto& item : *updates) {
      auto bytes = bytesOf(item);
      if (!bytes) return std::nullopt;
      notice.updates.push_back(std::move(*bytes));
    }
    return notice;
  }
  auto from = payload.find("from_id");
  auto to = payload.find("to_id");
  if (from == payload.end() || to == payload.end() || !from->is_number_integer() || !to->is_number_integer())
    return std::nullopt;
  notice.fromId = from->get<std::int64_t>();
  notice.toId = to->get<std::int64_t>();
  if (notice.fromId <= 0 || notice.toId < notice.fromId) return std::nullopt;
  return notice;
}

std::optional<AwarenessNotice> decodeAwareness(const json& payload) {
  auto origin = originOf(payload);
  if (!origin) return std::nullopt;
  auto update = payload.find("update");
  if (update == payload.end()) return std::nullopt;
  auto bytes = bytesOf(*update);
  if (!bytes || bytes->empty()) return std::nullopt;
  return AwarenessNotice{*origin, std::move(*bytes)};
}

UpdatesNotice updatesNotice(Origin origin, const std::vector<std::string_view>& updates,
                            const std::vector<std::int64_t>& ids) {
  if (updates.size() != ids.size() || updates.empty()) throw std::invalid_argument("one log id per update");
  UpdatesNotice notice{std::move(origin), {}, 0, 0, 0};
  std::size_t chars = 0;
  for (auto update : updates) chars += 2 * update.size() + 8;  // "\\x", hex, quotes, comma
  if (chars <= kMaxInlineChars) {
    notice.updates.assign(updates.begin(), updates.end());
  } else {
    notice.fromId = *std::min_element(ids.begin(), ids.end());
    notice.toId = *std::max_element(ids.begin(), ids.end());
  }
  return notice;
}

}  // namespace docs_collab::relay
