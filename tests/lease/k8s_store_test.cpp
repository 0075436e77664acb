// The Kubernetes lease store against the local API server
// (tests/support/local_k8s_server.h), every request checked against
// Kubernetes' OpenAPI description: every transition, expiry on an injected
// clock, the clock-skew margin, a lost race (409), a Lease written by hand,
// and the failures that close it (unreachable, 401, 403, a rotated token).
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "etcd_server.h"
#include "k8s_fixture.h"
#include "lease/k8s_lease_json.h"
#include "lease/open_store.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

void checkRefused(const Status& s, ErrorCode code, const std::string& part) {
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code == code);
  CHECK_MESSAGE(s.error().message.find(part) != std::string::npos, s.error().message);
}

template <typename T>
Status statusOf(const Result<T>& r) {
  if (!r) return r.error();
  return Ok{};
}

std::string annotation(const json::object& lease, const char* name) {
  return std::string(lease.at("metadata").at("annotations").at(name).as_string());
}

// A transport that lets another client write the Lease just before the
// store's first write reaches the server: the store's read is then stale.
struct InterleavingTransport : http::Transport {
  http::Transport& inner;
  std::function<void()> before;
  bool done = false;
  InterleavingTransport(http::Transport& t, std::function<void()> f) : inner(t), before(std::move(f)) {}
  http::Response send(const http::Request& r) override {
    if (!done && (r.method == "PUT" || r.method == "POST")) {
      done = true;
      before();
    }
    return inner.send(r);
  }
};

}  // namespace

