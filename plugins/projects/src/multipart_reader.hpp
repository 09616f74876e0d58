#pragma once
// A streaming multipart/form-data reader: parts are handed over piece by piece, so an
// upload of any size needs only a small buffer.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <docs/http.hpp>

namespace docs_projects {

struct PartHeaders {
  std::string name;                     // Content-Disposition name
  std::optional<std::string> fileName;  // Content-Disposition filename
  std::string contentType;              // lower-case, "" when absent
};

// The boundary parameter of a multipart/form-data content type, or nullopt.
std::optional<std::string> multipartBoundary(std::string_view contentType);

class MultipartReader {
 public:
  // source: anything with read(char*, size) returning 0 at the end (docs::BodyReader).
  MultipartReader(docs::BodyReader& source, const std::string& boundary);

  // Moves to the next part, skipping what is left of the current one. False after the
  // closing delimiter. A body that ends before it is a 400 "body_incomplete".
  bool nextPart(PartHeaders& headers);
  // Up to size bytes of the current part's content; 0 at its end.
  std::size_t read(char* buffer, std::size_t size);

 private:
  bool fill();        // reads more from the source; false at its end
  void expectMore();  // fill() or throw: the body ended early
  void skipPreamble();
  PartHeaders readHeaders();

  docs::BodyReader& source_;
  std::string delimiter_;  // "\r\n--" + boundary
  std::string buffer_;
  bool sourceDone_ = false;
  bool started_ = false;
  bool inPart_ = false;
  bool finished_ = false;
};

}  // namespace docs_projects
