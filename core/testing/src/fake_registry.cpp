#include <docs/testing/fake_registry.hpp>

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "route_match.hpp"

namespace docs::testing {

namespace {

// A whole body handed to a streaming route, in the pieces the handler asks for.
class StringBodyReader final : public BodyReader {
 public:
  explicit StringBodyReader(const std::string& body) : body_(body) {}
  std::size_t read(char* buffer, std::size_t size) override {
    std::size_t n = std::min(size, body_.size() - offset_);
    body_.copy(buffer, n, offset_);
    offset_ += n;
    return n;
  }

 private:
  const std::string& body_;
  std::size_t offset_ = 0;
};

class FakeJobContext final : public JobContext {
 public:
  FakeJobContext(std::int64_t id, int attempt, const Json& payload) : id_(id), attempt_(attempt), payload_(payload) {}
  std::int64_t id() const override { return id_; }
  int attempt() const override { return attempt_; }
  const Json& payload() const override { return payload_; }
  void heartbeat() override {}
  bool stopping() const override { return false; }

 private:
  std::int64_t id_;
  int attempt_;
  const Json& payload_;
};

// The same shape: equal literals and parameters at the same places (names aside).
bool sameShape(const std::string& a, const std::string& b) {
  auto left = pathSegments(a), right = pathSegments(b);
  if (left.size() != right.size()) return false;
  for (std::size_t i = 0; i < left.size(); ++i) {
    bool pa = isParamSegment(left[i]), pb = isParamSegment(right[i]);
    if (pa != pb || (!pa && left[i] != right[i])) return false;
  }
  return true;
}

bool isCoreClientKey(std::string_view key) {
  return key == "mode" || key == "features" || key == "apiUrl" || key == "contactEmail";
}

// Keeps delivering (or running) what the plugin produces while it produces more; a plugin
// that answers each event with another forever would otherwise hang the test.
constexpr int kMaxRounds = 1000;

}  // namespace

void FakeRegistry::route(Method method, std::string pathTemplate, Handler handler, RouteOptions options, RouteDoc doc) {
  if (pathTemplate.empty() || pathTemplate.front() != '/')
    throw std::invalid_argument("route template must start with '/': " + pathTemplate);
  for (const auto& existing : routes_)
    if (existing.method == method && sameShape(existing.pathTemplate, pathTemplate))
      throw std::invalid_argument("route " + std::string(methodName(method)) + " " + pathTemplate + " clashes with " +
                                  existing.pathTemplate);
  routes_.push_back({method, std::move(pathTemplate), std::move(handler), options, std::move(doc)});
}

void FakeRegistry::websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options) {
  websockets_.push_back({std::move(path), std::move(acceptor), options});
}

void FakeRegistry::migration(int version, std::string name, std::string sql) {
  for (const auto& existing : migrations_)
    if (existing.version == version)
      throw std::invalid_argument("migration " + std::to_string(version) + " is declared twice");
  migrations_.push_back({version, std::move(name), std::move(sql)});
}

void FakeRegistry::jobHandler(std::string kind, JobHandler handler) {
  if (!jobHandlers_.emplace(kind, std::move(handler)).second)
    throw std::invalid_argument("job kind " + kind + " has two handlers");
}

void FakeRegistry::periodic(std::string name, PeriodicOptions options, std::function<void()> task) {
  periodics_.push_back({std::move(name), options, std::move(task)});
}

void FakeRegistry::subscribe(std::string topic, EventHandler handler) {
  subscriptions_.push_back({std::move(topic), std::move(handler)});
}

void FakeRegistry::configKey(std::string key, std::string defaultValue, std::string description) {
  context_.settings().declare(key, defaultValue);
  configKeys_.push_back({std::move(key), std::move(defaultValue), std::move(description)});
}

void FakeRegistry::command(Command command) {
  if (!command.run) throw std::invalid_argument("command " + command.name + " has no run");
  for (const auto& existing : commands_)
    if (existing.name == command.name) throw std::invalid_argument("command " + command.name + " is declared twice");
  commands_.push_back(std::move(command));
}

