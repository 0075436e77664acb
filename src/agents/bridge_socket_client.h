// The BridgeClient of `loopwright agent`: MCP over the step's bridge socket
// (LOOPWRIGHT_BRIDGE, one JSON-RPC message per line), one request at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "agents/agent.h"
#include "core/result.h"

namespace lw::agents {

struct BridgeSocketOptions {
  // How long one answer may take. The step's wall time bounds the whole
  // step anyway; this only turns a bridge that never answers into an error.
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  // The largest answer read (a diff or a file can be a few MiB); past it the
  // call fails and the connection is not used again.
  std::size_t maxMessageBytes = std::size_t{64} << 20;
};

class BridgeSocketClient final : public BridgeClient {
 public:
  // Takes ownership of `fd`, a connected stream socket.
  explicit BridgeSocketClient(int fd, BridgeSocketOptions options = {});
  ~BridgeSocketClient() override;
  BridgeSocketClient(const BridgeSocketClient&) = delete;
  BridgeSocketClient& operator=(const BridgeSocketClient&) = delete;

  // MCP's initialize, then notifications/initialized. IO_ERROR when the
  // bridge does not answer as an MCP server.
  Status initialize(const std::string& clientName, const std::string& clientVersion);

  // tools/call. Guardrail stops keep their code (LOOP_DETECTED,
  // BUDGET_EXCEEDED, BREAKER_OPEN); a tool's own error (isError) keeps the
  // code written in its text ("error[IO_ERROR]: …"); a refused grant or bad
  // arguments is USAGE_ERROR; a broken or silent connection IO_ERROR.
  Result<boost::json::value> call(const std::string& tool, const boost::json::object& args) override;

 private:
  // One request and its answer's `result`, or the error it carried (named
  // after `what`: the tool, or the method).
  Result<boost::json::value> request(const std::string& method, boost::json::value params, const std::string& what);
  Status sendLine(const std::string& line);
  Result<std::string> readLine(std::chrono::steady_clock::time_point deadline);

  int fd_;
  BridgeSocketOptions options_;
  std::string buffer_;  // bytes read past the last whole line
  std::int64_t nextId_ = 1;
  bool broken_ = false;  // a read went wrong: the stream's framing is lost
};

// The Error a JSON-RPC error object stands for (pure; exposed for tests).
Error errorFromRpcError(const boost::json::value& error, const std::string& what);
// The Error of a tools/call result with isError: true (pure).
Error errorFromToolResult(const boost::json::object& result, const std::string& tool);

}  // namespace lw::agents
