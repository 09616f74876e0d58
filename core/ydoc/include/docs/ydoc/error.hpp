#pragma once

#include <stdexcept>
#include <string>

namespace docs::ydoc {

// Base of every error the library throws; callers that only need "bad input or
// not" catch this one.
class YdocError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed bytes: truncated input, integers out of range, invalid UTF-8,
// unknown content references, lengths beyond the buffer.
class DecodeError : public YdocError {
 public:
  using YdocError::YdocError;
};

// Structurally valid bytes that describe an impossible document (a struct that
// points at an item that does not exist, clocks that overlap inconsistently).
class InvalidUpdateError : public YdocError {
 public:
  using YdocError::YdocError;
};

// Conversion input (ProseMirror JSON) that cannot be turned into a document.
class ConversionError : public YdocError {
 public:
  using YdocError::YdocError;
};

}  // namespace docs::ydoc
