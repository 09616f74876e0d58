#include "log/logging.hpp"

#include <atomic>
#include <chrono>
#include <ctime>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace docs::core {

namespace {

std::atomic<LogFormat> gFormat{LogFormat::Json};
std::atomic<LogLevel> gMinimum{LogLevel::Info};

std::shared_ptr<spdlog::logger> sinkLogger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = std::make_shared<spdlog::logger>("docsd", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("%v");
    l->set_level(spdlog::level::trace);
    l->flush_on(spdlog::level::trace);
    return l;
  }();
  return logger;
}

std::string_view levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warn: return "warn";
    case LogLevel::Error: return "error";
  }
  return "info";
}

std::string timestamp() {
  auto now = std::chrono::system_clock::now();
  auto seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
  return buffer;
}

class SpdLogger final : public Logger {
 public:
  explicit SpdLogger(std::string name) : name_(std::move(name)) {}

  void log(LogLevel level, std::string_view message, const nlohmann::json& fields) override {
    if (level < gMinimum.load(std::memory_order_relaxed)) return;
    std::string line;
    if (gFormat.load(std::memory_order_relaxed) == LogFormat::Json) {
      nlohmann::json entry = {{"ts", timestamp()}, {"level", levelName(level)}, {"logger", name_}, {"msg", message}};
      if (fields.is_object())
        for (auto it = fields.begin(); it != fields.end(); ++it) entry[it.key()] = it.value();
      line = entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else {
      line = timestamp() + " " + std::string(levelName(level)) + " [" + name_ + "] " + std::string(message);
      if (fields.is_object() && !fields.empty())
        line += " " + fields.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    sinkLogger()->info(line);
  }

 private:
  std::string name_;
};

}  // namespace

void initLogging(LogFormat format, LogLevel minimum) {
  gFormat = format;
  gMinimum = minimum;
}

std::shared_ptr<Logger> makeLogger(std::string name) { return std::make_shared<SpdLogger>(std::move(name)); }

LogLevel parseLogLevel(const std::string& text) {
  if (text == "debug") return LogLevel::Debug;
  if (text == "warn") return LogLevel::Warn;
  if (text == "error") return LogLevel::Error;
  return LogLevel::Info;
}

}  // namespace docs::core
