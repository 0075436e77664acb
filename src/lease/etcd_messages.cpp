#include "lease/etcd_messages.h"

#include <boost/json.hpp>
#include <charconv>

#include "core/base64.h"
#include "core/json_text.h"

namespace json = boost::json;

namespace lw::lease::etcd {
namespace {

Error malformed(const std::string& endpoint, const std::string& what) {
  return makeError(ErrorCode::LeaseUnavailable,
                   "the etcd gateway at " + endpoint + " answered with " + what +
                       "; no lease is decided on an answer that cannot be read",
                   "check that " + endpoint +
                       " is an etcd v3 JSON gateway (etcd 3.4 or later) and not a proxy "
                       "rewriting its answers",
                   endpoint);
}

// A gateway int64: a decimal string, or (from other gateways) a JSON number.
std::optional<std::int64_t> int64Field(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::int64_t{0};  // proto3 leaves zero out
  if (v->is_int64()) return v->get_int64();
  const json::string* s = v->if_string();
  if (s == nullptr || s->empty()) return std::nullopt;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), n);
  if (ec != std::errc() || end != s->data() + s->size()) return std::nullopt;
  return n;
}

// A base64 field; absent is empty (proto3 leaves empty bytes out).
std::optional<std::string> bytesField(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::string();
  const json::string* s = v->if_string();
  if (s == nullptr) return std::nullopt;
  return base64Decode(std::string_view(s->data(), s->size()));
}

std::optional<KeyValue> keyValue(const json::value& v) {
  const json::object* o = v.if_object();
  if (o == nullptr) return std::nullopt;
  auto key = bytesField(*o, "key");
  auto value = bytesField(*o, "value");
  auto mod = int64Field(*o, "mod_revision");
  if (!key || !value || !mod || key->empty() || *mod <= 0) return std::nullopt;
  return KeyValue{std::move(*key), std::move(*value), *mod};
}

Result<json::object> parseObject(std::string_view body, const std::string& endpoint, const std::string& what) {
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  if (ec) return malformed(endpoint, "text that is not JSON (" + what + ")");
  json::object* o = v.if_object();
  if (o == nullptr || o->if_contains("header") == nullptr)
    return malformed(endpoint, "JSON that is not a " + what + " response");
  return std::move(*o);
}

}  // namespace

std::string prefixRangeEnd(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty()) prefix.back() = static_cast<char>(prefix.back() + 1);
  return prefix;
}

std::string rangeKeyBody(std::string_view key) { return toJsonText(json::object{{"key", base64Encode(key)}}); }

std::string rangePrefixBody(const std::string& prefix) {
  std::string end = prefixRangeEnd(prefix);
  // etcd reads range_end "\0" as "every key from `key` on".
  return toJsonText(json::object{{"key", base64Encode(prefix)},
                                 {"range_end", base64Encode(end.empty() ? std::string(1, '\0') : end)}});
}

std::string putIfUnchangedBody(std::string_view key, std::string_view value, std::optional<std::int64_t> modRevision) {
  json::object compare{{"key", base64Encode(key)}, {"result", "EQUAL"}};
  if (modRevision) {
    compare["target"] = "MOD";
    compare["mod_revision"] = std::to_string(*modRevision);
  } else {
    compare["target"] = "CREATE";
    compare["create_revision"] = "0";
  }
  json::object put{{"key", base64Encode(key)}, {"value", base64Encode(value)}};
  return toJsonText(
      json::object{{"compare", json::array{compare}}, {"success", json::array{json::object{{"request_put", put}}}}});
}

Result<std::vector<KeyValue>> parseRange(std::string_view body, const std::string& endpoint) {
  auto o = parseObject(body, endpoint, "range");
  if (!o) return o.error();
  std::vector<KeyValue> kvs;
  const json::value* list = o->if_contains("kvs");
  if (list == nullptr) return kvs;  // no key in the range
  const json::array* a = list->if_array();
  if (a == nullptr) return malformed(endpoint, "a range response whose kvs is not a list");
  for (const json::value& v : *a) {
    auto kv = keyValue(v);
    if (!kv) return malformed(endpoint, "a range response with an unreadable key");
    kvs.push_back(std::move(*kv));
  }
  return kvs;
}

Result<bool> parseTxnSucceeded(std::string_view body, const std::string& endpoint) {
  auto o = parseObject(body, endpoint, "txn");
  if (!o) return o.error();
  const json::value* succeeded = o->if_contains("succeeded");
  if (succeeded == nullptr) return false;
  if (!succeeded->is_bool()) return malformed(endpoint, "a txn response whose succeeded is not true or false");
  return succeeded->get_bool();
}

}  // namespace lw::lease::etcd
