#pragma once
// A client for an OpenAI-compatible chat completions endpoint (OpenAI, vLLM, llama.cpp's
// server, Ollama's /v1), shared by the plugins that write with a model (generation, rag).
// Configured by `model.url` (the base, e.g. https://api.openai.com/v1), `model.api_key`,
// `model.name`, `model.timeout_ms`; with `model.url` empty no model is configured.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace docs {
class Config;
class Registry;
}  // namespace docs

namespace docs::support {

struct ModelSettings {
  std::string url;        // base address; "" = no model
  std::string apiKey;
  std::string model;
  std::chrono::milliseconds timeout{60000};   // per attempt
  int maxAttempts = 3;                        // 429, 5xx and transport errors are retried
  std::chrono::milliseconds retryBase{500};   // doubled per attempt, capped at 8 s
  int maxTokens = 1200;
  bool configured() const { return !url.empty(); }
};

struct ChatMessage {
  std::string role;     // system | user | assistant
  std::string content;
};

struct ModelReply {
  bool ok = false;
  std::string text;
  std::int64_t promptTokens = 0;
  std::int64_t completionTokens = 0;
  int attempts = 0;
  std::string error;    // why it failed, for logs and the caller's fallback
};

// Declares the model.* keys (any plugin may; same defaults) and reads them.
void declareModelKeys(Registry& registry);
ModelSettings modelSettingsFrom(const Config& config);

ModelReply complete(const ModelSettings& settings, const std::vector<ChatMessage>& messages);

}  // namespace docs::support
