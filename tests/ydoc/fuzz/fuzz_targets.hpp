#pragma once

#include <cstddef>
#include <cstdint>

namespace docs::ydoc::fuzz {

// Decode an update, apply it to a document, read and re-encode it.
void decodeOne(const uint8_t* data, size_t size);
// Split the input in two updates and run the update algebra on them.
void mergeOne(const uint8_t* data, size_t size);

}  // namespace docs::ydoc::fuzz
