#pragma once
// How the comment routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_comments {

docs::RouteDoc listCommentsDoc();
docs::RouteDoc createCommentDoc();
docs::RouteDoc updateCommentDoc();
docs::RouteDoc deleteCommentDoc();

}  // namespace docs_comments
