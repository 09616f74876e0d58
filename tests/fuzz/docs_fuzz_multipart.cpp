// An upload body through the streaming multipart reader, in reads whose sizes the first
// byte chooses, under the boundary "b0undary". A malformed body may end in an HttpError
// (a 400 to the client); anything else (a crash, a sanitizer report, a hang) is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "multipart_reader.hpp"

namespace {

class Body : public docs::BodyReader {
 public:
  Body(std::string_view bytes, std::size_t piece) : bytes_(bytes), piece_(piece) {}
  std::size_t read(char* buffer, std::size_t size) override {
    std::size_t n = std::min({size, piece_, bytes_.size() - at_});
    std::memcpy(buffer, bytes_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  std::string_view bytes_;
  std::size_t piece_;
  std::size_t at_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  Body body(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), 1 + data[0] % 97);
  (void)docs_projects::multipartBoundary(
      std::string_view(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 80)));
  try {
    docs_projects::MultipartReader reader(body, "b0undary");
    docs_projects::PartHeaders headers;
    char buffer[257];
    for (int parts = 0; parts < 1000 && reader.nextPart(headers); ++parts)
      while (reader.read(buffer, 1 + (data[0] % sizeof(buffer))) > 0) {
      }
  } catch (const docs::HttpError&) {
  }
  return 0;
}
