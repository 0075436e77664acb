// JSON-RPC 2.0 as MCP frames it: one message per line (UTF-8, no embedded
// newline). Parsing never throws: anything malformed becomes the error the
// peer is owed (parse error, invalid request), with the id when one was read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

namespace lw::bridge {

// Standard JSON-RPC codes, and ours in the implementation-defined range.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kToolNotGranted = -32001;   // data.code "TOOL_NOT_GRANTED"
inline constexpr int kGuardrailStop = -32002;    // data.code LOOP_DETECTED / BUDGET_EXCEEDED
inline constexpr int kBreakerOpen = -32003;      // data.code "BREAKER_OPEN"
inline constexpr int kMessageTooLarge = -32004;  // data.code "MESSAGE_TOO_LARGE"

// The largest message the bridge reads, newline excluded.
inline constexpr std::size_t kMaxMessageBytes = 1u << 20;

struct RpcRequest {
  std::optional<boost::json::value> id;  // nullopt: a notification, no reply
  std::string method;
  boost::json::value params;  // null when absent
};

struct RpcError {
  boost::json::value id;  // null when the request's id could not be read
  int code = kInternalError;
  std::string message;
  boost::json::value data;  // null when none
};

// One line (without its newline) as a request, or the error to answer.
std::variant<RpcRequest, RpcError> parseMessage(std::string_view line);

// The response lines, serialized, without the newline.
std::string resultLine(const boost::json::value& id, boost::json::value result);
std::string errorLine(const RpcError& error);

// True when the bridge answers this line: everything but a well-formed
// notification and blank lines. `loopwright bridge stdio` uses it to know
// how many answers are still owed when its stdin ends.
bool expectsReply(std::string_view line);

}  // namespace lw::bridge
