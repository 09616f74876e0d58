#include "docs/route_doc.hpp"

namespace docs {

Json schemaRef(std::string_view name) { return {{"$ref", "#/components/schemas/" + std::string(name)}}; }

AnswerDoc errorAnswer(int status, std::string description) {
  return AnswerDoc{status, std::move(description), "application/json", schemaRef("Error")};
}

AnswerDoc jsonAnswer(int status, std::string description, Json schema) {
  return AnswerDoc{status, std::move(description), "application/json", std::move(schema)};
}

}  // namespace docs
