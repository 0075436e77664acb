// Every line the bridge reads comes from the sandboxed step. Any byte string
// must parse to a request or to the JSON-RPC error the step is owed, and that
// error must serialize: never a throw, a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <boost/json/parse.hpp>

#include "bridge/jsonrpc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  auto parsed = lw::bridge::parseMessage(line);
  // Every answer is JSON the step can read back, echoing the id it sent.
  auto readsBack = [](const std::string& answer, const boost::json::value& id) {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(answer, ec);
    return !ec && v.is_object() && v.as_object().contains("id") && v.as_object().at("id") == id;
  };
  if (auto* error = std::get_if<lw::bridge::RpcError>(&parsed)) {
    if (error->code >= 0 || error->message.empty()) __builtin_trap();
    if (!readsBack(lw::bridge::errorLine(*error), error->id)) __builtin_trap();
  } else if (const auto& request = std::get<lw::bridge::RpcRequest>(parsed); request.id) {
    if (!readsBack(lw::bridge::resultLine(*request.id, nullptr), *request.id)) __builtin_trap();
  }
  (void)lw::bridge::expectsReply(line);
  return 0;
}
