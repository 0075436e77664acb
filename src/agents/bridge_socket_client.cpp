#include "agents/bridge_socket_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lw::agents {

namespace json = boost::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

// JSON-RPC codes the bridge answers with (src/bridge/jsonrpc.h; the step
// does not link the bridge: a step never links the orchestrator, docs/architecture.md).
constexpr std::int64_t kMethodNotFound = -32601;
constexpr std::int64_t kInvalidParams = -32602;
constexpr std::int64_t kToolNotGranted = -32001;
constexpr std::int64_t kMessageTooLarge = -32004;

std::optional<ErrorCode> codeNamed(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(ErrorCode::Internal); ++i)
    if (codeName(static_cast<ErrorCode>(i)) == name) return static_cast<ErrorCode>(i);
  return std::nullopt;
}

std::string stringAt(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The code of a refusal the step caused itself: asking for what it may not.
bool isMisuse(std::int64_t rpcCode) {
  return rpcCode == kInvalidParams || rpcCode == kToolNotGranted || rpcCode == kMessageTooLarge ||
         rpcCode == kMethodNotFound;
}

Error ioError(const std::string& what) {
  return makeError(ErrorCode::IoError, what + ": " + std::strerror(errno),
                   "the bridge lives as long as the step; was the step stopped?");
}

}  // namespace

Error errorFromRpcError(const json::value& error, const std::string& what) {
  const json::object* e = error.if_object();
  if (e == nullptr) return makeError(ErrorCode::IoError, what + ": the bridge sent a malformed error", "", what);
  std::int64_t rpcCode = 0;
  if (const json::value* c = e->if_contains("code"); c && c->is_int64()) rpcCode = c->get_int64();
  std::string message = stringAt(*e, "message");
  std::string dataCode, hint;
  if (const json::value* d = e->if_contains("data"); d && d->is_object()) {
    dataCode = stringAt(d->get_object(), "code");
    hint = stringAt(d->get_object(), "hint");
  }
  ErrorCode code = isMisuse(rpcCode) ? ErrorCode::UsageError : ErrorCode::Internal;
  if (auto known = codeNamed(dataCode)) code = *known;
  return makeError(code, what + ": " + (message.empty() ? "error " + std::to_string(rpcCode) : message), hint, what);
}

Error errorFromToolResult(const json::object& result, const std::string& tool) {
  std::string text;
  if (const json::value* c = result.if_contains("content"); c && c->is_array())
    for (const json::value& part : c->get_array())
      if (part.is_object()) text += stringAt(part.get_object(), "text");
  // The bridge writes "error[CODE]: message\nhint: …" (src/bridge/session.cpp).
  ErrorCode code = ErrorCode::Internal;
  if (text.starts_with("error[")) {
    std::size_t close = text.find("]: ");
    if (close != std::string::npos) {
      if (auto known = codeNamed(std::string_view(text).substr(6, close - 6))) code = *known;
      text.erase(0, close + 3);
    }
  }
  std::string hint;
  if (std::size_t h = text.find("\nhint: "); h != std::string::npos) {
    hint = text.substr(h + 7);
    text.erase(h);
  }
  return makeError(code, tool + ": " + (text.empty() ? "the tool failed without saying why" : text), hint, tool);
}

BridgeSocketClient::BridgeSocketClient(int fd, BridgeSocketOptions options) : fd_(fd), options_(options) {}

BridgeSocketClient::~BridgeSocketClient() {
  if (fd_ >= 0) ::close(fd_);
}

