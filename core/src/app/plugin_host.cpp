#include "app/plugin_host.hpp"

#include <cctype>

#include "http/openapi.hpp"
#include "log/logging.hpp"

namespace docs::core {

bool isCoreCommand(std::string_view name) {
  for (const char* core : {"serve", "migrate", "plugins", "postgres", "ydoc", "help", "version", "config"})
    if (name == core) return true;
  return false;
}

PluginContext::PluginContext(std::string pluginName, HostState& state)
    : name_(std::move(pluginName)), state_(state), logger_(makeLogger(name_)) {}

const Config& PluginContext::config() const { return *state_.config; }

namespace {

[[noreturn]] void usedTooEarly(const std::string& plugin, const char* what, const HostState& state) {
  throw std::logic_error("plugin " + plugin + " used " + what +
                         (state.commandRuns ? ", which this docsd command does not open" : " during configure()"));
}

}  // namespace

Db& DeferredDb::target() {
  if (!state_.db) usedTooEarly(plugin_, "the database", state_);
  return *state_.db;
}
Result DeferredDb::exec(std::string_view sql, const Params& params) { return target().exec(sql, params); }
void DeferredDb::transaction(const std::function<void(Tx&)>& body) { target().transaction(body); }

JobQueue& DeferredJobQueue::target() {
  if (!state_.jobs) usedTooEarly(plugin_, "the job queue", state_);
  return *state_.jobs;
}
std::int64_t DeferredJobQueue::enqueue(const JobSpec& spec) { return target().enqueue(spec); }
std::int64_t DeferredJobQueue::enqueue(Tx& tx, const JobSpec& spec) { return target().enqueue(tx, spec); }

EventBus& DeferredEventBus::target() {
  if (!state_.events) usedTooEarly(plugin_, "the event bus", state_);
  return *state_.events;
}
void DeferredEventBus::publish(std::string_view topic, const nlohmann::json& payload) {
  target().publish(topic, payload);
}
void DeferredEventBus::publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) {
  target().publishAfterCommit(tx, topic, payload);
}

Db& PluginContext::db() { return db_; }
JobQueue& PluginContext::jobs() { return jobs_; }
EventBus& PluginContext::events() { return events_; }

bool isCoreClientKey(std::string_view key) {
  for (const char* core : {"mode", "features", "apiUrl", "contactEmail"})
    if (key == core) return true;
  return false;
}

PluginRegistry::PluginRegistry(std::string pluginName, PluginContext& context, HostState& state,
                               Declarations& declarations)
    : name_(std::move(pluginName)), context_(context), state_(state), declarations_(declarations) {}

void PluginRegistry::route(Method method, std::string pathTemplate, Handler handler, RouteOptions options,
                           RouteDoc doc) {
  std::string where = "plugin " + name_ + ": " + std::string(methodName(method)) + " " + pathTemplate;
  checkRouteDoc(std::string(methodName(method)), pathTemplate, doc);
  mergeSchemas(declarations_.openApiSchemas, doc, where);
  bool described = !doc.summary.empty() || !doc.description.empty() || !doc.params.empty() || doc.body ||
                   !doc.answers.empty() || doc.access != RouteAccess::Unspecified;
  std::shared_ptr<const RouteDoc> kept;
  if (described) kept = std::make_shared<const RouteDoc>(std::move(doc));
  declarations_.router.add(
      Route{method, std::move(pathTemplate), std::move(handler), options, name_, {}, std::move(kept)});
}

void PluginRegistry::websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options) {
  for (const auto& existing : declarations_.websockets)
    if (existing.path == path)
      throw std::invalid_argument("WebSocket path " + path + " is claimed by " + existing.owner + " and " + name_);
  declarations_.websockets.push_back({std::move(path), std::move(acceptor), options, name_});
}

void PluginRegistry::migration(int version, std::string name, std::string sql) {
  declarations_.migrations.push_back({name_, version, std::move(name), std::move(sql)});
}

void PluginRegistry::jobHandler(std::string kind, JobHandler handler) {
  declarations_.jobHandlers.emplace_back(std::move(kind), std::move(handler));
}

void PluginRegistry::periodic(std::string name, PeriodicOptions options, std::function<void()> task) {
  declarations_.periodicTasks.push_back({name_ + "." + name, options.interval, options.singleton, std::move(task)});
}

void PluginRegistry::subscribe(std::string topic, EventHandler handler) {
  declarations_.subscriptions.push_back({std::move(topic), name_, std::move(handler)});
}

