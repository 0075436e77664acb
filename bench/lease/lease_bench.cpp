// Lease claim and renew latency, p50 and p99 over N operations each,
// against the local Kubernetes API server (tests/support/local_k8s_server.h,
// every request checked against the OpenAPI description) and a real etcd
// (tests/lease/etcd_server.h, when `etcd` is installed). The floor row is one
// bare GET over the same transport: a claim is a read and a write, so about
// two floors. Usage: bench_lease [N] (default 1000).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "core/http_curl.h"
#include "etcd_server.h"
#include "lease/etcd_store.h"
#include "lease/k8s_store.h"
#include "support/local_k8s_server.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::lease;
using namespace std::chrono_literals;

namespace {

// Milliseconds of each of `n` calls of `op`, which must succeed.
std::vector<double> timed(int n, const std::function<bool(int)>& op) {
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (!op(i)) {
      std::fprintf(stderr, "operation %d failed\n", i);
      std::exit(1);
    }
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return ms;
}

void row(const char* store, const char* op, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))]; };
  std::printf("%-28s %-8s n=%-5zu p50 %7.3f ms   p99 %7.3f ms\n", store, op, ms.size(), at(0.50), at(0.99));
}

// Claims n resources, then renews each once.
void claimsAndRenews(const char* name, Store& store, int n) {
  std::vector<Lease> held(static_cast<std::size_t>(n));
  row(name, "claim", timed(n, [&](int i) {
        auto lease = store.claim("bench-" + std::to_string(i), "bench", 3'600s);
        if (lease) held[static_cast<std::size_t>(i)] = *lease;
        return lease.ok();
      }));
  row(name, "renew", timed(n, [&](int i) { return store.renew(held[static_cast<std::size_t>(i)], 3'600s).ok(); }));
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  http::CurlTransport transport{http::Policy{}};
  {
    lw::test::LocalK8sServer server;
    lw::test::TempDir dir;
    k8s::Access access{server.url(), "", "", dir.write("token", lw::test::LocalK8sServer::kToken), "", "ci", "bench"};
    http::Request get;
    get.url = server.url() + "/apis/coordination.k8s.io/v1/namespaces/ci/leases/absent";
    get.headers = {{"Authorization", std::string("Bearer ") + lw::test::LocalK8sServer::kToken}};
    row("floor: local k8s, one GET", "get", timed(n, [&](int) { return transport.send(get).status == 404; }));
    K8sStore store(transport, K8sStoreOptions{access, "ci", "loopwright-", 2000, 16, 5000ms}, systemNowMs);
    claimsAndRenews("kubernetes (local API)", store, n);
    if (!server.violations().empty()) std::fprintf(stderr, "OpenAPI violations: %s\n", server.violations()[0].c_str());
  }
  if (auto* etcd = lw::lease::test::EtcdServer::shared()) {
    http::Request range;
    range.method = "POST";
    range.url = etcd->endpoint() + "/v3/kv/range";
    range.body = etcd::rangeKeyBody("/absent");
    row("floor: etcd, one range", "range", timed(n, [&](int) { return transport.send(range).status == 200; }));
    EtcdStore store(transport, EtcdStoreOptions{etcd->endpoint(), etcd->freshPrefix("bench"), 2000, 16, 5000ms},
                    systemNowMs);
    claimsAndRenews("etcd", store, n);
  } else {
    std::printf("etcd: not measured (%s)\n", lw::lease::test::EtcdServer::failure().c_str());
  }
  return 0;
}