Status BridgeSocketClient::initialize(const std::string& clientName, const std::string& clientVersion) {
  json::object params{{"protocolVersion", "2025-06-18"},
                      {"capabilities", json::object{}},
                      {"clientInfo", json::object{{"name", clientName}, {"version", clientVersion}}}};
  auto result = request("initialize", std::move(params), "initialize");
  if (!result) return result.error();
  if (!result->is_object() || !result->as_object().contains("protocolVersion"))
    return makeError(ErrorCode::IoError, "the bridge did not answer initialize as an MCP server",
                     "LOOPWRIGHT_BRIDGE must be the step's own bridge");
  json::object note{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
  return sendLine(json::serialize(note));
}

Result<json::value> BridgeSocketClient::call(const std::string& tool, const json::object& args) {
  auto result = request("tools/call", json::object{{"name", tool}, {"arguments", args}}, tool);
  if (!result) return result.error();
  const json::object* r = result->if_object();
  if (r == nullptr) return makeError(ErrorCode::IoError, tool + ": the bridge's answer is not an object", "", tool);
  if (const json::value* isError = r->if_contains("isError"); isError && isError->is_bool() && isError->get_bool())
    return errorFromToolResult(*r, tool);
  if (const json::value* s = r->if_contains("structuredContent")) return *s;
  // A tool without structured content: its text, as the model of MCP has it.
  std::string text;
  if (const json::value* c = r->if_contains("content"); c && c->is_array())
    for (const json::value& part : c->get_array())
      if (part.is_object()) text += stringAt(part.get_object(), "text");
  return json::value(text);
}

Result<json::value> BridgeSocketClient::request(const std::string& method, json::value params,
                                                const std::string& what) {
  if (broken_)
    return makeError(ErrorCode::IoError, what + ": the bridge connection was lost earlier",
                     "the step cannot use its bridge any more");
  const std::int64_t id = nextId_++;
  json::object msg{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
  if (auto sent = sendLine(json::serialize(msg)); !sent) return sent.error();
  const auto deadline = SteadyClock::now() + options_.timeout;
  for (;;) {
    auto line = readLine(deadline);
    if (!line) return line.error();
    json::error_code ec;
    json::value answer = json::parse(*line, ec);
    const json::object* a = ec ? nullptr : answer.if_object();
    if (a == nullptr) {
      broken_ = true;
      return makeError(ErrorCode::IoError, what + ": the bridge sent a line that is not a JSON object");
    }
    const json::value* got = a->if_contains("id");
    // An answer to an earlier request that timed out here: not ours, skipped.
    if (got == nullptr || !got->is_int64() || got->get_int64() != id) {
      if (got != nullptr && got->is_null() && a->contains("error"))
        return errorFromRpcError(a->at("error"), what);  // the bridge could not read our id
      continue;
    }
    if (const json::value* e = a->if_contains("error")) return errorFromRpcError(*e, what);
    if (const json::value* r = a->if_contains("result")) return *r;
    return makeError(ErrorCode::IoError, what + ": the bridge's answer has neither result nor error");
  }
}

Status BridgeSocketClient::sendLine(const std::string& line) {
  std::string data = line + "\n";
  std::string_view rest(data);
  while (!rest.empty()) {
    ssize_t n = ::send(fd_, rest.data(), rest.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken_ = true;
      return ioError("write to the bridge");
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  return Ok{};
}

Result<std::string> BridgeSocketClient::readLine(SteadyClock::time_point deadline) {
  std::size_t scanned = 0;
  for (;;) {
    if (std::size_t nl = buffer_.find('\n', scanned); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    scanned = buffer_.size();
    if (buffer_.size() > options_.maxMessageBytes) {
      broken_ = true;
      return makeError(ErrorCode::IoError,
                       "the bridge's answer is larger than " + std::to_string(options_.maxMessageBytes) + " bytes",
                       "ask for less (a smaller file, a narrower search)");
    }
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) {
      broken_ = true;
      return makeError(ErrorCode::IoError,
                       "the bridge did not answer within " + std::to_string(options_.timeout.count()) + " ms");
    }
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 60'000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return ioError("poll on the bridge");
    if (ready == 0) continue;
    char chunk[64 * 1024];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      broken_ = true;
      return ioError("read from the bridge");
    }
    if (n == 0) {
      broken_ = true;
      return makeError(ErrorCode::IoError, "the bridge closed the connection",
                       "the bridge ends when the step is stopped (a guardrail, the wall time)");
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace lw::agents
