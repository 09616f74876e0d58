#include "docs/support/http_client.hpp"

#include <curl/curl.h>

#include <cctype>

#include <memory>
#include <mutex>

namespace docs::support {
namespace {

constexpr std::size_t kMaxReplyBytes = 4 << 20;

std::size_t collect(char* data, std::size_t size, std::size_t count, void* target) {
  auto* body = static_cast<std::string*>(target);
  if (body->size() + size * count > kMaxReplyBytes) return 0;  // aborts the transfer
  body->append(data, size * count);
  return size * count;
}

// "Retry-After: 30\r\n" into (retry-after, 30); headers of an earlier response (a 100
// Continue, a proxy's) are dropped when a new status line starts.
std::size_t collectHeader(char* data, std::size_t size, std::size_t count, void* target) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(target);
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) headers->clear();
  auto colon = line.find(':');
  if (colon != std::string::npos && headers->size() < 100) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    auto first = value.find_first_not_of(" \t");
    auto last = value.find_last_not_of(" \t\r\n");
    headers->emplace_back(name, first == std::string::npos ? "" : value.substr(first, last - first + 1));
  }
  return size * count;
}

struct CurlDeleter {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct ListDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

}  // namespace

HttpReply httpCall(const HttpCall& call) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  HttpReply reply;
  // One handle per thread: reset between calls, it keeps its connection cache.
  thread_local std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) {
    reply.error = "curl_easy_init failed";
    return reply;
  }
  curl_easy_reset(curl.get());
  std::unique_ptr<curl_slist, ListDeleter> headers;
  for (const auto& [name, value] : call.headers)
    headers.reset(curl_slist_append(headers.release(), (name + ": " + value).c_str()));
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, call.url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, call.method.c_str());
  if (call.method == "POST" || !call.body.empty()) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, call.body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(call.body.size()));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_USERAGENT, "docsd");
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(call.timeout.count()));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collectHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &reply.headers);
  CURLcode result = curl_easy_perform(c);
  if (result != CURLE_OK) {
    reply.error = curl_easy_strerror(result);
    return reply;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  return reply;
}

std::string HttpReply::header(const std::string& name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return value;
  return "";
}

}  // namespace docs::support
