// DNS rebinding end to end: `docsd generate https://rebind.test/acme/widgets` with glibc's
// resolver asking a real DNS server that answers a public address to the first query and
// 127.0.0.1 to every later one (dns_rebinding.py, run in private network and mount
// namespaces, so the machine's own resolver, addresses and CA bundle are never touched).
// Both addresses serve the repository over https with a certificate for rebind.test, so a
// clone that asked DNS again would succeed at 127.0.0.1 and show it in its pages.

#include <gtest/gtest.h>
#include <unistd.h>

#include "test_support.hpp"

namespace {

bool has(const std::string& output, const std::string& line) { return output.find(line + "\n") != std::string::npos; }

}  // namespace

TEST(ClonePolicy, ARebindingNameThroughTheSystemResolverIsClonedFromTheAddressChecked) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root for private network and mount namespaces";
  if (docs::test::runCommand({"unshare", "--net", "--mount", "--fork", "true"}).first != 0)
    GTEST_SKIP() << "unshare --net --mount is not allowed here";
  if (docs::test::runCommand({"sh", "-c", "command -v ip && command -v openssl && command -v git"}).first != 0)
    GTEST_SKIP() << "needs ip (iproute2), openssl and git";
  docs::test::TempDir work;
  auto [status, output] =
      docs::test::runCommand({"unshare", "--net", "--mount", "--fork", "python3",
                              docs::test::sourceDir() + "/plugins/generation/tests/dns_rebinding.py", "--docsd",
                              docs::test::buildDir() + "/bin/docsd", "--work", work.path()});
  ASSERT_EQ(status, 0) << output;
  EXPECT_TRUE(has(output, "status=0")) << output;
  // The pages are the public repository's: the clone went where the check looked.
  EXPECT_TRUE(has(output, "pages_from_public=1")) << output;
  EXPECT_TRUE(has(output, "pages_from_trap=0")) << output;
  // DNS was asked once (by the check), and the internal server never saw a request.
  EXPECT_TRUE(has(output, "a_queries=1")) << output;
  EXPECT_TRUE(has(output, "trap_requests=0")) << output;
}