void FakeRegistry::clientEndpoint(ClientEndpoint endpoint) {
  auto keys = clientSettingKeys();
  if (isCoreClientKey(endpoint.key) || std::find(keys.begin(), keys.end(), endpoint.key) != keys.end() ||
      std::any_of(clientEndpoints_.begin(), clientEndpoints_.end(),
                  [&](const auto& e) { return e.key == endpoint.key; }))
    throw std::invalid_argument("/config.json key " + endpoint.key + " is docsd's own or declared twice");
  clientEndpoints_.push_back(std::move(endpoint));
}

void FakeRegistry::clientSetting(std::string key, std::function<Json()> value) {
  auto keys = clientSettingKeys();
  if (isCoreClientKey(key) || !value || std::find(keys.begin(), keys.end(), key) != keys.end() ||
      std::any_of(clientEndpoints_.begin(), clientEndpoints_.end(), [&](const auto& e) { return e.key == key; }))
    throw std::invalid_argument("/config.json key " + key + " is docsd's own, declared twice or has no value");
  clientSettings_.emplace_back(std::move(key), std::move(value));
}

void FakeRegistry::apiPrefix(std::string prefix) {
  if (prefix.size() < 3 || prefix.front() != '/' || prefix.back() != '/' || prefix.find("//") != std::string::npos)
    throw std::invalid_argument("API prefix '" + prefix + "': it starts and ends with '/' and names a path");
  if (std::find(apiPrefixes_.begin(), apiPrefixes_.end(), prefix) == apiPrefixes_.end())
    apiPrefixes_.push_back(std::move(prefix));
}

void FakeRegistry::provideServiceById(std::string id, void* service) {
  if (!service) throw std::invalid_argument("a null service " + id);
  if (!provided_.emplace(id, service).second) throw std::invalid_argument("service " + id + " is provided twice");
}

void FakeRegistry::needServiceById(std::string id, ServiceNeed need, ServiceSlot& slot) {
  if (id.empty()) throw std::invalid_argument("a needed service with an empty id");
  needs_.push_back({std::move(id), need, &slot});
}

const RecordedRoute* FakeRegistry::findRoute(Method method, std::string_view pathTemplate) const {
  for (const auto& route : routes_)
    if (route.method == method && route.pathTemplate == pathTemplate) return &route;
  return nullptr;
}

const RecordedConfigKey* FakeRegistry::findConfigKey(std::string_view key) const {
  for (const auto& declared : configKeys_)
    if (declared.key == key) return &declared;
  return nullptr;
}

std::vector<std::string> FakeRegistry::clientSettingKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, value] : clientSettings_) keys.push_back(key);
  return keys;
}

Json FakeRegistry::clientSettingValue(std::string_view key) const {
  for (const auto& [declared, value] : clientSettings_)
    if (declared == key) return value();
  throw std::out_of_range("no clientSetting " + std::string(key));
}

void FakeRegistry::resolve() {
  std::string missing;
  for (const auto& need : needs_) {
    void* service = nullptr;
    if (auto given = testServices_.find(need.id); given != testServices_.end()) service = given->second;
    else if (auto own = provided_.find(need.id); own != provided_.end()) service = own->second;
    if (!service && need.need == ServiceNeed::Required) missing += (missing.empty() ? "" : ", ") + need.id;
    need.slot->service = service;
    need.slot->resolved = true;
  }
  if (!missing.empty())
    throw std::logic_error("plugin " + context_.pluginName() + " requires " + missing +
                           ", which the test did not provide (FakeRegistry::provide)");
}