TEST_CASE("k8s store: claim, renew, teardown marker not claimable, release, claim again") {
  K8sClockedStore s;
  auto first = s.store.claim("wt.12.fmt", "run 1", 10s);
  REQUIRE(first.ok());
  CHECK(first->token == 1);
  auto object = s.scratch.server.object(s.scratch.leasePath("wt.12.fmt"));
  REQUIRE(object.has_value());
  CHECK(annotation(*object, k8s::kTokenAnnotation) == "1");
  CHECK(annotation(*object, k8s::kPhaseAnnotation) == "active");
  CHECK(annotation(*object, k8s::kResourceAnnotation) == "wt.12.fmt");
  CHECK(object->at("spec").at("holderIdentity").as_string() == "run 1");
  CHECK(object->at("spec").at("leaseDurationSeconds").as_int64() == 10);
  CHECK(object->at("spec").at("renewTime").as_string() == "2023-11-14T22:13:20.000000Z");  // kT0
  checkRefused(statusOf(s.store.claim("wt.12.fmt", "run 2", 10s)), ErrorCode::LeaseUnavailable,
               "wt.12.fmt is held by run 1 (token 1)");
  s.clock.set(kT0 + 5'000);
  auto renewed = s.store.renew(*first, 10s);
  REQUIRE(renewed.ok());
  CHECK(renewed->expiresAtMs == kT0 + 15'000);
  CHECK(s.scratch.server.object(s.scratch.leasePath("wt.12.fmt"))->at("spec").at("renewTime").as_string() ==
        "2023-11-14T22:13:25.000000Z");
  CHECK(s.store.checkFence(*renewed).ok());
  auto marked = s.store.beginTeardown(*renewed);
  REQUIRE(marked.ok());
  s.clock.set(kT0 + 3'600'000);  // long expired: a teardown is still not claimable
  checkRefused(statusOf(s.store.claim("wt.12.fmt", "run 2", 10s)), ErrorCode::LeaseUnavailable,
               "wt.12.fmt is being torn down by run 1 (token 1)");
  checkRefused(s.store.checkFence(*marked), ErrorCode::LeaseLost, "is being torn down");
  REQUIRE(s.store.release(*marked).ok());
  auto freed = s.scratch.server.object(s.scratch.leasePath("wt.12.fmt"));
  CHECK(annotation(*freed, k8s::kPhaseAnnotation) == "free");
  CHECK_FALSE(freed->at("spec").as_object().contains("holderIdentity"));
  auto second = s.store.claim("wt.12.fmt", "run 2", 10s);
  REQUIRE(second.ok());
  CHECK(second->token == 2);  // the token grows across a release: never reused
  CHECK(annotation(*s.scratch.server.object(s.scratch.leasePath("wt.12.fmt")), k8s::kTokenAnnotation) == "2");
  auto all = s.store.list();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 1);
  CHECK((*all)[0].holder == "run 2");
}

TEST_CASE("k8s store: a stale token is refused by renew, teardown, release and the fence") {
  K8sClockedStore s(0);
  auto old = s.store.claim("wt", "old holder", 10s);
  REQUIRE(old.ok());
  s.clock.set(kT0 + 10'000);  // expired (no skew in this store)
  auto next = s.store.claim("wt", "new holder", 10s);
  REQUIRE(next.ok());
  CHECK(next->token == 2);
  const std::string stale = "token 1 for wt is stale: the current token is 2 (held by new holder)";
  checkRefused(statusOf(s.store.renew(*old, 10s)), ErrorCode::LeaseLost, stale);
  checkRefused(statusOf(s.store.beginTeardown(*old)), ErrorCode::LeaseLost, stale);
  checkRefused(s.store.release(*old), ErrorCode::LeaseLost, stale);
  checkRefused(s.store.checkFence(*old), ErrorCode::LeaseLost, stale);
  CHECK(s.store.checkFence(*next).ok());
}

TEST_CASE("k8s store: a lease expires on the injected clock, exclusive at its expiry, to the millisecond") {
  K8sClockedStore s(0);
  auto held = s.store.claim("wt", "me", 1'500ms);
  REQUIRE(held.ok());
  CHECK(held->expiresAtMs == kT0 + 1'500);
  s.clock.set(kT0 + 1'499);
  CHECK(s.store.checkFence(*held).ok());
  s.clock.set(kT0 + 1'500);
  checkRefused(s.store.checkFence(*held), ErrorCode::LeaseLost, "expired at 2023-11-14T22:13:21.500Z");
  checkRefused(statusOf(s.store.renew(*held, 10s)), ErrorCode::LeaseLost, "expired at");
}

TEST_CASE("k8s store: another holder's lease is claimable only maxClockSkewMs after its expiry") {
  K8sClockedStore s(2000);
  auto held = s.store.claim("wt", "on a slow clock", 10s);
  REQUIRE(held.ok());
  s.clock.set(kT0 + 10'000 + 1'999);
  checkRefused(statusOf(s.store.claim("wt", "next", 10s)), ErrorCode::LeaseUnavailable,
               "held by on a slow clock (token 1)");
  s.clock.set(kT0 + 12'000);
  auto next = s.store.claim("wt", "next", 10s);
  REQUIRE(next.ok());
  CHECK(next->token == 2);
  CHECK(next->expiresAtMs == kT0 + 22'000);
}

TEST_CASE("k8s store: a write answered 409 Conflict is a lost race, decided again on what the winner wrote") {
  K8sClockedStore s(0);
  auto mine = s.store.claim("wt", "me", 10s);
  REQUIRE(mine.ok());
  s.clock.set(kT0 + 20'000);  // expired: claimable by anyone
  // Between our read and our replace, another runner claims it (token 2).
  InterleavingTransport racing(s.transport, [&] {
    Lease theirs{"wt", Phase::Active, "the other runner", 2, kT0 + 80'000, kT0 + 20'000};
    auto object = k8s::encodeLease(theirs, k8s::objectName("loopwright-", "wt"), "ci", kT0 + 20'000);
    s.scratch.server.put(s.scratch.leasePath("wt"), object);
  });
  K8sStore racer(racing, s.scratch.options(0), s.clock.fn());
  checkRefused(statusOf(racer.claim("wt", "late runner", 10s)), ErrorCode::LeaseUnavailable,
               "wt is held by the other runner (token 2)");
  auto requests = s.scratch.server.requests();
  CHECK(std::count_if(requests.begin(), requests.end(), [](const std::string& r) { return r.starts_with("PUT "); }) ==
        1);
  auto held = s.scratch.server.object(s.scratch.leasePath("wt"));
  CHECK(held->at("spec").at("holderIdentity").as_string() == "the other runner");  // not overwritten
}

TEST_CASE("k8s store: two resources whose object names collide are refused, never shared") {
  K8sClockedStore s;
  REQUIRE(s.store.claim("wt", "me", 10s).ok());
  // Another resource's record at wt's object name (as a collision of the name mapping would leave it).
  auto object = *s.scratch.server.object(s.scratch.leasePath("wt"));
  object["metadata"].as_object()["annotations"].as_object()[k8s::kResourceAnnotation] = "WT";
  s.scratch.server.put(s.scratch.leasePath("wt"), object);
  checkRefused(statusOf(s.store.claim("wt", "other", 10s)), ErrorCode::LeaseUnavailable,
               "it is the lease of WT, not of wt");
}

TEST_CASE("k8s store: a Lease that is not a loopwright record fails closed and is not overwritten") {
  K8sClockedStore s;
  json::object foreign{{"apiVersion", "coordination.k8s.io/v1"},
                       {"kind", "Lease"},
                       {"metadata", json::object{{"name", k8s::objectName("loopwright-", "wt")},
                                                 {"namespace", "ci"},
                                                 {"labels", json::object{{k8s::kManagedByLabel, "loopwright"}}}}},
                       {"spec", json::object{{"holderIdentity", "kube-controller"}, {"leaseDurationSeconds", 15}}}};
  s.scratch.server.put(s.scratch.leasePath("wt"), foreign);
  auto claim = s.store.claim("wt", "me", 10s);
  checkRefused(statusOf(claim), ErrorCode::LeaseUnavailable, "is not a loopwright lease record");
  CHECK(claim.error().hint.find("kubectl delete lease") != std::string::npos);
  CHECK(s.scratch.server.object(s.scratch.leasePath("wt"))->at("spec").at("holderIdentity").as_string() ==
        "kube-controller");
  checkRefused(statusOf(s.store.list()), ErrorCode::LeaseUnavailable, "is not a loopwright lease record");
  auto survey = s.store.survey();
  REQUIRE(survey.ok());
  REQUIRE(survey->size() == 1);
  CHECK(survey->front().unreadable.has_value());
}

TEST_CASE("k8s store: unreachable, unauthenticated and forbidden all fail closed with LEASE_UNAVAILABLE") {
  K8sClockedStore s;
  SUBCASE("forbidden: the token has no verbs on leases") {
    s.scratch.rotateToken(lw::test::LocalK8sServer::kForbiddenToken);
    checkRefused(statusOf(s.store.claim("wt", "me", 10s)), ErrorCode::LeaseUnavailable,
                 "with HTTP 403: leases.coordination.k8s.io \"" + k8s::objectName("loopwright-", "wt") +
                     "\" is forbidden: User \"system:serviceaccount:ci:loopwright\" cannot get resource \"leases\"");
  }
  SUBCASE("unauthenticated: an unknown token") {
    s.scratch.rotateToken("expired-token");
    checkRefused(statusOf(s.store.claim("wt", "me", 10s)), ErrorCode::LeaseUnavailable, "with HTTP 401: Unauthorized");
  }
  SUBCASE("the token file is gone") {
    std::filesystem::remove(s.scratch.tokenFile);
    checkRefused(statusOf(s.store.claim("wt", "me", 10s)), ErrorCode::LeaseUnavailable, s.scratch.tokenFile);
  }
  SUBCASE("the API server answers 503") {
    s.scratch.server.setUnavailable(true);
    checkRefused(statusOf(s.store.claim("wt", "me", 10s)), ErrorCode::LeaseUnavailable, "with HTTP 503");
  }
  CHECK_FALSE(s.scratch.server.object(s.scratch.leasePath("wt")).has_value());
}

TEST_CASE("k8s store: an API server that is not running fails closed") {
  http::CurlTransport transport{http::Policy{}};
  lw::test::TempDir dir;
  std::string server = "http://127.0.0.1:" + std::to_string(freeLoopbackPort());
  K8sStoreOptions options{
      k8s::Access{server, "", "", dir.write("token", "t"), "", "ci", "test"}, "ci", "loopwright-", 2000, 4, 2000ms};
  K8sStore store(transport, options, systemNowMs);
  checkRefused(statusOf(store.claim("wt", "me", 10s)), ErrorCode::LeaseUnavailable,
               "the Kubernetes API server at " + server +
                   " did not answer GET /apis/coordination.k8s.io/v1/namespaces/ci/leases/");
}

TEST_CASE("k8s store: a rotated token file is read again on the next request") {
  K8sClockedStore s;
  s.scratch.rotateToken(lw::test::LocalK8sServer::kForbiddenToken);
  REQUIRE_FALSE(s.store.claim("wt", "me", 10s).ok());
  s.scratch.rotateToken(lw::test::LocalK8sServer::kToken);  // the kubelet rotated the projected token
  auto held = s.store.claim("wt", "me", 10s);
  REQUIRE(held.ok());
  CHECK(held->token == 1);
}

TEST_CASE("k8s store: the host config's leases (store kubernetes, a kubeconfig) open this store") {
  K8sScratch scratch;
  const std::string kubeconfig =
      scratch.dir.write("kubeconfig",
                        "apiVersion: v1\nkind: Config\ncurrent-context: ci\n"
                        "clusters: [{name: local, cluster: {server: '" +
                            scratch.server.url() +
                            "'}}]\n"
                            "users: [{name: runner, user: {tokenFile: token}}]\n"
                            "contexts: [{name: ci, context: {cluster: local, user: runner, namespace: ci}}]\n");
  LeaseStoreConfig config;
  config.store = LeaseStoreKind::Kubernetes;
  config.kubeconfig = kubeconfig;
  auto store = openStore(config, scratch.dir.root);
  REQUIRE(store.ok());
  auto held = (*store)->claim("wt", "me", 10s);
  REQUIRE(held.ok());
  CHECK(scratch.server.object(scratch.leasePath("wt")).has_value());
  CHECK(storeName(config, scratch.dir.root) == "kubernetes " + kubeconfig);
  auto survey = surveyStore(config, scratch.dir.root);
  REQUIRE(survey.ok());
  REQUIRE(survey->size() == 1);
  CHECK(survey->front().file == "ci/" + k8s::objectName("loopwright-", "wt"));
  config.kubeconfig.clear();  // in-cluster, but this is not a pod
  if (std::getenv("KUBERNETES_SERVICE_HOST") == nullptr) {
    auto outside = openStore(config, scratch.dir.root);
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().code == ErrorCode::LeaseUnavailable);
  }
  CHECK(scratch.server.violations() == std::vector<std::string>{});
}
