// The cross-site guard: which requests a browser could be made to send with our cookies.
#include <gtest/gtest.h>

#include "http/cross_site_guard.hpp"

using docs::HttpError;
using docs::Method;
using docs::core::AmbientRequest;
using docs::core::refuseCrossSite;

namespace {

AmbientRequest jsonPost() {
  AmbientRequest r;
  r.method = Method::Post;
  r.contentType = "application/json";
  r.hasBody = true;
  return r;
}

int refusal(const AmbientRequest& request) {
  try {
    refuseCrossSite(request);
    return 0;
  } catch (const HttpError& error) {
    return error.status();
  }
}

}  // namespace

TEST(CrossSiteGuard, AnotherOriginIsRefusedOursAndAllowedOnesPass) {
  auto r = jsonPost();
  r.origin = "https://evil.example";
  EXPECT_EQ(refusal(r), 403);
  r.origin = "null";  // sandboxed frames
  EXPECT_EQ(refusal(r), 403);
  r.originAllowed = true;
  r.origin = "https://docs.example";
  EXPECT_EQ(refusal(r), 0);
}

TEST(CrossSiteGuard, SecFetchSiteCountsWhenThereIsNoOrigin) {
  auto r = jsonPost();
  for (const char* site : {"cross-site", "same-site"}) {
    r.secFetchSite = site;
    EXPECT_EQ(refusal(r), 403) << site;
  }
  for (const char* site : {"same-origin", "none", ""}) {
    r.secFetchSite = site;
    EXPECT_EQ(refusal(r), 0) << site;
  }
}

TEST(CrossSiteGuard, FormAndPlainTextBodiesAreRefusedOnJsonRoutes) {
  auto r = jsonPost();
  for (const char* type : {"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", ""}) {
    r.contentType = type;
    EXPECT_EQ(refusal(r), 415) << type;
  }
  for (const char* type : {"application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json"}) {
    r.contentType = type;
    EXPECT_EQ(refusal(r), 0) << type;
  }
  r.contentType = "text/plain";
  r.hasBody = false;  // nothing to read
  EXPECT_EQ(refusal(r), 0);
}

TEST(CrossSiteGuard, UploadRoutesTakeMultipartButNotPlainText) {
  auto r = jsonPost();
  r.uploadRoute = true;
  r.contentType = "multipart/form-data; boundary=----x";
  EXPECT_EQ(refusal(r), 0);
  r.contentType = "image/png";
  EXPECT_EQ(refusal(r), 0);
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded"}) {
    r.contentType = type;
    EXPECT_EQ(refusal(r), 415) << type;
  }
}

TEST(CrossSiteGuard, BearerRequestsAndSafeMethodsAreNotAmbient) {
  auto r = jsonPost();
  r.origin = "https://evil.example";
  r.contentType = "text/plain";
  r.hasAuthorization = true;
  EXPECT_EQ(refusal(r), 0);
  r.hasAuthorization = false;
  for (Method method : {Method::Get, Method::Head, Method::Options}) {
    r.method = method;
    EXPECT_EQ(refusal(r), 0);
  }
  for (Method method : {Method::Put, Method::Patch, Method::Delete}) {
    r.method = method;
    EXPECT_EQ(refusal(r), 403);
  }
}
