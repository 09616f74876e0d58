#include "fuzz_targets.hpp"

#include <span>
#include <vector>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/prosemirror.hpp"
#include "docs/ydoc/update.hpp"

namespace docs::ydoc::fuzz {

void decodeOne(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  try {
    const DecodedUpdate u = decodeUpdate(input);
    (void)encodeUpdate(u);
  } catch (const YdocError&) {
  }
  try {
    Doc doc(7);
    doc.applyUpdate(input);
    (void)doc.encodeStateAsUpdate();
    const Json pm = toProseMirrorJson(doc);
    (void)toMarkdown(pm);
    (void)toHtml(pm);
    // a second application must be a no-op
    doc.applyUpdate(input);
  } catch (const YdocError&) {
  }
}

void mergeOne(const uint8_t* data, size_t size) {
  if (size < 2) return;
  const size_t cut = data[0] % size;
  const std::span<const uint8_t> a(data + 1, cut > 0 ? cut - 1 : 0);
  const std::span<const uint8_t> b(data + (cut > 0 ? cut : 1), size - (cut > 0 ? cut : 1));
  try {
    const Bytes merged = mergeUpdates({a, b});
    const Bytes sv = encodeStateVectorFromUpdate(merged);
    (void)diffUpdate(merged, sv);
    (void)diffUpdate(a, encodeStateVectorFromUpdate(b));
  } catch (const YdocError&) {
  }
}

}  // namespace docs::ydoc::fuzz
