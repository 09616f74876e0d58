#pragma once
// A client for an OpenAI-compatible chat completions endpoint (OpenAI, vLLM, llama.cpp's
// server, Ollama's /v1), shared by the plugins that write with a model (generation, rag).
// Configured by `llm.base_url` (the base, e.g. https://api.openai.com/v1), `llm.api_key`,
// `llm.model`, `llm.timeout_s`, `llm.max_attempts`, `llm.concurrency`,
// `llm.max_input_tokens`; with `llm.base_url` empty no model is configured. The older
// names `model.url`, `model.api_key`, `model.name`, `model.timeout_ms` still work.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace docs {
class Config;
class Registry;
}  // namespace docs

namespace docs::support {

struct ModelSettings {
  std::string url;  // base address; "" = no model
  std::string apiKey;
  std::string model;
  std::chrono::milliseconds timeout{60000};  // per attempt
  int maxAttempts = 3;                       // 429, 5xx and transport errors are retried
  std::chrono::milliseconds retryBase{500};  // doubled per attempt, capped at 8 s
  int maxTokens = 1200;                      // the answer's length
  int concurrency = 1;                       // requests a writer may have open at once
  std::size_t maxInputTokens = 6000;         // per request, estimated as 4 characters a token
  bool configured() const { return !url.empty(); }
};

struct ChatMessage {
  std::string role;  // system | user | assistant
  std::string content;
};

struct ModelReply {
  bool ok = false;
  std::string text;
  std::int64_t promptTokens = 0;
  std::int64_t completionTokens = 0;
  int attempts = 0;
  std::string error;  // why it failed, for logs and the caller's fallback
};

// Declares the llm.* keys and their deprecated model.* names (any plugin may; same
// defaults) and reads them. `deprecatedInUse` receives the old names that are set.
void declareModelKeys(Registry& registry);
ModelSettings modelSettingsFrom(const Config& config, std::vector<std::string>* deprecatedInUse = nullptr);

// A key that was renamed: the old name is declared with an empty default, and its value
// is used while the new key still has its default (the new name wins once set).
struct RenamedKey {
  std::string key;
  std::string oldKey;
  std::string keyDefault;
};
std::string readRenamed(const Config& config, const RenamedKey& renamed,
                        std::vector<std::string>* deprecatedInUse = nullptr);

// Tokens a text costs, estimated (about four characters a token for code and prose).
inline std::size_t estimateTokens(std::size_t characters) { return (characters + 3) / 4; }

ModelReply complete(const ModelSettings& settings, const std::vector<ChatMessage>& messages);

}  // namespace docs::support
