#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc {

// JSON with insertion-ordered keys, so output keeps JS key order.
using Json = nlohmann::ordered_json;

struct Any;

struct AnyUndefined {
  bool operator==(const AnyUndefined&) const = default;
};
struct AnyNull {
  bool operator==(const AnyNull&) const = default;
};
struct AnyBigInt {
  int64_t value = 0;
  bool operator==(const AnyBigInt&) const = default;
};
// Object keys keep their JS enumeration order (see normaliseKeyOrder).
using AnyObject = std::vector<std::pair<std::string, Any>>;
using AnyArray = std::vector<Any>;

// A lib0 `any` value. Numbers are doubles like in JS, so a value re-encodes
// exactly as yjs would re-encode it.
struct Any {
  std::variant<AnyUndefined, AnyNull, bool, double, AnyBigInt, std::string, AnyObject, AnyArray, Bytes> value;

  Any() : value(AnyUndefined{}) {}
  template <typename T>
  Any(T v) : value(std::move(v)) {}  // NOLINT(google-explicit-constructor)

  bool isNull() const { return std::holds_alternative<AnyNull>(value); }
  bool isUndefined() const { return std::holds_alternative<AnyUndefined>(value); }
  bool operator==(const Any&) const = default;
};

// Maximum nesting accepted when decoding; deeper input is a DecodeError.
inline constexpr int kMaxAnyDepth = 64;

Any readAny(Decoder& dec, int depth = 0);
void writeAny(Encoder& enc, const Any& any);

// JSON conversions with JS semantics (integral doubles print without ".0";
// undefined maps to null inside arrays, and is dropped from objects).
Json anyToJson(const Any& any);
Any jsonToAny(const Json& json);

// Serialises a JSON value like JS JSON.stringify (no spaces, JS number format).
std::string jsStringify(const Json& json);

// Reorders object keys as JS Object.keys does: array-index keys ascending first.
void normaliseKeyOrder(AnyObject& object);

}  // namespace docs::ydoc