void PluginRegistry::configKey(std::string key, std::string defaultValue, std::string description) {
  state_.config->declare({std::move(key), std::move(defaultValue), std::move(description), "", name_});
}

void PluginRegistry::command(Command command) {
  const std::string& word = command.name;
  bool wellFormed = !word.empty() && word.size() <= 64 && word[0] != '-';
  for (char c : word)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
          c == '_'))
      wellFormed = false;
  if (!wellFormed)
    throw std::invalid_argument("plugin " + name_ + " declared the command '" + word +
                                "': a name is lowercase letters, digits, - and _");
  if (isCoreCommand(word))
    throw std::invalid_argument("plugin " + name_ + " declared the command " + word + ", which is docsd's own");
  if (!command.run) throw std::invalid_argument("plugin " + name_ + " declared the command " + word + " without run");
  for (const auto& existing : declarations_.commands)
    if (existing.command.name == word)
      throw std::invalid_argument("command " + word + " is declared by both " + existing.owner + " and " + name_);
  declarations_.commands.push_back({std::move(command), name_});
}

void PluginRegistry::claimClientKey(const std::string& key) const {
  if (key.empty()) throw std::invalid_argument("plugin " + name_ + " declared a /config.json key that is empty");
  if (isCoreClientKey(key))
    throw std::invalid_argument("plugin " + name_ + " declared the /config.json key " + key + ", which is docsd's own");
  for (const auto& declared : declarations_.clientEndpoints)
    if (declared.endpoint.key == key)
      throw std::invalid_argument("/config.json key " + key + " is declared by both " + declared.owner + " and " +
                                  name_);
  for (const auto& declared : declarations_.clientSettings)
    if (declared.key == key)
      throw std::invalid_argument("/config.json key " + key + " is declared by both " + declared.owner + " and " +
                                  name_);
}

void PluginRegistry::clientEndpoint(ClientEndpoint endpoint) {
  claimClientKey(endpoint.key);
  // The sub-host goes into a host name and the path into a URL and the CSP: plain text only.
  bool label = !endpoint.subhost.empty() && endpoint.subhost.size() <= 63 && endpoint.subhost.front() != '-' &&
               endpoint.subhost.back() != '-';
  for (char c : endpoint.subhost)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      label = false;
  if (!label)
    throw std::invalid_argument("plugin " + name_ + " declared the endpoint " + endpoint.key + " with the sub-host '" +
                                endpoint.subhost + "': a DNS label is lowercase letters, digits and -");
  bool path = endpoint.path.empty() || endpoint.path.front() == '/';
  for (char c : endpoint.path)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' || c == '.')) path = false;
  if (!path)
    throw std::invalid_argument("plugin " + name_ + " declared the endpoint " + endpoint.key + " with the path '" +
                                endpoint.path + "': empty, or '/' then letters, digits, / - _ .");
  declarations_.clientEndpoints.push_back({std::move(endpoint), name_});
}

void PluginRegistry::clientSetting(std::string key, std::function<Json()> value) {
  claimClientKey(key);
  if (!value)
    throw std::invalid_argument("plugin " + name_ + " declared the /config.json key " + key + " without a value");
  declarations_.clientSettings.push_back({std::move(key), std::move(value), name_});
}

void PluginRegistry::apiPrefix(std::string prefix) {
  if (prefix.size() < 3 || prefix.front() != '/' || prefix.back() != '/' || prefix.find("//") != std::string::npos)
    throw std::invalid_argument("plugin " + name_ + " declared the API prefix '" + prefix +
                                "': it starts and ends with '/' and names a path, like \"/reports/\"");
  if (prefix == "/api/") return;  // docsd's own
  for (const auto& existing : declarations_.apiPrefixes)
    if (existing == prefix) return;  // two plugins may share one: it only says what an unknown path answers
  declarations_.apiPrefixes.push_back(std::move(prefix));
}

void PluginRegistry::provideServiceById(std::string id, void* service) {
  if (!service) throw std::invalid_argument("plugin " + name_ + " provided a null service " + id);
  auto owner = state_.provided.owners.find(id);
  if (owner != state_.provided.owners.end())
    throw std::invalid_argument("service " + id + " is provided by both " + owner->second + " and " + name_);
  state_.provided.services[id] = service;
  state_.provided.owners[id] = name_;
}

void PluginRegistry::needServiceById(std::string id, ServiceNeed need, ServiceSlot& slot) {
  if (id.empty()) throw std::invalid_argument("plugin " + name_ + " needs a service with an empty id");
  state_.needs.push_back({name_, std::move(id), need, &slot});
}

}  // namespace docs::core
