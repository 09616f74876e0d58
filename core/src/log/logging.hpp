#pragma once
// Process-wide logging on spdlog: JSON lines (default) or human text.

#include <memory>
#include <string>

#include "docs/logger.hpp"

namespace docs::core {

enum class LogFormat { Json, Text };

void initLogging(LogFormat format, LogLevel minimum);
// A named logger ("core", "http", or a plugin's name). Cheap; share freely.
std::shared_ptr<Logger> makeLogger(std::string name);
LogLevel parseLogLevel(const std::string& text);

}  // namespace docs::core
