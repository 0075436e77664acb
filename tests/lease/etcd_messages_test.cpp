// The etcd gateway's messages, pure: the bodies the store sends, asserted
// exactly, and the answers it reads, good and bad.
#include <doctest/doctest.h>

#include <vector>

#include "lease/etcd_messages.h"

using namespace lw;
using namespace lw::lease::etcd;

namespace {
const std::string kAt = "http://127.0.0.1:2379";
}

TEST_CASE("etcd messages: a prefix's range ends at the prefix with its last byte plus one") {
  CHECK(prefixRangeEnd("/loopwright/leases/") == "/loopwright/leases0");
  CHECK(prefixRangeEnd("a\xff") == "b");
  CHECK(prefixRangeEnd("\xff\xff").empty());
  CHECK(rangePrefixBody("/p/") == R"({"key":"L3Av","range_end":"L3Aw"})");
}

TEST_CASE("etcd messages: a range of one key and the txn bodies are exactly the gateway's") {
  CHECK(rangeKeyBody("/p/wt") == R"({"key":"L3Avd3Q="})");
  CHECK(putIfUnchangedBody("/p/wt", "v", 42) ==
        R"({"compare":[{"key":"L3Avd3Q=","result":"EQUAL","target":"MOD","mod_revision":"42"}],)"
        R"("success":[{"request_put":{"key":"L3Avd3Q=","value":"dg=="}}]})");
  CHECK(putIfUnchangedBody("/p/wt", "v", std::nullopt) ==
        R"({"compare":[{"key":"L3Avd3Q=","result":"EQUAL","target":"CREATE","create_revision":"0"}],)"
        R"("success":[{"request_put":{"key":"L3Avd3Q=","value":"dg=="}}]})");
}

TEST_CASE("etcd messages: a range answer gives its keys, values and mod revisions") {
  auto kvs = parseRange(
      R"({"header":{"revision":"9"},"kvs":[{"key":"L3Avd3Q=","create_revision":"2",)"
      R"("mod_revision":"7","version":"3","value":"dg=="},{"key":"L3AveA==","mod_revision":8}],"count":"2"})",
      kAt);
  REQUIRE(kvs.ok());
  REQUIRE(kvs->size() == 2);
  CHECK((*kvs)[0].key == "/p/wt");
  CHECK((*kvs)[0].value == "v");
  CHECK((*kvs)[0].modRevision == 7);
  CHECK((*kvs)[1].value.empty());  // proto3 leaves an empty value out
  CHECK((*kvs)[1].modRevision == 8);
  auto none = parseRange(R"({"header":{"revision":"9"}})", kAt);
  REQUIRE(none.ok());
  CHECK(none->empty());
}

TEST_CASE("etcd messages: an answer that is not the gateway's fails closed naming the endpoint") {
  for (std::string body : {"", "not json", "[]", R"({"kvs":[]})", R"({"header":{},"kvs":{}})",
                           R"({"header":{},"kvs":[{"key":"@@@@","mod_revision":"1"}]})",
                           R"({"header":{},"kvs":[{"key":"L3Avd3Q=","mod_revision":"x7"}]})",
                           R"({"header":{},"kvs":[{"key":"L3Avd3Q="}]})", R"({"header":{},"kvs":[7]})"}) {
    CAPTURE(body);
    auto kvs = parseRange(body, kAt);
    REQUIRE_FALSE(kvs.ok());
    CHECK(kvs.error().code == ErrorCode::LeaseUnavailable);
    CHECK(kvs.error().subject == kAt);
    CHECK(kvs.error().message.starts_with("the etcd gateway at " + kAt + " answered with "));
  }
}

TEST_CASE("etcd messages: a txn's succeeded, false when left out, refused when mistyped") {
  CHECK(parseTxnSucceeded(R"({"header":{},"succeeded":true,"responses":[]})", kAt).value() == true);
  CHECK(parseTxnSucceeded(R"({"header":{"revision":"3"}})", kAt).value() == false);
  CHECK_FALSE(parseTxnSucceeded(R"({"header":{},"succeeded":"yes"})", kAt).ok());
  CHECK_FALSE(parseTxnSucceeded(R"({"error":"etcdserver: request timed out","code":14})", kAt).ok());
  CHECK_FALSE(parseTxnSucceeded("<html>", kAt).ok());
}