Answer FakeRegistry::call(Method method, std::string_view target, std::string body, const CallOptions& options) {
  auto question = target.find('?');
  std::string path(target.substr(0, question));
  std::string rawQuery = question == std::string_view::npos ? "" : std::string(target.substr(question + 1));
  std::string requestId = "fake-" + std::to_string(++requests_);
  Response response;
  Answer answer;
  try {
    auto choice = chooseRoute(routes_, method, path);
    if (!choice.route) {
      std::string name(methodName(method));
      if (choice.allowed.empty()) throw HttpError::notFound("No route for " + name + " " + path);
      std::string allow;
      for (Method m : choice.allowed) allow += (allow.empty() ? "" : ", ") + std::string(methodName(m));
      response.setHeader("Allow", allow);
      throw HttpError(405, "method_not_allowed", "Method " + name + " is not allowed here");
    }
    const RecordedRoute& route = *choice.route;
    if (body.size() > route.options.maxBodyBytes)
      throw HttpError::payloadTooLarge("Request body is larger than " + std::to_string(route.options.maxBodyBytes) +
                                       " bytes");
    StringBodyReader reader(body);
    Request::Init init;
    init.method = method;
    init.path = path;
    init.rawQuery = rawQuery;
    init.host = options.host;
    init.scheme = options.scheme;
    init.remoteAddress = options.remoteAddress;
    init.requestId = requestId;
    init.headers = options.headers;
    if (route.options.streamBody) init.bodyReader = &reader;
    else init.body = std::move(body);  // the reader is not used then
    init.resolvePrincipal = [principal = options.principal] { return principal; };
    Request request(std::move(init));
    request.setPathParams(std::move(choice.params));
    route.handler(request, response);
  } catch (const HttpError& error) {
    response.json(errorBody(error.code(), error.what(), requestId), error.status());
  } catch (const std::exception& error) {
    response.json(errorBody("internal", "Internal server error", requestId), 500);
    answer.failure = error.what();
  }
  answer.status = response.status();
  answer.headers = response.headers();
  answer.body = response.body();
  answer.filePath = response.filePath();
  return answer;
}

std::size_t FakeRegistry::deliver(std::string_view topic, const Json& payload) {
  std::size_t ran = 0;
  for (const auto& subscription : subscriptions_) {
    if (subscription.topic != topic) continue;
    subscription.handler(payload);
    ++ran;
  }
  return ran;
}

std::size_t FakeRegistry::deliverPublished() {
  std::size_t taken = 0;
  for (int round = 0; round < kMaxRounds; ++round) {
    auto events = context_.events().take();
    if (events.empty()) return taken;
    for (const auto& event : events) deliver(event.topic, event.payload);
    taken += events.size();
  }
  throw std::logic_error("plugin " + context_.pluginName() + " keeps publishing events as it receives them");
}

void FakeRegistry::runJob(std::string_view kind, const Json& payload, int attempt) {
  auto handler = jobHandlers_.find(kind);
  if (handler == jobHandlers_.end()) throw std::out_of_range("no job handler for " + std::string(kind));
  FakeJobContext job(0, attempt, payload);
  handler->second(job);
}

std::size_t FakeRegistry::runEnqueuedJobs() {
  std::size_t ran = 0;
  for (int round = 0; round < kMaxRounds; ++round) {
    auto jobs = context_.jobs().take();
    if (jobs.empty()) return ran;
    for (const auto& job : jobs) {
      auto handler = jobHandlers_.find(job.spec.kind);
      if (handler == jobHandlers_.end()) throw std::out_of_range("no job handler for " + job.spec.kind);
      FakeJobContext context(job.id, 1, job.spec.payload);
      handler->second(context);
      ++ran;
    }
  }
  throw std::logic_error("plugin " + context_.pluginName() + " keeps enqueuing jobs as it runs them");
}

void FakeRegistry::runPeriodic(std::string_view name) {
  for (const auto& task : periodics_)
    if (task.name == name) return task.task();
  throw std::out_of_range("no periodic task " + std::string(name));
}

int FakeRegistry::runCommand(std::string_view name, const std::vector<std::string>& args, std::ostream& out,
                             std::ostream& err) {
  for (const auto& declared : commands_)
    if (declared.name == name) return declared.run(args, out, err);
  throw std::out_of_range("no command " + std::string(name));
}

std::optional<std::string> Answer::header(std::string_view name) const {
  auto lower = [](std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
  };
  for (const auto& [key, value] : headers)
    if (lower(key) == lower(name)) return value;
  return std::nullopt;
}

Json Answer::json() const {
  Json value = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded())
    throw std::runtime_error("the answer (" + std::to_string(status) + ") is not JSON: " + body);
  return value;
}

std::string Answer::errorCode() const {
  Json value = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (value.is_object() && value.contains("error") && value["error"].is_object())
    return value["error"].value("code", "");
  return {};
}

}  // namespace docs::testing
