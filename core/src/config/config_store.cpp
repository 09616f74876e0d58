#include "config/config_store.hpp"

#include <charconv>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

extern char** environ;

namespace docs::core {

namespace {

void flatten(const nlohmann::json& node, const std::string& prefix,
             std::map<std::string, std::string, std::less<>>& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (node.is_string()) {
    out[prefix] = node.get<std::string>();
  } else if (node.is_array()) {
    std::string joined;
    for (const auto& item : node) {
      if (!joined.empty()) joined += ",";
      joined += item.is_string() ? item.get<std::string>() : item.dump();
    }
    out[prefix] = joined;
  } else if (!node.is_null()) {
    out[prefix] = node.dump();
  }
}

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

ConfigStore::ConfigStore(std::map<std::string, std::string> environment) : environment_(std::move(environment)) {}

void ConfigStore::loadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot read config file " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  loadJsonText(buffer.str(), path);
}

void ConfigStore::loadJsonText(const std::string& text, const std::string& origin) {
  auto parsed = nlohmann::json::parse(text, nullptr, false, /*ignore_comments=*/true);
  if (parsed.is_discarded() || !parsed.is_object())
    throw ConfigError("config file " + origin + " is not a JSON object");
  std::lock_guard lock(mutex_);
  flatten(parsed, "", fileValues_);
}

void ConfigStore::declare(ConfigKey key) {
  if (key.envName.empty()) key.envName = envNameForKey(key.key);
  std::lock_guard lock(mutex_);
  auto it = declared_.find(key.key);
  if (it != declared_.end()) {
    if (it->second.defaultValue != key.defaultValue)
      throw std::runtime_error("config key " + key.key + " declared by " + it->second.owner + " and again by " +
                               key.owner + " with another default");
    return;
  }
  std::string name = key.key;
  declared_.emplace(std::move(name), std::move(key));
}

void ConfigStore::set(const std::string& key, std::string value) {
  std::lock_guard lock(mutex_);
  overrides_[key] = std::move(value);
}

std::optional<std::string> ConfigStore::lookup(std::string_view key, std::string* source) const {
  std::lock_guard lock(mutex_);
  auto declared = declared_.find(key);
  if (declared == declared_.end()) return std::nullopt;
  if (auto it = overrides_.find(key); it != overrides_.end()) {
    if (source) *source = "flag";
    return it->second;
  }
  if (auto it = environment_.find(declared->second.envName); it != environment_.end()) {
    if (source) *source = "env";
    return it->second;
  }
  // NAME_FILE: the value is the file's text (a secret mounted as a file), without the
  // line end editors add.
  if (auto it = environment_.find(declared->second.envName + "_FILE"); it != environment_.end()) {
    std::ifstream in(it->second, std::ios::binary);
    if (!in) throw ConfigError("cannot read " + declared->second.envName + "_FILE " + it->second);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (source) *source = "env file";
    return text;
  }
  if (auto it = fileValues_.find(key); it != fileValues_.end()) {
    if (source) *source = "file";
    return it->second;
  }
  if (source) *source = "default";
  return declared->second.defaultValue;
}

bool ConfigStore::has(std::string_view key) const {
  std::lock_guard lock(mutex_);
  return declared_.find(key) != declared_.end();
}

bool ConfigStore::isSecretKey(std::string_view key) {
  std::string lower(key);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view marker : {"secret", "password", "token", "api_key", "private_key", "pem", "credential"})
    if (lower.find(marker) != std::string::npos) return true;
  return lower == "database.url";
}

std::string ConfigStore::masked(std::string_view key, const std::string& value) {
  if (value.empty() || !isSecretKey(key)) return value;
  // A URL keeps its scheme, user and host; only the password goes.
  auto scheme = value.find("://");
  auto at = value.rfind('@');
  if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
    auto colon = value.find(':', scheme + 3);
    if (colon != std::string::npos && colon < at) return value.substr(0, colon + 1) + "***" + value.substr(at);
    return value;
  }
  if (key == "database.url") return value;  // no password in it
  return "***";
}

