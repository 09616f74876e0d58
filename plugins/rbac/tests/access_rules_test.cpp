// Every combination of the access decision, against the rule written out longhand.
#include <gtest/gtest.h>

#include "access_rules.hpp"
#include "emails.hpp"

using docs::Role;
using docs_rbac::deniedStatus;

TEST(AccessRules, EveryCombination) {
  const Role roles[] = {Role::None, Role::Read, Role::Write, Role::Admin};
  for (bool exists : {false, true})
    for (bool isPublic : {false, true})
      for (bool signedIn : {false, true})
        for (Role granted : roles)
          for (Role needed : {Role::Read, Role::Write, Role::Admin}) {
            Role has = signedIn ? granted : Role::None;
            if (isPublic && has == Role::None) has = Role::Read;
            int expected = !exists ? 404 : has >= needed ? 0 : has == Role::None ? 404 : signedIn ? 403 : 401;
            EXPECT_EQ(deniedStatus(exists, isPublic, signedIn, granted, needed), expected)
                << exists << isPublic << signedIn << int(granted) << int(needed);
          }
}

TEST(AccessRules, PrivateProjectsDoNotLeak) {
  // A stranger and an anonymous caller get the same answer as for a missing project.
  EXPECT_EQ(deniedStatus(true, false, true, Role::None, Role::Read), 404);
  EXPECT_EQ(deniedStatus(true, false, false, Role::None, Role::Admin), 404);
  EXPECT_EQ(deniedStatus(false, false, true, Role::Admin, Role::Read), 404);
  // Public: reading is open, writing needs sign-in, then a grant.
  EXPECT_EQ(deniedStatus(true, true, false, Role::None, Role::Read), 0);
  EXPECT_EQ(deniedStatus(true, true, false, Role::None, Role::Write), 401);
  EXPECT_EQ(deniedStatus(true, true, true, Role::None, Role::Write), 403);
  EXPECT_EQ(deniedStatus(true, true, true, Role::Read, Role::Write), 403);
  EXPECT_EQ(deniedStatus(true, false, true, Role::Write, Role::Admin), 403);
}

TEST(AccessRules, ThrowsTheMatchingHttpError) {
  EXPECT_NO_THROW(docs_rbac::throwIfDenied(0, Role::Read));
  for (int status : {401, 403, 404}) {
    try {
      docs_rbac::throwIfDenied(status, Role::Write);
      FAIL() << status;
    } catch (const docs::HttpError& error) {
      EXPECT_EQ(error.status(), status);
    }
  }
}

TEST(Emails, NormalizeAndValidate) {
  EXPECT_EQ(docs_rbac::normalizeEmail("  Alice@Example.COM \n"), "alice@example.com");
  for (const char* ok : {"a@b.co", "first.last+tag@sub.example.org"}) EXPECT_TRUE(docs_rbac::looksLikeEmail(ok)) << ok;
  for (const char* bad : {"", "a", "a@b", "@b.co", "a@@b.co", "a b@c.de", "a@b.", "a@.b", "a@b.co,c@d.ef", "<a@b.co>"})
    EXPECT_FALSE(docs_rbac::looksLikeEmail(bad)) << bad;
  EXPECT_FALSE(docs_rbac::looksLikeEmail(std::string(250, 'a') + "@b.co"));
}
