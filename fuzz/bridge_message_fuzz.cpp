// Every line the bridge reads comes from the sandboxed step. Any byte string
// must parse to a request or to the JSON-RPC error the step is owed, and that
// error must serialize: never a throw, a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "bridge/jsonrpc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  auto parsed = lw::bridge::parseMessage(line);
  if (auto* error = std::get_if<lw::bridge::RpcError>(&parsed)) {
    if (error->code >= 0 || error->message.empty()) __builtin_trap();
    if (lw::bridge::errorLine(*error).find('\n') != std::string::npos) __builtin_trap();
  } else if (const auto& request = std::get<lw::bridge::RpcRequest>(parsed); request.id) {
    // The answer echoes the step's id: it must stay one line.
    if (lw::bridge::resultLine(*request.id, nullptr).find('\n') != std::string::npos) __builtin_trap();
  }
  (void)lw::bridge::expectsReply(line);
  return 0;
}
