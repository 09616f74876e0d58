// Image sniffing, base64, signed URLs, export and page names, without a server.
#include <gtest/gtest.h>

#include <docs/http.hpp>
#include <docs/ydoc/ydoc.hpp>

#include "base64.hpp"
#include "document_store.hpp"
#include "image_rules.hpp"
#include "page_export.hpp"
#include "page_store.hpp"
#include "signed_url.hpp"

using namespace docs_pages;

TEST(ImageRules, SniffsOnlyRealRasterImages) {
  EXPECT_EQ(sniffImage(std::string("\x89PNG\r\n\x1a\n....", 12))->extension, "png");
  EXPECT_EQ(sniffImage("\xFF\xD8\xFF\xE0 JFIF")->extension, "jpg");
  EXPECT_EQ(sniffImage("GIF89a......")->extension, "gif");
  EXPECT_EQ(sniffImage(std::string("RIFF\x10\x00\x00\x00WEBPVP8 ", 16))->extension, "webp");
  for (const char* bad : {"<svg xmlns='http://www.w3.org/2000/svg'/>", "<!DOCTYPE html><script>", "<html>",
                          "RIFF1234WAVE", "", "\x89PN", "%PDF-1.7"})
    EXPECT_FALSE(sniffImage(bad)) << bad;
  auto png = *sniffImage(std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_TRUE(declaredTypeMatches("image/png", png));
  EXPECT_TRUE(declaredTypeMatches("Image/PNG; charset=binary", png));
  EXPECT_FALSE(declaredTypeMatches("image/jpeg", png));
  EXPECT_FALSE(declaredTypeMatches("image/svg+xml", png));
  EXPECT_TRUE(declaredTypeMatches("image/jpg", *sniffImage("\xFF\xD8\xFF")));
  EXPECT_TRUE(validImageName("0123456789abcdef.png"));
  EXPECT_FALSE(validImageName("0123456789abcdef.svg"));
  EXPECT_FALSE(validImageName("../../etc/passwd"));
  EXPECT_FALSE(validImageName("0123456789ABCDEF.png"));
}

TEST(Base64, RoundTripsAndRefusesGarbage) {
  for (const std::string& bytes :
       {std::string(), std::string("a"), std::string("ab"), std::string("abc"), std::string("\0\xff\x10", 3)})
    EXPECT_EQ(base64Decode(base64Encode(bytes)), bytes);
  EXPECT_EQ(base64Encode("hello"), "aGVsbG8=");
  EXPECT_EQ(base64Decode("aGVs\nbG8="), "hello");
  EXPECT_FALSE(base64Decode("aGVsbG8"));
  EXPECT_FALSE(base64Decode("a=GV"));
  EXPECT_FALSE(base64Decode("!!!!"));
}

TEST(SignedUrl, VerifiesOnlyItsOwnUnexpiredSignatures) {
  UrlSigner signer("key");
  std::string signature = signer.sign("1/2/a.png", 1000);
  EXPECT_TRUE(signer.verify("1/2/a.png", 1000, signature, 999));
  EXPECT_FALSE(signer.verify("1/2/a.png", 1000, signature, 1001));
  EXPECT_FALSE(signer.verify("1/3/a.png", 1000, signature, 999));
  EXPECT_FALSE(signer.verify("1/2/a.png", 1001, signature, 999));
  EXPECT_FALSE(UrlSigner("other").verify("1/2/a.png", 1000, signature, 999));
  EXPECT_FALSE(signer.verify("1/2/a.png", 1000, "", 999));
  EXPECT_NE(UrlSigner("").sign("x", 1), UrlSigner("").sign("x", 1));  // random keys
}

TEST(Export, MarkdownAndHtmlOfAStoredDocument) {
  docs::ydoc::Json pm = {
      {"type", "doc"},
      {"content",
       {{{"type", "heading"}, {"attrs", {{"level", 1}}}, {"content", {{{"type", "text"}, {"text", "Title"}}}}},
        {{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "<b>x</b>"}}}}}}}};
  auto update = docs::ydoc::proseMirrorJsonToUpdate(pm, 7);
  std::string bytes(update.begin(), update.end());
  EXPECT_TRUE(isValidUpdate(bytes));
  std::string md = exportPage(bytes, ExportFormat::Markdown);
  EXPECT_NE(md.find("# Title"), std::string::npos) << md;
  std::string html = exportPage(bytes, ExportFormat::Html);
  EXPECT_NE(html.find("<h1>Title</h1>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<b>x</b>"), std::string::npos) << "text is escaped: " << html;
  EXPECT_EQ(exportPage(std::nullopt, ExportFormat::Markdown), "");
  EXPECT_FALSE(isValidUpdate("not a yjs update"));
  EXPECT_EQ(parseExportFormat("md"), ExportFormat::Markdown);
  EXPECT_FALSE(parseExportFormat("pdf"));
}

TEST(PageNames, TrimCollapseDefaultAndLimit) {
  EXPECT_EQ(validPageName(""), "Untitled");
  EXPECT_EQ(validPageName(" \t "), "Untitled");
  EXPECT_EQ(validPageName("  Getting \n started "), "Getting started");
  EXPECT_EQ(validPageName(std::string(255, 'p')), std::string(255, 'p'));
  EXPECT_THROW(validPageName(std::string(256, 'p')), docs::HttpError);
  // Names from other plugins are cut, at a character boundary.
  EXPECT_EQ(fittedPageName(std::string(300, 'p')), std::string(255, 'p'));
  std::string cyrillic;
  for (int i = 0; i < 300; ++i) cyrillic += "\xd0\x96";
  EXPECT_EQ(fittedPageName(cyrillic), cyrillic.substr(0, 510));
  EXPECT_EQ(fittedPageName("  src/ledger.go \n"), "src/ledger.go");
  EXPECT_EQ(fittedPageName(""), "Untitled");
}

namespace {

// Packed log rows (document_store.hpp): what is packed unpacks to the same updates.
TEST(PageLogRows, PackedUpdatesUnpackInOrder) {
  std::string binary("\x00\xff\x01", 3);
  std::vector<std::string_view> updates = {"first", binary, std::string_view(), "last"};
  auto packed = docs_pages::packUpdates(updates);
  auto unpacked = docs_pages::unpackUpdates(packed, 4);
  ASSERT_EQ(unpacked.size(), 4u);
  for (std::size_t i = 0; i < updates.size(); ++i) EXPECT_EQ(unpacked[i], updates[i]) << i;
  // A single update is stored as is.
  EXPECT_EQ(docs_pages::unpackUpdates("raw bytes", 1), std::vector<std::string>{"raw bytes"});
}

TEST(PageLogRows, DamagedPackedRowsAreRefused) {
  auto packed = docs_pages::packUpdates({"abc", "defg"});
  EXPECT_THROW(docs_pages::unpackUpdates(packed, 3), std::runtime_error);
  EXPECT_THROW(docs_pages::unpackUpdates(packed.substr(0, packed.size() - 1), 2), std::runtime_error);
  EXPECT_THROW(docs_pages::unpackUpdates("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 2), std::runtime_error);
}

}  // namespace
