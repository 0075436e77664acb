#include "bridge/jsonrpc.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lw::bridge {

namespace json = boost::json;

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

RpcError invalid(json::value id, std::string message) {
  return RpcError{std::move(id), kInvalidRequest, std::move(message), nullptr};
}

}  // namespace

std::variant<RpcRequest, RpcError> parseMessage(std::string_view line) {
  boost::system::error_code ec;
  json::value v = json::parse(line, ec);
  if (ec) return RpcError{nullptr, kParseError, "Parse error: " + ec.message(), nullptr};
  if (v.is_array()) return invalid(nullptr, "Invalid Request: batches are not supported; send one message per line");
  if (!v.is_object()) return invalid(nullptr, "Invalid Request: a message is a JSON object");
  json::object& o = v.as_object();
  std::optional<json::value> id;
  if (const json::value* i = o.if_contains("id")) {
    if (!i->is_string() && !i->is_int64() && !i->is_uint64() && !i->is_null())
      return invalid(nullptr, "Invalid Request: id must be a string or an integer");
    id = *i;
  }
  const json::value* ver = o.if_contains("jsonrpc");
  if (ver == nullptr || !ver->is_string() || ver->get_string() != "2.0")
    return invalid(id.value_or(nullptr), "Invalid Request: jsonrpc must be \"2.0\"");
  const json::value* method = o.if_contains("method");
  if (method == nullptr || !method->is_string()) {
    if (o.contains("result") || o.contains("error"))
      return invalid(id.value_or(nullptr), "Invalid Request: the bridge sends no requests, so it takes no responses");
    return invalid(id.value_or(nullptr), "Invalid Request: method must be a string");
  }
  RpcRequest r;
  r.id = std::move(id);
  r.method = std::string(method->get_string());
  if (json::value* p = o.if_contains("params")) {
    if (!p->is_object() && !p->is_array())
      return invalid(r.id.value_or(nullptr), "Invalid Request: params must be an object or an array");
    r.params = std::move(*p);
  }
  return r;
}

std::string resultLine(const json::value& id, json::value result) {
  json::object o;
  o["jsonrpc"] = "2.0";
  o["id"] = id;
  o["result"] = std::move(result);
  return json::serialize(o);
}

std::string errorLine(const RpcError& error) {
  json::object err;
  err["code"] = error.code;
  err["message"] = error.message;
  if (!error.data.is_null()) err["data"] = error.data;
  json::object o;
  o["jsonrpc"] = "2.0";
  o["id"] = error.id;
  o["error"] = std::move(err);
  return json::serialize(o);
}

bool expectsReply(std::string_view line) {
  if (blank(line)) return false;
  if (line.size() > kMaxMessageBytes) return true;
  auto parsed = parseMessage(line);
  if (auto* r = std::get_if<RpcRequest>(&parsed)) return r->id.has_value();
  return true;
}

}  // namespace lw::bridge
