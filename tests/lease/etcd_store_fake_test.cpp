// The etcd store against a scripted transport: what it sends, and that every
// failure of the gateway fails closed (never an assumed success).
#include <doctest/doctest.h>

#include <deque>

#include "core/base64.h"
#include "lease/etcd_messages.h"
#include "lease/etcd_store.h"
#include "lease/lease_record.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

// Answers from a script, in order; records every request.
class ScriptedGateway final : public http::Transport {
 public:
  http::Response send(const http::Request& request) override {
    requests.push_back(request);
    if (script.empty()) return http::noResponse(http::Failure::kUnreachable, "script ran out");
    http::Response next = script.front();
    script.pop_front();
    return next;
  }
  void answer(int status, std::string body, int times = 1) {
    http::Response r;
    r.status = status;
    r.body = std::move(body);
    for (int i = 0; i < times; ++i) script.push_back(r);
  }
  std::deque<http::Response> script;
  std::vector<http::Request> requests;
};

const std::string kAt = "http://127.0.0.1:2379";

// A range answer holding `value` at /p/wt, written at `rev`.
std::string rangeWith(const std::string& value, int rev) {
  return R"({"header":{},"kvs":[{"key":")" + lw::base64Encode("/p/wt") + R"(","mod_revision":")" + std::to_string(rev) +
         R"(","value":")" + lw::base64Encode(value) + R"("}]})";
}
const std::string kNoKey = R"({"header":{"revision":"5"}})";
const std::string kTxnWon = R"({"header":{},"succeeded":true})";
const std::string kTxnLost = R"({"header":{}})";

struct Fixture {
  ScriptedGateway gateway;
  ManualClock clock;
  EtcdStore store{gateway, EtcdStoreOptions{kAt + "/", "/p/", 2000, 16, 5000ms}, clock.fn()};
};

void checkUnavailable(const Result<Lease>& r, const std::string& messagePart) {
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::LeaseUnavailable);
  CHECK_MESSAGE(r.error().message.find(messagePart) != std::string::npos, r.error().message);
}

}  // namespace

TEST_CASE("etcd store (fake gateway): a claim reads the key, then puts it only if still absent") {
  Fixture f;
  f.gateway.answer(200, kNoKey);
  f.gateway.answer(200, kTxnWon);
  auto lease = f.store.claim("wt", "me", 30s);
  REQUIRE(lease.ok());
  CHECK(lease->token == 1);
  CHECK(lease->expiresAtMs == kT0 + 30'000);
  REQUIRE(f.gateway.requests.size() == 2);
  CHECK(f.gateway.requests[0].method == "POST");
  CHECK(f.gateway.requests[0].url == kAt + "/v3/kv/range");
  CHECK(f.gateway.requests[0].body == etcd::rangeKeyBody("/p/wt"));
  CHECK(f.gateway.requests[1].url == kAt + "/v3/kv/txn");
  CHECK(f.gateway.requests[1].body == etcd::putIfUnchangedBody("/p/wt", encodeRecord(*lease), std::nullopt));
}

TEST_CASE("etcd store (fake gateway): unreachable, HTTP 500 and malformed JSON fail closed") {
  SUBCASE("unreachable") {
    Fixture f;
    f.gateway.script.push_back(http::noResponse(http::Failure::kUnreachable, "Couldn't connect to server"));
    checkUnavailable(f.store.claim("wt", "me", 30s), "the etcd gateway at " + kAt +
                                                         " did not answer /v3/kv/range (unreachable: "
                                                         "Couldn't connect to server)");
  }
  SUBCASE("HTTP 500 on the txn, after a good read") {
    Fixture f;
    f.gateway.answer(200, kNoKey);
    f.gateway.answer(500, R"({"error":"etcdserver: leader changed"})");
    checkUnavailable(f.store.claim("wt", "me", 30s),
                     "answered /v3/kv/txn with HTTP 500: {\"error\":\"etcdserver: leader changed\"}");
  }
  SUBCASE("malformed JSON") {
    Fixture f;
    f.gateway.answer(200, "{\"header\":");
    checkUnavailable(f.store.claim("wt", "me", 30s), "answered with text that is not JSON");
  }
  SUBCASE("a timed-out txn is not taken as a success") {
    Fixture f;
    f.gateway.answer(200, kNoKey);
    f.gateway.script.push_back(http::noResponse(http::Failure::kTimedOut, "Timeout was reached"));
    checkUnavailable(f.store.claim("wt", "me", 30s), "did not answer /v3/kv/txn (timed-out");
  }
}

TEST_CASE("etcd store (fake gateway): a lost compare reads and decides again, 16 times, then contended") {
  Fixture f;
  for (int i = 0; i < 16; ++i) {
    f.gateway.answer(200, kNoKey);
    f.gateway.answer(200, kTxnLost);
  }
  checkUnavailable(f.store.claim("wt", "me", 30s),
                   "/p/wt is contended: it changed between read and write 16 times in a row");
  CHECK(f.gateway.requests.size() == 32);
}

TEST_CASE("etcd store (fake gateway): after a lost compare the second decision sees the winner") {
  Fixture f;
  f.gateway.answer(200, kNoKey);
  f.gateway.answer(200, kTxnLost);
  Lease winner{"wt", Phase::Active, "the winner", 1, kT0 + 60'000, kT0};
  f.gateway.answer(200, rangeWith(encodeRecord(winner), 6));
  checkUnavailable(f.store.claim("wt", "me", 30s), "wt is held by the winner (token 1)");
  CHECK(f.gateway.requests.size() == 3);  // no third txn
}

TEST_CASE("etcd store (fake gateway): a renew compares the mod revision it read") {
  Fixture f;
  Lease held{"wt", Phase::Active, "me", 4, kT0 + 10'000, kT0};
  f.gateway.answer(200, rangeWith(encodeRecord(held), 17));
  f.gateway.answer(200, kTxnWon);
  auto renewed = f.store.renew(held, 30s);
  REQUIRE(renewed.ok());
  CHECK(renewed->expiresAtMs == kT0 + 30'000);
  CHECK(f.gateway.requests[1].body == etcd::putIfUnchangedBody("/p/wt", encodeRecord(*renewed), 17));
}

TEST_CASE("etcd store (fake gateway): a corrupt value is refused and nothing is written") {
  Fixture f;
  f.gateway.answer(200, rangeWith("{\"schema\":1", 3));
  checkUnavailable(f.store.claim("wt", "me", 30s), "the lease record /p/wt is corrupt (not JSON");
  CHECK(f.gateway.requests.size() == 1);
}

TEST_CASE("etcd store (fake gateway): checkFence reads and never writes") {
  Fixture f;
  Lease held{"wt", Phase::Active, "me", 4, kT0 + 10'000, kT0};
  f.gateway.answer(200, rangeWith(encodeRecord(held), 9));
  CHECK(f.store.checkFence(held).ok());
  CHECK(f.gateway.requests.size() == 1);
}
