// The etcd store against a real etcd (tests/lease/etcd_server.h): every
// transition through the store, expiry on an injected clock, the clock-skew
// margin, and a corrupt value put by hand.
#include <doctest/doctest.h>

#include "core/base64.h"
#include "core/http_curl.h"
#include "etcd_server.h"
#include "lease/etcd_messages.h"
#include "lease/etcd_store.h"
#include "lease/lease_record.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

// A store under a fresh prefix of the shared server, on a clock the test sets.
struct RealStore {
  http::CurlTransport transport{http::Policy{}};
  ManualClock clock;
  std::string prefix;
  EtcdStore store;
  RealStore(EtcdServer& server, const std::string& name, std::int64_t skewMs = 2000)
      : prefix(server.freshPrefix(name)),
        store(transport, EtcdStoreOptions{server.endpoint(), prefix, skewMs, 16, 5000ms}, clock.fn()) {}

  // Puts `value` at `key` as an operator would with etcdctl.
  void putByHand(const std::string& key, const std::string& value, EtcdServer& server) {
    http::Request put;
    put.method = "POST";
    put.url = server.endpoint() + "/v3/kv/put";
    put.body = R"({"key":")" + lw::base64Encode(key) + R"(","value":")" + lw::base64Encode(value) + R"("})";
    REQUIRE(transport.send(put).status == 200);
  }
  std::string valueAt(const std::string& key, EtcdServer& server) {
    http::Request range;
    range.method = "POST";
    range.url = server.endpoint() + "/v3/kv/range";
    range.body = etcd::rangeKeyBody(key);
    auto kvs = etcd::parseRange(transport.send(range).body, server.endpoint());
    REQUIRE(kvs.ok());
    return kvs->empty() ? std::string("<absent>") : kvs->front().value;
  }
};

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

}  // namespace

TEST_CASE("etcd store: claim, renew, teardown marker not claimable, release, claim again") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "lifecycle");
  auto first = s.store.claim("wt", "run 1", 10s);
  REQUIRE(first.ok());
  CHECK(first->token == 1);
  CHECK(s.valueAt(s.prefix + "wt", server) == encodeRecord(*first));  // exactly the record
  checkRefused(statusOf(s.store.claim("wt", "run 2", 10s)), ErrorCode::LeaseUnavailable,
               "wt is held by run 1 (token 1)");
  s.clock.set(kT0 + 5'000);
  auto renewed = s.store.renew(*first, 10s);
  REQUIRE(renewed.ok());
  CHECK(renewed->expiresAtMs == kT0 + 15'000);
  CHECK(s.store.checkFence(*renewed).ok());
  auto marked = s.store.beginTeardown(*renewed);
  REQUIRE(marked.ok());
  s.clock.set(kT0 + 3'600'000);  // long expired: a teardown is still not claimable
  checkRefused(statusOf(s.store.claim("wt", "run 2", 10s)), ErrorCode::LeaseUnavailable,
               "wt is being torn down by run 1 (token 1)");
  checkRefused(s.store.checkFence(*marked), ErrorCode::LeaseLost, "is being torn down");
  REQUIRE(s.store.release(*marked).ok());
  auto second = s.store.claim("wt", "run 2", 10s);
  REQUIRE(second.ok());
  CHECK(second->token == 2);
  auto all = s.store.list();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 1);
  CHECK((*all)[0].holder == "run 2");
}

TEST_CASE("etcd store: a stale token is refused by renew, teardown, release and the fence") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "stale", 0);
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

TEST_CASE("etcd store: a lease expires on the injected clock, exclusive at its expiry") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "expiry", 0);
  auto held = s.store.claim("wt", "me", 10s);
  REQUIRE(held.ok());
  s.clock.set(kT0 + 9'999);
  CHECK(s.store.checkFence(*held).ok());
  s.clock.set(kT0 + 10'000);
  checkRefused(s.store.checkFence(*held), ErrorCode::LeaseLost, "expired at");
  checkRefused(statusOf(s.store.renew(*held, 10s)), ErrorCode::LeaseLost, "expired at");
}

TEST_CASE("etcd store: another holder's lease is claimable only maxClockSkewMs after its expiry") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "skew", 2000);
  auto held = s.store.claim("wt", "on a slow clock", 10s);
  REQUIRE(held.ok());
  s.clock.set(kT0 + 10'000 + 1'999);
  checkRefused(statusOf(s.store.claim("wt", "next", 10s)), ErrorCode::LeaseUnavailable,
               "held by on a slow clock (token 1)");
  s.clock.set(kT0 + 12'000);
  auto next = s.store.claim("wt", "next", 10s);
  REQUIRE(next.ok());
  CHECK(next->token == 2);
  CHECK(next->claimedAtMs == kT0 + 12'000);
  CHECK(next->expiresAtMs == kT0 + 22'000);  // from our clock, not shortened by the margin
}

TEST_CASE("etcd store: a corrupt value put by hand fails closed and is not overwritten") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "corrupt");
  const std::string key = s.prefix + "wt";
  s.putByHand(key, "{\"schema\":1,\"resource\":\"wt\"", server);
  auto claim = s.store.claim("wt", "me", 10s);
  checkRefused(statusOf(claim), ErrorCode::LeaseUnavailable, "the lease record " + key + " is corrupt (not JSON");
  CHECK(claim.error().hint.find("etcdctl del " + key) != std::string::npos);
  Lease guess{"wt", Phase::Active, "me", 1, kT0 + 10'000, kT0};
  checkRefused(s.store.release(guess), ErrorCode::LeaseUnavailable, "is corrupt");
  CHECK(s.valueAt(key, server) == "{\"schema\":1,\"resource\":\"wt\"");
  checkRefused(statusOf(s.store.list()), ErrorCode::LeaseUnavailable, "is corrupt");
  auto survey = s.store.survey();
  REQUIRE(survey.ok());
  REQUIRE(survey->size() == 1);
  CHECK(survey->front().file == key);
  CHECK(survey->front().unreadable.has_value());
}

TEST_CASE("etcd store: list is the prefix only, in name order, not a longer prefix beside it") {
  LW_REQUIRE_ETCD(server);
  RealStore s(server, "list");
  REQUIRE(s.store.claim("b", "x", 10s).ok());
  REQUIRE(s.store.claim("a", "y", 10s).ok());
  std::string beside = s.prefix.substr(0, s.prefix.size() - 1) + "0/zz";
  s.putByHand(beside, "not ours", server);
  auto all = s.store.list();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 2);
  CHECK((*all)[0].resource == "a");
  CHECK((*all)[1].resource == "b");
}

TEST_CASE("etcd store: a gateway that is not running fails closed") {
  http::CurlTransport transport{http::Policy{}};
  std::string endpoint = "http://127.0.0.1:" + std::to_string(freeLoopbackPort());
  EtcdStore store(transport, EtcdStoreOptions{endpoint, "/p/", 2000, 16, 2000ms}, systemNowMs);
  auto claim = store.claim("wt", "me", 10s);
  checkRefused(statusOf(claim), ErrorCode::LeaseUnavailable,
               "the etcd gateway at " + endpoint + " did not answer /v3/kv/range (unreachable");
}
