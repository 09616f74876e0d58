#pragma once

// Everything core/ydoc offers, for callers that do not care to pick headers.
#include "docs/ydoc/any.hpp"
#include "docs/ydoc/cli.hpp"
#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/prosemirror.hpp"
#include "docs/ydoc/schema.hpp"
#include "docs/ydoc/types.hpp"
#include "docs/ydoc/update.hpp"
#include "docs/ydoc/xml.hpp"
