#pragma once
// Figures of what a reader meets (`docsd generate --report`, "reader"): whether the tree
// opens on the library, whether any test is offered as API or as an entry point, whether
// every exported symbol is on its own file's page, whether the repository's guides became
// pages, whether a purpose was read from a build directive, and whether the overview
// names the types the code uses most.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.hpp"
#include "planning/planner.hpp"
#include "writing/offline_writer.hpp"

namespace docs_generation {

// `sourceRoot`: where the files are read to count which types the code names most.
nlohmann::json readerFigures(const Analysis& analysis, const Plan& plan, const std::vector<PageDraft>& pages,
                             const std::string& sourceRoot);

}  // namespace docs_generation
