// The etcd v3 JSON gateway's messages as the etcd lease store uses them
// (docs/leases.md, "Stores: local and etcd"), pure: request bodies out,
// response bodies in. Keys and values travel base64-encoded; 64-bit numbers
// arrive as decimal strings (the gRPC gateway's JSON mapping). The store in
// lease/etcd_store.h sends them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::lease::etcd {

// One key as a range returns it.
struct KeyValue {
  std::string key;
  std::string value;
  std::int64_t modRevision = 0;  // the revision of the key's last write
};

// The end of the range of every key that starts with `prefix`: the prefix
// with its last byte incremented (etcd's own --prefix rule; a trailing 0xff
// is dropped first). An empty result means "to the end of the keyspace".
std::string prefixRangeEnd(std::string prefix);

// POST /v3/kv/range for exactly `key`.
std::string rangeKeyBody(std::string_view key);
// POST /v3/kv/range for every key under `prefix`, in key order.
std::string rangePrefixBody(const std::string& prefix);

// POST /v3/kv/txn: put `value` at `key` only if nobody wrote the key since it
// was read at `modRevision` (nullopt: it was absent, so it must still have
// no create revision).
std::string putIfUnchangedBody(std::string_view key, std::string_view value, std::optional<std::int64_t> modRevision);

// The keys of a range response. Fails with LEASE_UNAVAILABLE, naming
// `endpoint`, when the body is not the gateway's JSON: a missing or mistyped
// field, bad base64, a revision that is not a number.
Result<std::vector<KeyValue>> parseRange(std::string_view body, const std::string& endpoint);

// Whether a txn's compare held (and its put was applied). proto3 leaves a
// false `succeeded` out, so an object without it is a lost compare; fails
// like parseRange when the body is not a txn response.
Result<bool> parseTxnSucceeded(std::string_view body, const std::string& endpoint);

}  // namespace lw::lease::etcd
