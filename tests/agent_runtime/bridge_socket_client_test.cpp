// The socket BridgeClient of `loopwright agent` against a real step bridge
// (bridge::StepBridge served on a socket pair, as the pipeline serves it).
#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <boost/json.hpp>

#include "agents/bridge_socket_client.h"
#include "agents/registry/agent_registry.h"
#include "bridge/server.h"
#include "bridge/step_bridge.h"
#include "guard/clock.h"
#include "policy/builtin/builtin_params.h"

using namespace lw;
namespace json = boost::json;

namespace {

bridge::Tool tool(const std::string& name, bridge::ToolHandler handler) {
  bridge::Tool t;
  t.name = name;
  t.description = name;
  t.inputSchema = json::object{{"type", "object"}};
  t.handler = std::move(handler);
  return t;
}

// builtin/security's step with its bridge, the tools answering as the
// GitHub reads do: github.file finds README.md only.
struct BridgedStep {
  guard::SteadyClock clock;
  std::unique_ptr<bridge::StepBridge> bridge;
  std::unique_ptr<agents::BridgeSocketClient> client;

  explicit BridgedStep(LoopGuardrail loop = {}, agents::BridgeSocketOptions options = {}) {
    Step step;
    step.name = "security";
    step.uses = "builtin/security";
    bridge::StepBridgeOptions o;
    o.stepId = "review/security";
    o.grants = bridge::grantsFor(step);
    o.loop = loop;
    o.extraTools.push_back(
        tool("github.file", [](const json::object& args, bridge::ToolContext&) -> Result<bridge::ToolOutput> {
          if (args.at("path") != "README.md")
            return makeError(ErrorCode::IoError, "not found", "the path is relative to the repository");
          return bridge::ToolOutput{json::object{{"path", "README.md"}, {"content", "hello\n"}}, ""};
        }));
    o.extraTools.push_back(
        tool("github.labels", [](const json::object&, bridge::ToolContext&) -> Result<bridge::ToolOutput> {
          return bridge::ToolOutput{json::object{{"labels", json::array{}}}, ""};
        }));
    bridge = std::make_unique<bridge::StepBridge>(std::move(o), clock);
    auto pair = bridge::makeBridgeSocketPair();
    REQUIRE(pair);
    REQUIRE(bridge->serve(std::move(pair->first)));
    client = std::make_unique<agents::BridgeSocketClient>(pair->second.release(), options);
  }
  ~BridgedStep() { bridge->stop(); }
};

// A socket pair whose far end the test plays by hand.
struct RawPeer {
  int far = -1;
  std::unique_ptr<agents::BridgeSocketClient> client;
  explicit RawPeer(agents::BridgeSocketOptions options) {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    far = fds[0];
    client = std::make_unique<agents::BridgeSocketClient>(fds[1], options);
  }
  ~RawPeer() {
    if (far >= 0) ::close(far);
  }
};

}  // namespace

TEST_CASE("bridge socket client: initialize, then a granted tool's structured content") {
  BridgedStep s;
  REQUIRE(s.client->initialize("test", "0"));
  auto file = s.client->call("github.file", json::object{{"path", "README.md"}, {"ref", "head"}});
  REQUIRE(file);
  CHECK(*file == json::parse(R"({"path":"README.md","content":"hello\n"})"));
  // Several calls on one connection, each answered to its own id.
  auto event = s.client->call("github.event", {});
  CHECK(event);
  auto again = s.client->call("github.file", json::object{{"path", "README.md"}, {"ref", "base"}});
  CHECK(again);
  CHECK(s.bridge->records().size() == 3);
}

TEST_CASE("bridge socket client: a tool's error keeps its code, message and hint") {
  BridgedStep s;
  REQUIRE(s.client->initialize("test", "0"));
  auto missing = s.client->call("github.file", json::object{{"path", "nope"}, {"ref", "head"}});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::IoError);
  CHECK(missing.error().message == "github.file: not found");
  CHECK(missing.error().hint == "the path is relative to the repository");
  CHECK(missing.error().subject == "github.file");
}

TEST_CASE("bridge socket client: a tool the built-in is not granted is a usage error naming the grant") {
  BridgedStep s;
  REQUIRE(s.client->initialize("test", "0"));
  auto labels = s.client->call("github.labels", {});
  REQUIRE_FALSE(labels);
  CHECK(labels.error().code == ErrorCode::UsageError);
  CHECK(labels.error().message ==
        "github.labels: tool 'github.labels' is not granted to step 'review/security'; missing grant: github.labels");
  CHECK(labels.error().hint == "grant it in the taskpack: tools: [github.labels] on this step");
}

