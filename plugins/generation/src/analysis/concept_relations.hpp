#pragma once
// How the library's core types relate, read from their definitions' lines with no model:
// a type extends another (`class A extends B`, `class A(B):`, `struct A : B`, an embedded
// Go struct), holds one (a field or member whose declaration names it), its methods return
// one, or a function creates it (its definition names the type after its parameters:
// `func New() *Engine`, `def create_app() -> Flask`, `function createRouter(): Router`).

#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/concepts.hpp"

namespace docs_generation {

// Fills each concept's `relations` (kind, other name): "extends", "embeds" (Go), "holds" and "returns"
// name other concepts; "created_by" names any exported top-level function of the library.
// Reads the definition lines under `root`.
void findConceptRelations(std::vector<Concept>& concepts, const Analysis& analysis, const std::string& root);

// The words of a definition line after its parameter list closes ("" when it has none):
// where languages write a return type. Exposed for tests.
std::string afterParameters(const std::string& line);

}  // namespace docs_generation
