#include "docs/support/chat_model.hpp"

#include <docs/config.hpp>
#include <docs/registry.hpp>

#include <algorithm>
#include <thread>

#include <nlohmann/json.hpp>

#include "docs/support/http_client.hpp"

namespace docs::support {

void declareModelKeys(Registry& registry) {
  registry.configKey("model.url", "", "Base address of an OpenAI-compatible API (e.g. https://api.openai.com/v1); empty: no model, the offline writer and extractive answers.");
  registry.configKey("model.api_key", "", "Bearer key for model.url.");
  registry.configKey("model.name", "gpt-4o-mini", "Model name sent with each request.");
  registry.configKey("model.timeout_ms", "60000", "Time allowed for one model request.");
}

ModelSettings modelSettingsFrom(const Config& config) {
  ModelSettings settings;
  settings.url = config.getString("model.url");
  while (!settings.url.empty() && settings.url.back() == '/') settings.url.pop_back();
  settings.apiKey = config.getString("model.api_key");
  settings.model = config.getString("model.name");
  settings.timeout = std::chrono::milliseconds(std::max<std::int64_t>(1000, config.getInt("model.timeout_ms")));
  return settings;
}

namespace {

bool retryable(const HttpReply& reply) { return reply.status == 0 || reply.status == 429 || reply.status >= 500; }

}  // namespace

ModelReply complete(const ModelSettings& settings, const std::vector<ChatMessage>& messages) {
  ModelReply out;
  if (!settings.configured()) {
    out.error = "no model is configured";
    return out;
  }
  nlohmann::json body = {{"model", settings.model}, {"temperature", 0}, {"max_tokens", settings.maxTokens},
                         {"messages", nlohmann::json::array()}};
  for (const auto& message : messages) body["messages"].push_back({{"role", message.role}, {"content", message.content}});
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
    std::this_thread::sleep_for(std::min(wait, std::chrono::milliseconds(8000)));
    wait *= 2;
  }
}

}  // namespace docs::support
