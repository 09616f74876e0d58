#include "docs/ydoc/any.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace {

constexpr uint8_t kTagUndefined = 127;
constexpr uint8_t kTagNull = 126;
constexpr uint8_t kTagInteger = 125;
constexpr uint8_t kTagFloat32 = 124;
constexpr uint8_t kTagFloat64 = 123;
constexpr uint8_t kTagBigInt = 122;
constexpr uint8_t kTagFalse = 121;
constexpr uint8_t kTagTrue = 120;
constexpr uint8_t kTagString = 119;
constexpr uint8_t kTagObject = 118;
constexpr uint8_t kTagArray = 117;
constexpr uint8_t kTagBinary = 116;

// JS canonical array index: "0" or no leading zero, value < 2^32 - 1.
bool isArrayIndex(const std::string& key, uint64_t& out) {
  if (key.empty() || key.size() > 10) return false;
  if (key.size() > 1 && key[0] == '0') return false;
  uint64_t v = 0;
  for (const char c : key) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v >= 4294967295ULL) return false;
  out = v;
  return true;
}

void writeNumber(Encoder& enc, double d) {
  const bool integral = std::isfinite(d) && std::floor(d) == d;
  if (integral && std::fabs(d) <= 2147483647.0) {
    enc.writeUint8(kTagInteger);
    enc.writeVarInt(static_cast<int64_t>(d), std::signbit(d) && d == 0);
  } else if (!std::isnan(d) && static_cast<double>(static_cast<float>(d)) == d) {
    enc.writeUint8(kTagFloat32);
    enc.writeFloat32(static_cast<float>(d));
  } else {
    enc.writeUint8(kTagFloat64);
    enc.writeFloat64(d);
  }
}

// Shortest round-trip representation, then JS exponent formatting rules.
std::string jsNumber(double d) {
  if (std::isnan(d) || std::isinf(d)) return "null";
  if (d == 0) return "0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, res.ptr);
  // Compute digits and exponent to format like ECMAScript Number::toString.
  const bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  std::string digits;
  int exp10 = 0;
  auto epos = s.find('e');
  std::string mant = epos == std::string::npos ? s : s.substr(0, epos);
  int e = epos == std::string::npos ? 0 : std::stoi(s.substr(epos + 1));
  auto dot = mant.find('.');
  std::string intPart = dot == std::string::npos ? mant : mant.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : mant.substr(dot + 1);
  digits = intPart + frac;
  exp10 = static_cast<int>(intPart.size()) + e;  // position of the decimal point
  size_t lead = digits.find_first_not_of('0');
  digits = digits.substr(lead);
  exp10 -= static_cast<int>(lead);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  const int k = static_cast<int>(digits.size());
  const int n = exp10;
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out = digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out = "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  } else {
    const int ex = n - 1;
    out = digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += (ex >= 0 ? "e+" : "e-") + std::to_string(std::abs(ex));
  }
  return negative ? "-" + out : out;
}

void stringifyInto(const Json& j, std::string& out) {
  switch (j.type()) {
    case Json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out.push_back(',');
        first = false;
        out += Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace);
        out.push_back(':');
        stringifyInto(it.value(), out);
      }
      out.push_back('}');
      break;
    }
    case Json::value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& v : j) {
        if (!first) out.push_back(',');
        first = false;
        stringifyInto(v, out);
      }
      out.push_back(']');
      break;
    }
    case Json::value_t::number_float: out += jsNumber(j.get<double>()); break;
    default: out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

}  // namespace

void normaliseKeyOrder(AnyObject& object) {
  std::stable_sort(object.begin(), object.end(), [](const auto& a, const auto& b) {
    uint64_t ia = 0;
    uint64_t ib = 0;
    const bool xa = isArrayIndex(a.first, ia);
    const bool xb = isArrayIndex(b.first, ib);
    if (xa && xb) return ia < ib;
    return xa && !xb;
  });
}

