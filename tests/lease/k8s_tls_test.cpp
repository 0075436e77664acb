// The Kubernetes store over https, as in a cluster: the API server's
// certificate is verified against the CA the access names (the service
// account's ca.crt, or a kubeconfig's certificate-authority-data), and a
// server whose certificate another CA signed — a man in the middle — is
// refused: LEASE_UNAVAILABLE, nothing sent past the handshake.
#include <doctest/doctest.h>

#include "k8s_fixture.h"
#include "support/test_ca.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

struct TlsCluster {
  lw::test::TestCa ca{"lw-cluster-ca"};
  lw::test::LocalK8sServer server{lw::test::LocalHttpServer::Tls{ca.certFile, ca.keyFile}};
  lw::test::TempDir dir;
  std::string tokenFile = dir.write("token", lw::test::LocalK8sServer::kToken);

  Result<Lease> claimWith(std::string caFile, std::string caPem) {
    K8sStoreOptions options;
    options.access = k8s::Access{server.url(), std::move(caFile), std::move(caPem), tokenFile, "", "ci", "test"};
    options.ns = "ci";
    return openK8sStore(options)->claim("wt", "me", 10s);
  }
};

}  // namespace

TEST_CASE("k8s tls: the API server's certificate is verified against the access's CA file or PEM") {
  TlsCluster c;
  REQUIRE(c.server.url().starts_with("https://"));
  auto held = c.claimWith(c.ca.caFile, "");
  REQUIRE_MESSAGE(held.ok(), (held.ok() ? "" : held.error().message));
  CHECK(held->token == 1);
  auto again = c.claimWith("", c.ca.caPem());  // a kubeconfig's certificate-authority-data
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message.find("wt is held by me (token 1)") != std::string::npos);  // it got through
  CHECK(c.server.violations() == std::vector<std::string>{});
}

TEST_CASE("k8s tls: a server whose certificate another CA signed is refused, nothing is written") {
  TlsCluster c;
  lw::test::TestCa attacker{"lw-other-ca"};
  for (const std::string& trusted : {attacker.caFile, std::string()}) {  // another CA; the system's CAs
    CAPTURE(trusted);
    auto claim = c.claimWith(trusted, "");
    REQUIRE_FALSE(claim.ok());
    CHECK(claim.error().code == ErrorCode::LeaseUnavailable);
    CHECK_MESSAGE(claim.error().message.find("did not answer GET") != std::string::npos, claim.error().message);
  }
  CHECK(c.server.requests().empty());  // no request got past the handshake
  CHECK_FALSE(
      c.server.object("/apis/coordination.k8s.io/v1/namespaces/ci/leases/" + k8s::objectName("loopwright-", "wt"))
          .has_value());
}
