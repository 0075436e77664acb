// What the Kubernetes lease tests share: the local API server, a token file
// the test can rotate, and a store on a settable clock against them.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "core/http_curl.h"
#include "lease/k8s_lease_json.h"
#include "lease/k8s_store.h"
#include "lease_fixture.h"
#include "support/local_k8s_server.h"
#include "support/temp_dir.h"

namespace lw::lease::test {

struct K8sScratch {
  lw::test::LocalK8sServer server;
  lw::test::TempDir dir;
  std::string tokenFile = dir.write("token", std::string(lw::test::LocalK8sServer::kToken) + "\n");

  k8s::Access access() const {
    return k8s::Access{server.url(), "", "", tokenFile, "", "ci", "the test's service account"};
  }
  K8sStoreOptions options(std::int64_t skewMs = 2000) const {
    return K8sStoreOptions{access(), "ci", "loopwright-", skewMs, 16, std::chrono::milliseconds(5000)};
  }
  void rotateToken(const std::string& token) const { dir.write("token", token + "\n"); }
  std::string leasePath(const std::string& resource) const {
    return "/apis/coordination.k8s.io/v1/namespaces/ci/leases/" + k8s::objectName("loopwright-", resource);
  }
};

// A store against the scratch server on a clock the test sets.
struct K8sClockedStore {
  K8sScratch scratch;
  http::CurlTransport transport{http::Policy{}};
  ManualClock clock;
  K8sStore store;
  explicit K8sClockedStore(std::int64_t skewMs = 2000) : store(transport, scratch.options(skewMs), clock.fn()) {}
  ~K8sClockedStore() { CHECK(scratch.server.violations() == std::vector<std::string>{}); }
};

}  // namespace lw::lease::test