TEST_CASE("bridge socket client: a guardrail stop keeps its code (LOOP_DETECTED)") {
  LoopGuardrail loop;
  loop.warnRepeats = 2;
  loop.stopRepeats = 3;
  BridgedStep s(loop);
  REQUIRE(s.client->initialize("test", "0"));
  const json::object args{{"path", "README.md"}, {"ref", "head"}};
  CHECK(s.client->call("github.file", args));
  CHECK(s.client->call("github.file", args));
  auto third = s.client->call("github.file", args);
  REQUIRE_FALSE(third);
  CHECK(third.error().code == ErrorCode::LoopDetected);
  auto after = s.client->call("github.event", {});
  REQUIRE_FALSE(after);
  CHECK(after.error().code == ErrorCode::LoopDetected);  // every later call is refused the same way
  CHECK(s.bridge->stopped());
}

TEST_CASE("bridge socket client: a bridge that never answers times out, and the connection is not reused") {
  agents::BridgeSocketOptions options;
  options.timeout = std::chrono::milliseconds(150);
  RawPeer peer(options);
  auto start = std::chrono::steady_clock::now();
  auto r = peer.client->call("github.event", {});
  auto took = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::IoError);
  CHECK(r.error().message == "the bridge did not answer within 150 ms");
  CHECK(took >= std::chrono::milliseconds(150));
  CHECK(took < std::chrono::seconds(5));
  auto next = peer.client->call("github.event", {});
  REQUIRE_FALSE(next);
  CHECK(next.error().message == "github.event: the bridge connection was lost earlier");
}

TEST_CASE("bridge socket client: an answer larger than the bound is refused, not buffered without end") {
  agents::BridgeSocketOptions options;
  options.maxMessageBytes = 4096;
  RawPeer peer(options);
  std::thread writer([&] {
    std::string big(16 * 1024, 'x');
    (void)!::write(peer.far, big.data(), big.size());
  });
  auto r = peer.client->call("github.event", {});
  writer.join();
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::IoError);
  CHECK(r.error().message == "the bridge's answer is larger than 4096 bytes");
}

TEST_CASE("bridge socket client: a closed bridge, a malformed answer, an answer to another id") {
  SUBCASE("closed") {
    RawPeer peer({});
    ::close(peer.far);
    peer.far = -1;
    auto r = peer.client->call("github.event", {});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::IoError);
  }
  SUBCASE("not JSON") {
    RawPeer peer({});
    (void)!::write(peer.far, "hello\n", 6);
    auto r = peer.client->call("github.event", {});
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "github.event: the bridge sent a line that is not a JSON object");
  }
  SUBCASE("a stale answer is skipped, its own is taken") {
    RawPeer peer({});
    std::string lines = R"({"jsonrpc":"2.0","id":99,"result":{"structuredContent":{"stale":true}}})"
                        "\n"
                        R"({"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"fresh":true},"isError":false}})"
                        "\n";
    (void)!::write(peer.far, lines.data(), lines.size());
    auto r = peer.client->call("github.event", {});
    REQUIRE(r);
    CHECK(*r == json::parse(R"({"fresh":true})"));
  }
}

TEST_CASE("bridge socket client: JSON-RPC errors and tool results map to codes") {
  CHECK(agents::errorFromRpcError(
            json::parse(R"({"code":-32003,"message":"BREAKER_OPEN: lane primary","data":{"code":"BREAKER_OPEN"}})"),
            "model.complete")
            .code == ErrorCode::BreakerOpen);
  CHECK(agents::errorFromRpcError(json::parse(R"({"code":-32602,"message":"Invalid params"})"), "x").code ==
        ErrorCode::UsageError);
  CHECK(agents::errorFromRpcError(json::parse(R"({"code":-32603,"message":"Internal error"})"), "x").code ==
        ErrorCode::Internal);
  Error e = agents::errorFromToolResult(
      json::parse(
          R"({"content":[{"type":"text","text":"error[BUDGET_EXCEEDED]: too many\nhint: less"}],"isError":true})")
          .as_object(),
      "model.complete");
  CHECK(e.code == ErrorCode::BudgetExceeded);
  CHECK(e.message == "model.complete: too many");
  CHECK(e.hint == "less");
}

TEST_CASE("agent registry: every registered agent is a built-in of the catalogue, an unknown name is refused") {
  for (const agents::RegisteredAgent& a : agents::registeredAgents()) {
    CAPTURE(a.name);
    CHECK(findBuiltinStep(a.name) != nullptr);
    CHECK(static_cast<bool>(a.main));
  }
  auto none = agents::findAgent("autofix");
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::UsageError);
  CHECK(none.error().message == "this loopwright has no built-in agent 'autofix'");
}

TEST_CASE("grants: a built-in step's catalogue tools are granted beside its own tools") {
  Step step;
  step.uses = "builtin/security";
  step.tools = {"github.labels"};
  CHECK(bridge::grantsFor(step) == std::vector<std::string>{"findings.report", "github.event", "github.labels",
                                                            "github.pulls.diff", "github.pulls.files", "github.file"});
  Step plain;
  plain.run = {"x"};
  CHECK(bridge::grantsFor(plain) == std::vector<std::string>{"findings.report", "github.event"});
}
