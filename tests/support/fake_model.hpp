#pragma once
// A local OpenAI-compatible chat completions server for tests of the model paths
// (generation's writer, rag's answers): POST /v1/chat/completions answers from a script
// of replies (status, body, delay), then from a default; every request body is kept.
// Use url() as `llm.base_url`.

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace Poco {
class ThreadPool;
}
namespace Poco::Net {
class HTTPServer;
}

namespace docs::test {

struct ModelReplyScript {
  int status = 200;
  std::string body;  // sent as is (may be malformed on purpose)
  std::chrono::milliseconds delay{0};
  std::vector<std::pair<std::string, std::string>> headers = {};  // extra response headers (Retry-After)
};

class FakeModel {
 public:
  FakeModel();
  ~FakeModel();
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

  // A well-formed completion whose message content is `text`.
  static ModelReplyScript answer(const std::string& text, int promptTokens = 100, int completionTokens = 50);
  void enqueue(ModelReplyScript reply);
  void setDefault(ModelReplyScript reply);
  std::vector<nlohmann::json> requests();
  // The most requests that were being answered at the same time.
  int maxConcurrent();
  // How many connections the requests came on (a client that keeps its connection: 1).
  int connections();
  // When each request arrived, in order.
  std::vector<std::chrono::steady_clock::time_point> arrivals();

  struct State;

 private:
  std::shared_ptr<State> state_;
  // Its own workers, joined by the destructor: a reply still being sent must not outlive
  // the test (at exit it would meet POCO's static buffer pools being destroyed).
  std::unique_ptr<Poco::ThreadPool> workers_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  int port_ = 0;
};

}  // namespace docs::test