std::string ConfigStore::getString(std::string_view key) const {
  auto value = lookup(key, nullptr);
  if (!value) throw std::invalid_argument("undeclared config key: " + std::string(key));
  return *value;
}

std::int64_t ConfigStore::getInt(std::string_view key) const {
  std::string text = trim(getString(key));
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw ConfigError("config key " + std::string(key) + " must be an integer, got '" + text + "'");
  return value;
}

bool ConfigStore::getBool(std::string_view key) const {
  std::string text = trim(getString(key));
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off" || text.empty()) return false;
  throw ConfigError("config key " + std::string(key) + " must be true or false, got '" + text + "'");
}

std::vector<std::string> ConfigStore::getList(std::string_view key) const {
  std::vector<std::string> items;
  std::string text = getString(key);
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string item =
        trim(std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) items.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string ConfigStore::sourceOf(std::string_view key) const {
  std::string source;
  lookup(key, &source);
  return source;
}

std::vector<ConfigKey> ConfigStore::declaredKeys() const {
  std::lock_guard lock(mutex_);
  std::vector<ConfigKey> keys;
  for (const auto& [name, key] : declared_) keys.push_back(key);
  return keys;
}

std::vector<std::string> ConfigStore::unknownSettings() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> unknown;
  for (const auto& [name, value] : fileValues_)
    if (declared_.find(name) == declared_.end()) unknown.push_back(name + " (config file)");
  for (const auto& [name, value] : environment_) {
    if (name.rfind("DOCS_", 0) != 0) continue;
    bool known = name == "DOCS_CONFIG";
    for (const auto& [key, declared] : declared_) known = known || declared.envName == name;
    if (!known) unknown.push_back(name + " (environment)");
  }
  return unknown;
}

std::map<std::string, std::string> processEnvironment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view text(*entry);
    auto eq = text.find('=');
    if (eq != std::string_view::npos) env.emplace(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
  }
  return env;
}

