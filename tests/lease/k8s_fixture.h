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

// A store's options against the server at `url` with the token in `tokenFile`.
inline K8sStoreOptions k8sOptionsAt(const std::string& url, const std::string& tokenFile, std::int64_t skewMs = 2000) {
  k8s::Access access{url, "", "", tokenFile, "", "ci", "the test's service account"};
  return K8sStoreOptions{access, "ci", "loopwright-", skewMs, 16, std::chrono::milliseconds(5000)};
}

// The server's token in a file of the test's.
inline std::string writeK8sToken(const lw::test::TempDir& dir) {
  return dir.write("token", std::string(lw::test::LocalK8sServer::kToken) + "\n");
}

struct K8sScratch {
  lw::test::LocalK8sServer server;
  lw::test::TempDir dir;
  std::string tokenFile = writeK8sToken(dir);

  k8s::Access access() const { return options().access; }
  K8sStoreOptions options(std::int64_t skewMs = 2000) const { return k8sOptionsAt(server.url(), tokenFile, skewMs); }
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
