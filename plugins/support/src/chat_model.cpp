#include "docs/support/chat_model.hpp"

#include <optional>

#include <docs/config.hpp>
#include <docs/registry.hpp>

#include <algorithm>
#include <thread>

#include <nlohmann/json.hpp>

#include "docs/support/http_client.hpp"

namespace docs::support {

namespace {

const RenamedKey kBaseUrl{"llm.base_url", "model.url", ""};
const RenamedKey kApiKey{"llm.api_key", "model.api_key", ""};
const RenamedKey kModel{"llm.model", "model.name", "gpt-4o-mini"};

}  // namespace

void declareModelKeys(Registry& registry) {
  registry.configKey("llm.base_url", "",
                     "Base address of an OpenAI-compatible API (e.g. https://api.openai.com/v1); empty: no model, the "
                     "offline writer and extractive answers.");
  registry.configKey("llm.api_key", "", "Bearer key for llm.base_url.");
  registry.configKey("llm.model", "gpt-4o-mini", "Model name sent with each request.");
  registry.configKey("llm.timeout_s", "60", "Time allowed for one model request, in seconds.");
  registry.configKey("llm.max_attempts", "3",
                     "Attempts per model request (429, 5xx and transport errors are retried with backoff).");
  registry.configKey("llm.concurrency", "4",
                     "Model requests a writer keeps open at once (file pages written in parallel).");
  registry.configKey("llm.max_input_tokens", "6000",
                     "Input budget per model request (about 4 characters a token); longer sources are sent in chunks.");
  registry.configKey("model.url", "", "Deprecated name of llm.base_url.");
  registry.configKey("model.api_key", "", "Deprecated name of llm.api_key.");
  registry.configKey("model.name", "", "Deprecated name of llm.model.");
  registry.configKey("model.timeout_ms", "", "Deprecated: llm.timeout_s, in milliseconds.");
}

std::string readRenamed(const Config& config, const RenamedKey& renamed, std::vector<std::string>* deprecatedInUse) {
  std::string value = config.getString(renamed.key);
  std::string old = config.getString(renamed.oldKey);
  if (old.empty()) return value;
  if (deprecatedInUse) deprecatedInUse->push_back(renamed.oldKey + " (now " + renamed.key + ")");
  return value == renamed.keyDefault ? old : value;
}

ModelSettings modelSettingsFrom(const Config& config, std::vector<std::string>* deprecatedInUse) {
  ModelSettings settings;
  settings.url = readRenamed(config, kBaseUrl, deprecatedInUse);
  while (!settings.url.empty() && settings.url.back() == '/') settings.url.pop_back();
  settings.apiKey = readRenamed(config, kApiKey, deprecatedInUse);
  settings.model = readRenamed(config, kModel, deprecatedInUse);
  std::int64_t timeoutMs = config.getInt("llm.timeout_s") * 1000;
  if (!config.getString("model.timeout_ms").empty()) {
    if (deprecatedInUse) deprecatedInUse->push_back("model.timeout_ms (now llm.timeout_s)");
    if (config.getString("llm.timeout_s") == "60") timeoutMs = config.getInt("model.timeout_ms");
  }
  settings.timeout = std::chrono::milliseconds(std::max<std::int64_t>(1000, timeoutMs));
  settings.maxAttempts = static_cast<int>(std::clamp<std::int64_t>(config.getInt("llm.max_attempts"), 1, 10));
  settings.concurrency = static_cast<int>(std::clamp<std::int64_t>(config.getInt("llm.concurrency"), 1, 32));
  settings.maxInputTokens =
      static_cast<std::size_t>(std::max<std::int64_t>(500, config.getInt("llm.max_input_tokens")));
  return settings;
}

namespace {

bool retryable(const HttpReply& reply) { return reply.status == 0 || reply.status == 429 || reply.status >= 500; }

// How long the server asks us to wait (Retry-After in seconds; an HTTP date or nothing
// leaves the backoff), at most a minute.
std::optional<std::chrono::milliseconds> retryAfter(const HttpReply& reply) {
  std::string value = reply.header("retry-after");
  if (value.empty() || value.size() > 6 || value.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::chrono::milliseconds(std::min<long long>(std::stoll(value), 60) * 1000);
}

}  // namespace

ModelReply complete(const ModelSettings& settings, const std::vector<ChatMessage>& messages) {
  ModelReply out;
  if (!settings.configured()) {
    out.error = "no model is configured";
    return out;
  }
  nlohmann::json body = {{"model", settings.model},
                         {"temperature", 0},
                         {"max_tokens", settings.maxTokens},
                         {"messages", nlohmann::json::array()}};
  for (const auto& message : messages)
    body["messages"].push_back({{"role", message.role}, {"content", message.content}});
  HttpCall call;
  call.method = "POST";
  call.url = settings.url + "/chat/completions";
  call.headers = {{"Content-Type", "application/json"}};
  if (!settings.apiKey.empty()) call.headers.emplace_back("Authorization", "Bearer " + settings.apiKey);
  call.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  call.timeout = settings.timeout;

  auto wait = settings.retryBase;
  for (out.attempts = 1;; ++out.attempts) {
    HttpReply reply = httpCall(call);
    if (reply.status == 200) {
      auto json = nlohmann::json::parse(reply.body, nullptr, false);
      const nlohmann::json* content = nullptr;
      if (!json.is_discarded() && json.is_object() && json.contains("choices") && json["choices"].is_array() &&
          !json["choices"].empty() && json["choices"][0].is_object() && json["choices"][0].contains("message") &&
          json["choices"][0]["message"].is_object() && json["choices"][0]["message"].contains("content"))
        content = &json["choices"][0]["message"]["content"];
      if (!content || !content->is_string()) {
        out.error = "the model's answer is not a chat completion";
        return out;  // a server that answers malformed JSON will do so again
      }
      out.ok = true;
      out.text = content->get<std::string>();
      if (json.contains("usage") && json["usage"].is_object()) {
        const auto& usage = json["usage"];
        if (usage.contains("prompt_tokens") && usage["prompt_tokens"].is_number_integer())
          out.promptTokens = usage["prompt_tokens"].get<std::int64_t>();
        if (usage.contains("completion_tokens") && usage["completion_tokens"].is_number_integer())
          out.completionTokens = usage["completion_tokens"].get<std::int64_t>();
      }
      return out;
    }
    out.error = reply.status == 0 ? "model request failed: " + reply.error
                                  : "model answered HTTP " + std::to_string(reply.status);
    if (!retryable(reply) || out.attempts >= settings.maxAttempts) return out;
    // The server's own wait when it names one (a rate limit), else exponential backoff.
    auto asked = retryAfter(reply);
    std::this_thread::sleep_for(asked ? *asked : std::min(wait, std::chrono::milliseconds(8000)));
    wait *= 2;
  }
}

}  // namespace docs::support