void declareCoreKeys(ConfigStore& store) {
  auto core = [&](std::string key, std::string value, std::string description, std::string env = {}) {
    store.declare({std::move(key), std::move(value), std::move(description), std::move(env), "core"});
  };
  core("server.port", "8080", "TCP port to listen on (0 picks a free port).", "DOCS_PORT");
  core("server.host", "0.0.0.0", "Address to bind.");
  core("server.public_url", "",
       "The deployment's public origin, e.g. https://docs.example.com (empty: from the request's Host).");
  core("server.allowed_origins", "",
       "Comma-separated origins allowed by CORS with credentials, besides server.public_url.");
  core("server.subhosts", "false",
       "Publish auth./api./rag./y. sub-hosts of the public URL in /config.json (otherwise one origin).");
  core("server.mode", "production", "Mode reported to the SPA: development, stage, local-to-stage or production.");
  core("server.web_root", "",
       "Directory of the built SPA (default: share/docsd/web beside an installed docsd, else web/dist of the "
       "checkout).");
  core("server.max_threads", "256", "HTTP worker threads (each serves one keep-alive connection at a time).");
  core("server.max_queued", "1024", "Accepted connections waiting for a worker before new ones are refused.");
  core("server.header_timeout_ms", "10000", "Time a client has to send a request's headers.");
  core("server.keep_alive_timeout_ms", "15000", "Idle time before a keep-alive connection is closed.");
  core("server.body_timeout_ms", "60000", "Longest pause while reading a request body.");
  core("server.body_grace_ms", "10000",
       "Time a request body may take before it must keep up server.body_min_rate_bytes.");
  core("server.body_min_rate_bytes", "16384",
       "Bytes a second a request body must average after the grace time (0: no minimum).");
  core("server.max_connections_per_address", "64",
       "HTTP connections one client address may hold open at once (0: no cap; trusted proxies are not counted).");
  core("server.max_websockets_per_address", "256",
       "Open WebSockets one client address may hold (0: no cap; trusted proxies are not counted); more upgrades get "
       "429.");
  core("server.anonymous_body_bytes", "65536",
       "Request bodies larger than this are read only for a signed-in caller (signed webhooks excepted).");
  core("server.anonymous_body_budget_bytes", "33554432",
       "Bytes of unsigned bodies (webhooks, which prove themselves inside the body) held at once across the server; a "
       "body past it is refused with 503 before it is read.");
  core("server.compression", "true",
       "Answer in Brotli or gzip when the client accepts it: the web app's precompressed files and route answers of 1 "
       "KiB or more (docs/api.md#compression).");
  core("metrics.allowed_cidrs", "",
       "Comma-separated addresses or CIDRs (10.0.0.0/8, fd00::/8) that may read GET /metrics besides loopback; others "
       "get 404 (docs/metrics.md).");
  core("metrics.token", "", "A Bearer token that opens GET /metrics from any address; empty: none.");
  core("server.port_file", "", "If set, the bound port is written to this file once listening.");
  core("server.trusted_proxies", "", "Comma-separated proxy addresses whose X-Forwarded-For/-Proto are believed.");
  core("server.content_security_policy", "",
       "Content-Security-Policy of the web app's pages and files; empty: built from server.public_url and "
       "server.subhosts (docs/security.md#browser-headers); 'off': none.");
  core("server.hsts_max_age", "31536000",
       "Strict-Transport-Security max-age in seconds, sent when server.public_url is https (0: not sent).");
  core("server.hsts_include_subdomains", "false",
       "Add includeSubDomains to Strict-Transport-Security (every sub-host of the public URL must then serve https).");
  core("data_dir", "",
       "Data directory (embedded PostgreSQL, uploads, clones). Default: /var/lib/docsd for root, else "
       "~/.local/share/docsd.",
       "DOCS_DATA_DIR");
  core("database.url", "", "PostgreSQL connection URL; empty starts an embedded cluster under the data dir.",
       "DATABASE_URL");
  core("database.pool_size", "16", "Connections in the pool.");
  core("database.statement_timeout_ms", "30000", "Statement timeout for every connection.");
  core("database.embedded_user", "postgres",
       "Unprivileged system user that runs the embedded cluster when docsd runs as root.");
  core("database.postgres_bin_dir", "",
       "Directory holding initdb, pg_ctl and postgres (default: newest /usr/lib/postgresql/*/bin, then PATH).");
  core("plugins.dir", "",
       "Directory of plugin libraries (default: lib/docsd/plugins beside an installed docsd, else ../plugins beside "
       "the binary).");
  core("plugins.enabled", "all",
       "Comma-separated plugin names to load, 'all' (every plugin but the opt-in ones, such as example), 'all,NAME...' "
       "(all plus those), or 'none'.");
  core("jobs.workers", "2", "Background job worker threads.");
  core("jobs.lease_seconds", "60", "How long a claimed job is leased before another worker may retry it.");
  core("jobs.poll_ms", "2000", "Fallback poll interval for jobs when no NOTIFY arrives.");
  core(
      "server.stop_grace_ms", "10000",
      "On SIGTERM, how long each step waits for what still runs: running jobs (again before the database pool closes), "
      "the events queued before each plugin's stop(), the event thread (docs/architecture.md#start-and-stop).");
  core("websocket.workers", "2", "Threads that run WebSocket message callbacks.");
  core("log.format", "json", "Log format: json or text.");
  core("log.level", "info", "Minimum log level: debug, info, warn, error.");
  core("log.access", "true", "Log every HTTP request (method, path, status, time, request id).");
  core("site.contact_email", "",
       "Where the landing page's Request Demo form writes to (contactEmail in /config.json); empty hides the form.");
}

}  // namespace docs::core
