#include "multipart_reader.hpp"

#include <algorithm>
#include <cstring>

namespace docs_projects {

namespace {

constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kMaxHeaderBytes = 16 * 1024;

docs::HttpError malformed(const std::string& what) {
  return docs::HttpError::badRequest("Malformed multipart body: " + what, "bad_request");
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A parameter of a header value: `name="value"` or `name=value`, after a ';'.
std::optional<std::string> headerParameter(std::string_view value, std::string_view wanted) {
  std::size_t pos = value.find(';');
  while (pos != std::string_view::npos) {
    std::string_view rest = trim(value.substr(pos + 1));
    auto eq = rest.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string key = lower(trim(rest.substr(0, eq)));
    std::string_view after = trim(rest.substr(eq + 1));
    std::string result;
    std::size_t consumed = 0;
    if (!after.empty() && after.front() == '"') {
      std::size_t i = 1;
      for (; i < after.size() && after[i] != '"'; ++i) {
        if (after[i] == '\\' && i + 1 < after.size()) ++i;
        result.push_back(after[i]);
      }
      consumed = std::min(i + 1, after.size());
    } else {
      consumed = std::min(after.find(';'), after.size());
      result = std::string(trim(after.substr(0, consumed)));
    }
    if (key == wanted) return result;
    std::size_t next = after.substr(consumed).find(';');
    if (next == std::string_view::npos) return std::nullopt;
    value = after.substr(consumed + next);
    pos = 0;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> multipartBoundary(std::string_view contentType) {
  if (lower(trim(contentType.substr(0, contentType.find(';')))) != "multipart/form-data") return std::nullopt;
  auto boundary = headerParameter(contentType, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > 200) return std::nullopt;
  return boundary;
}

MultipartReader::MultipartReader(docs::BodyReader& source, const std::string& boundary)
    : source_(source), delimiter_("\r\n--" + boundary) {
  // The first delimiter has no CRLF before it; pretend it has, so one search fits all.
  buffer_ = "\r\n";
}

bool MultipartReader::fill() {
  if (sourceDone_) return false;
  std::size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  std::size_t n = source_.read(buffer_.data() + old, kChunk);
  buffer_.resize(old + n);
  if (n == 0) sourceDone_ = true;
  return n > 0;
}

void MultipartReader::expectMore() {
  if (!fill()) throw docs::HttpError(400, "body_incomplete", "The upload ended before the multipart body was complete");
}

void MultipartReader::skipPreamble() {
  for (;;) {
    auto at = buffer_.find(delimiter_);
    if (at != std::string::npos) {
      buffer_.erase(0, at + delimiter_.size());
      return;
    }
    if (buffer_.size() > kMaxHeaderBytes) throw malformed("no opening boundary");
    expectMore();
  }
}

PartHeaders MultipartReader::readHeaders() {
  // After a delimiter: "--" closes the body, otherwise optional spaces then CRLF.
  while (buffer_.size() < 2) expectMore();
  if (buffer_.compare(0, 2, "--") == 0) {
    finished_ = true;
    return {};
  }
  std::size_t end;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (buffer_.size() > kMaxHeaderBytes) throw malformed("part headers are too long");
    expectMore();
  }
  std::string block = buffer_.substr(0, end + 2);
  buffer_.erase(0, end + 4);
  auto firstBreak = block.find("\r\n");
  std::string_view lines = std::string_view(block).substr(firstBreak + 2);  // skip the delimiter's line end
  if (!trim(std::string_view(block).substr(0, firstBreak)).empty()) throw malformed("text after a boundary");
  PartHeaders headers;
  bool hasDisposition = false;
  while (!lines.empty()) {
    auto eol = lines.find("\r\n");
    std::string_view line = lines.substr(0, eol);
    lines.remove_prefix(eol == std::string_view::npos ? lines.size() : eol + 2);
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = lower(trim(line.substr(0, colon)));
    std::string_view value = trim(line.substr(colon + 1));
    if (key == "content-disposition") {
      hasDisposition = true;
      headers.name = headerParameter(value, "name").value_or("");
      headers.fileName = headerParameter(value, "filename");
    } else if (key == "content-type") {
      headers.contentType = lower(value);
    }
  }
  if (!hasDisposition) throw malformed("a part has no Content-Disposition");
  return headers;
}

bool MultipartReader::nextPart(PartHeaders& headers) {
  if (finished_) return false;
  if (!started_) {
    started_ = true;
    skipPreamble();
  } else {
    char scratch[8192];
    while (read(scratch, sizeof scratch) > 0) {
    }
  }
  headers = readHeaders();
  if (finished_) return false;
  inPart_ = true;
  return true;
}

std::size_t MultipartReader::read(char* out, std::size_t size) {
  if (!inPart_ || size == 0) return 0;
  for (;;) {
    auto at = buffer_.find(delimiter_);
    if (at == 0) {
      buffer_.erase(0, delimiter_.size());
      inPart_ = false;
      return 0;
    }
    // Bytes that cannot be the start of a delimiter may go out now.
    std::size_t safe = at != std::string::npos               ? at
                       : buffer_.size() >= delimiter_.size() ? buffer_.size() - delimiter_.size() + 1
                                                             : 0;
    if (safe > 0) {
      std::size_t n = std::min(safe, size);
      std::memcpy(out, buffer_.data(), n);
      buffer_.erase(0, n);
      return n;
    }
    expectMore();
  }
}

}  // namespace docs_projects
