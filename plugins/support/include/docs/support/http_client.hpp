#pragma once
// A small blocking HTTP client on libcurl for calls to configured services (GitHub, models).
// Each thread keeps one handle, so calls from a thread reuse its connections (keep-alive,
// TLS sessions) instead of opening one per call.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace docs::support {

struct HttpCall {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{10000};
};

struct HttpReply {
  long status = 0;  // 0: no answer (see error)
  std::string body;
  std::string error;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case

  // The first header of that name (lower case), "" when absent.
  std::string header(const std::string& name) const;
};

HttpReply httpCall(const HttpCall& call);

}  // namespace docs::support
