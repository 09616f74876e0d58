#pragma once
// The page list of GET /api/project written straight into a string: for a 10,000-page
// project this is several times faster than building a JSON tree and dumping it.

#include <string>
#include <string_view>
#include <vector>

#include <docs/services/pages.hpp>

namespace docs_projects {

// Appends text as a JSON string literal (quotes included).
void appendJsonString(std::string& out, std::string_view text);
// Appends [{"id":..,"project_id":..,"parent_id":..,"name":..,"type":..,"position":..,
// "created_at":..,"updated_at":..}, ...].
void appendPageArray(std::string& out, const std::vector<docs::PageSummary>& pages);

}  // namespace docs_projects
