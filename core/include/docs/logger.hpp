#pragma once
// Structured logging: one JSON object per line with the logger name and fields.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace docs {

enum class LogLevel { Debug, Info, Warn, Error };

class Logger {
 public:
  virtual ~Logger();
  virtual void log(LogLevel level, std::string_view message, const nlohmann::json& fields) = 0;
  void debug(std::string_view message, const nlohmann::json& fields = nlohmann::json::object()) {
    log(LogLevel::Debug, message, fields);
  }
  void info(std::string_view message, const nlohmann::json& fields = nlohmann::json::object()) {
    log(LogLevel::Info, message, fields);
  }
  void warn(std::string_view message, const nlohmann::json& fields = nlohmann::json::object()) {
    log(LogLevel::Warn, message, fields);
  }
  void error(std::string_view message, const nlohmann::json& fields = nlohmann::json::object()) {
    log(LogLevel::Error, message, fields);
  }
};

}  // namespace docs
