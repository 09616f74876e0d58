#include "fake_model.hpp"

#include <set>

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/ThreadPool.h>

#include <algorithm>
#include <condition_variable>
#include <sstream>

namespace docs::test {

struct FakeModel::State {
  std::mutex mutex;
  std::condition_variable stopped;  // cuts a scripted delay short when the fake stops
  bool stopping = false;
  std::deque<ModelReplyScript> script;
  ModelReplyScript fallback = FakeModel::answer("I have no scripted answer.");
  std::vector<nlohmann::json> requests;
  int inFlight = 0;
  int maxInFlight = 0;
  std::set<std::string> clients;  // "address:port" of each connection seen
  std::vector<std::chrono::steady_clock::time_point> arrivals;
};

namespace {

class Handler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(std::shared_ptr<FakeModel::State> state) : state_(std::move(state)) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    std::stringstream body;
    body << request.stream().rdbuf();
    ModelReplyScript reply;
    {
      std::lock_guard lock(state_->mutex);
      state_->maxInFlight = std::max(state_->maxInFlight, ++state_->inFlight);
      state_->clients.insert(request.clientAddress().toString());
      state_->arrivals.push_back(std::chrono::steady_clock::now());
      auto parsed = nlohmann::json::parse(body.str(), nullptr, false);
      state_->requests.push_back(parsed.is_discarded() ? nlohmann::json(body.str()) : parsed);
      if (request.getURI() != "/v1/chat/completions" || request.getMethod() != "POST") {
        reply = {404, R"({"error":{"message":"not found"}})", {}};
      } else if (!state_->script.empty()) {
        reply = state_->script.front();
        state_->script.pop_front();
      } else {
        reply = state_->fallback;
      }
    }
    {
      std::unique_lock lock(state_->mutex);
      if (reply.delay.count() > 0) state_->stopped.wait_for(lock, reply.delay, [this] { return state_->stopping; });
      --state_->inFlight;
    }
    response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
    response.setContentType("application/json");
    for (const auto& [name, value] : reply.headers) response.set(name, value);
    response.setContentLength(static_cast<std::streamsize>(reply.body.size()));
    response.send() << reply.body;
  }

 private:
  std::shared_ptr<FakeModel::State> state_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::shared_ptr<FakeModel::State> state) : state_(std::move(state)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new Handler(state_);
  }

 private:
  std::shared_ptr<FakeModel::State> state_;
};

}  // namespace

FakeModel::FakeModel() : state_(std::make_shared<State>()) {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  workers_ = std::make_unique<Poco::ThreadPool>(2, 16);
  server_ =
      std::make_unique<Poco::Net::HTTPServer>(new Factory(state_), *workers_, socket, new Poco::Net::HTTPServerParams);
  server_->start();
}

FakeModel::~FakeModel() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->stopped.notify_all();
  server_->stopAll(true);
  workers_->joinAll();
  server_.reset();
}

int FakeModel::connections() {
  std::lock_guard lock(state_->mutex);
  return static_cast<int>(state_->clients.size());
}

std::vector<std::chrono::steady_clock::time_point> FakeModel::arrivals() {
  std::lock_guard lock(state_->mutex);
  return state_->arrivals;
}

ModelReplyScript FakeModel::answer(const std::string& text, int promptTokens, int completionTokens) {
  nlohmann::json body = {
      {"id", "chatcmpl-test"},
      {"object", "chat.completion"},
      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", "stop"}}}},
      {"usage",
       {{"prompt_tokens", promptTokens},
        {"completion_tokens", completionTokens},
        {"total_tokens", promptTokens + completionTokens}}}};
  return {200, body.dump(), {}};
}

void FakeModel::enqueue(ModelReplyScript reply) {
  std::lock_guard lock(state_->mutex);
  state_->script.push_back(std::move(reply));
}

void FakeModel::setDefault(ModelReplyScript reply) {
  std::lock_guard lock(state_->mutex);
  state_->fallback = std::move(reply);
}

std::vector<nlohmann::json> FakeModel::requests() {
  std::lock_guard lock(state_->mutex);
  return state_->requests;
}

int FakeModel::maxConcurrent() {
  std::lock_guard lock(state_->mutex);
  return state_->maxInFlight;
}

}  // namespace docs::test