Any readAny(Decoder& dec, int depth) {
  if (depth > kMaxAnyDepth) throw DecodeError("any value nested too deeply");
  const uint8_t tag = dec.readUint8();
  switch (tag) {
    case kTagUndefined: return Any(AnyUndefined{});
    case kTagNull: return Any(AnyNull{});
    case kTagInteger: {
      bool negZero = false;
      const int64_t v = dec.readVarInt(&negZero);
      return Any(negZero ? -0.0 : static_cast<double>(v));
    }
    case kTagFloat32: return Any(static_cast<double>(dec.readFloat32()));
    case kTagFloat64: return Any(dec.readFloat64());
    case kTagBigInt: return Any(AnyBigInt{dec.readBigInt64()});
    case kTagFalse: return Any(false);
    case kTagTrue: return Any(true);
    case kTagString: return Any(dec.readVarString());
    case kTagObject: {
      const uint64_t n = dec.readCount();
      AnyObject obj;
      obj.reserve(n);
      for (uint64_t i = 0; i < n; ++i) {
        std::string key = dec.readVarString();
        Any v = readAny(dec, depth + 1);
        auto it = std::find_if(obj.begin(), obj.end(), [&](const auto& p) { return p.first == key; });
        if (it != obj.end()) {
          it->second = std::move(v);  // JS assignment keeps the first position
        } else {
          obj.emplace_back(std::move(key), std::move(v));
        }
      }
      normaliseKeyOrder(obj);
      return Any(std::move(obj));
    }
    case kTagArray: {
      const uint64_t n = dec.readCount();
      AnyArray arr;
      arr.reserve(n);
      for (uint64_t i = 0; i < n; ++i) arr.push_back(readAny(dec, depth + 1));
      return Any(std::move(arr));
    }
    case kTagBinary: {
      const auto b = dec.readVarUint8Array();
      return Any(Bytes(b.begin(), b.end()));
    }
    default:
      // lib0 decodes unknown tags as undefined; mirror it so we accept what yjs accepts.
      return Any(AnyUndefined{});
  }
}

void writeAny(Encoder& enc, const Any& any) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, AnyUndefined>) {
          enc.writeUint8(kTagUndefined);
        } else if constexpr (std::is_same_v<T, AnyNull>) {
          enc.writeUint8(kTagNull);
        } else if constexpr (std::is_same_v<T, bool>) {
          enc.writeUint8(v ? kTagTrue : kTagFalse);
        } else if constexpr (std::is_same_v<T, double>) {
          writeNumber(enc, v);
        } else if constexpr (std::is_same_v<T, AnyBigInt>) {
          enc.writeUint8(kTagBigInt);
          enc.writeBigInt64(v.value);
        } else if constexpr (std::is_same_v<T, std::string>) {
          enc.writeUint8(kTagString);
          enc.writeVarString(v);
        } else if constexpr (std::is_same_v<T, AnyObject>) {
          enc.writeUint8(kTagObject);
          enc.writeVarUint(v.size());
          for (const auto& [key, val] : v) {
            enc.writeVarString(key);
            writeAny(enc, val);
          }
        } else if constexpr (std::is_same_v<T, AnyArray>) {
          enc.writeUint8(kTagArray);
          enc.writeVarUint(v.size());
          for (const auto& val : v) writeAny(enc, val);
        } else {
          enc.writeUint8(kTagBinary);
          enc.writeVarUint8Array(v);
        }
      },
      any.value);
}

Json anyToJson(const Any& any) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, AnyUndefined> || std::is_same_v<T, AnyNull>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, double>) {
          if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9007199254740992.0) {
            return static_cast<int64_t>(v);
          }
          if (!std::isfinite(v)) return nullptr;
          return v;
        } else if constexpr (std::is_same_v<T, AnyBigInt>) {
          return v.value;
        } else if constexpr (std::is_same_v<T, AnyObject>) {
          Json o = Json::object();
          for (const auto& [key, val] : v) {
            if (!val.isUndefined()) o[key] = anyToJson(val);
          }
          return o;
        } else if constexpr (std::is_same_v<T, AnyArray>) {
          Json a = Json::array();
          for (const auto& val : v) a.push_back(anyToJson(val));
          return a;
        } else {
          Json o = Json::object();  // JSON.stringify of a Uint8Array
          for (size_t i = 0; i < v.size(); ++i) o[std::to_string(i)] = v[i];
          return o;
        }
      },
      any.value);
}

Any jsonToAny(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded: return Any(AnyNull{});
    case Json::value_t::boolean: return Any(j.get<bool>());
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return Any(j.get<double>());
    case Json::value_t::string: return Any(j.get<std::string>());
    case Json::value_t::array: {
      AnyArray a;
      for (const auto& v : j) a.push_back(jsonToAny(v));
      return Any(std::move(a));
    }
    case Json::value_t::object: {
      AnyObject o;
      for (auto it = j.begin(); it != j.end(); ++it) o.emplace_back(it.key(), jsonToAny(it.value()));
      normaliseKeyOrder(o);
      return Any(std::move(o));
    }
    default: return Any(AnyNull{});
  }
}

std::string jsStringify(const Json& json) {
  std::string out;
  stringifyInto(json, out);
  return out;
}

}  // namespace docs::ydoc
