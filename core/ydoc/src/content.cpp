#include "docs/ydoc/content.hpp"

#include "docs/ydoc/error.hpp"
#include "docs/ydoc/utf.hpp"

namespace docs::ydoc {
namespace {

constexpr char16_t kReplacementChar = 0xFFFD;

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

uint8_t contentRef(const Content& c) { return static_cast<uint8_t>(c.index() + 1); }

uint64_t contentLength(const Content& c) {
  return std::visit(Overloaded{
                        [](const ContentDeleted& v) -> uint64_t { return v.len; },
                        [](const ContentJson& v) -> uint64_t { return v.values.size(); },
                        [](const ContentString& v) -> uint64_t { return v.str.size(); },
                        [](const ContentAny& v) -> uint64_t { return v.values.size(); },
                        [](const auto&) -> uint64_t { return 1; },
                    },
                    c);
}

bool contentCountable(const Content& c) {
  return !std::holds_alternative<ContentDeleted>(c) && !std::holds_alternative<ContentFormat>(c);
}

Content spliceContent(Content& c, uint64_t offset) {
  return std::visit(Overloaded{
                        [&](ContentDeleted& v) -> Content {
                          Content right = ContentDeleted{v.len - offset};
                          v.len = offset;
                          return right;
                        },
                        [&](ContentJson& v) -> Content {
                          ContentJson right;
                          right.values.assign(v.values.begin() + static_cast<ptrdiff_t>(offset), v.values.end());
                          v.values.resize(offset);
                          return right;
                        },
                        [&](ContentAny& v) -> Content {
                          ContentAny right;
                          right.values.assign(v.values.begin() + static_cast<ptrdiff_t>(offset), v.values.end());
                          v.values.resize(offset);
                          return right;
                        },
                        [&](ContentString& v) -> Content {
                          ContentString right{v.str.substr(offset)};
                          v.str.resize(offset);
                          // never leave half a surrogate pair on either side (yjs #248)
                          if (offset > 0) {
                            const char16_t last = v.str[offset - 1];
                            if (last >= 0xD800 && last <= 0xDBFF) {
                              v.str[offset - 1] = kReplacementChar;
                              if (!right.str.empty()) right.str[0] = kReplacementChar;
                            }
                          }
                          return right;
                        },
                        [&](auto&) -> Content { throw InvalidUpdateError("content of length 1 cannot be split"); },
                    },
                    c);
}

bool mergeContent(Content& left, Content& right) {
  if (left.index() != right.index()) return false;
  return std::visit(Overloaded{
                        [&](ContentDeleted& v) {
                          v.len += std::get<ContentDeleted>(right).len;
                          return true;
                        },
                        [&](ContentJson& v) {
                          auto& r = std::get<ContentJson>(right).values;
                          v.values.insert(v.values.end(), r.begin(), r.end());
                          return true;
                        },
                        [&](ContentAny& v) {
                          auto& r = std::get<ContentAny>(right).values;
                          v.values.insert(v.values.end(), r.begin(), r.end());
                          return true;
                        },
                        [&](ContentString& v) {
                          v.str += std::get<ContentString>(right).str;
                          return true;
                        },
                        [](auto&) { return false; },
                    },
                    left);
}

Content readContent(Decoder& dec, uint8_t ref) {
  switch (ref) {
    case 1: return ContentDeleted{dec.readVarUint()};
    case 2: {
      ContentJson c;
      const uint64_t n = dec.readCount();
      c.values.reserve(n);
      for (uint64_t i = 0; i < n; ++i) c.values.push_back(dec.readVarString());
      return c;
    }
    case 3: {
      const auto b = dec.readVarUint8Array();
      return ContentBinary{Bytes(b.begin(), b.end())};
    }
    case 4: {
      const auto b = dec.readVarUint8Array();
      return ContentString{utf8ToUtf16(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()))};
    }
    case 5: return ContentEmbed{dec.readVarString()};
    case 6: {
      ContentFormat c;
      c.key = dec.readVarString();
      c.json = dec.readVarString();
      return c;
    }
    case 7: {
      ContentType c;
      const uint64_t ref7 = dec.readVarUint();
      if (ref7 > 6) throw DecodeError("unknown type ref " + std::to_string(ref7));
      c.ref = static_cast<TypeRef>(ref7);
      if (c.ref == TypeRef::XmlElement || c.ref == TypeRef::XmlHook) c.name = dec.readVarString();
      return c;
    }
    case 8: {
      ContentAny c;
      const uint64_t n = dec.readCount();
      c.values.reserve(n);
      for (uint64_t i = 0; i < n; ++i) c.values.push_back(readAny(dec));
      return c;
    }
    case 9: {
      ContentDoc c;
      c.guid = dec.readVarString();
      c.opts = readAny(dec);
      return c;
    }
    default: throw DecodeError("unknown content ref " + std::to_string(ref));
  }
}

void writeContent(Encoder& enc, const Content& c, uint64_t offset) {
  std::visit(Overloaded{
                 [&](const ContentDeleted& v) { enc.writeVarUint(v.len - offset); },
                 [&](const ContentJson& v) {
                   enc.writeVarUint(v.values.size() - offset);
                   for (size_t i = offset; i < v.values.size(); ++i) enc.writeVarString(v.values[i]);
                 },
                 [&](const ContentBinary& v) { enc.writeVarUint8Array(v.data); },
                 [&](const ContentString& v) {
                   if (offset == 0) {
                     enc.writeVarString(utf16ToUtf8(v.str));
                   } else {
                     enc.writeVarString(utf16ToUtf8(std::u16string_view(v.str).substr(offset)));
                   }
                 },
                 [&](const ContentEmbed& v) { enc.writeVarString(v.json); },
                 [&](const ContentFormat& v) {
                   enc.writeVarString(v.key);
                   enc.writeVarString(v.json);
                 },
                 [&](const ContentType& v) {
                   enc.writeVarUint(static_cast<uint8_t>(v.ref));
                   if (v.ref == TypeRef::XmlElement || v.ref == TypeRef::XmlHook) enc.writeVarString(v.name);
                 },
                 [&](const ContentAny& v) {
                   enc.writeVarUint(v.values.size() - offset);
                   for (size_t i = offset; i < v.values.size(); ++i) writeAny(enc, v.values[i]);
                 },
                 [&](const ContentDoc& v) {
                   enc.writeVarString(v.guid);
                   writeAny(enc, v.opts);
                 },
             },
             c);
}

}  // namespace docs::ydoc
