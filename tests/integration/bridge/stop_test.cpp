// A real step process looping on one call through its fd:3 bridge: the loop
// guardrail stops it, the onStop callback kills it (as the pipeline does),
// and the BLOCKER line names the stop, where the output is kept, and what to
// do next.
#include <doctest/doctest.h>

#include <signal.h>

#include <atomic>

#include "bridge/step_bridge.h"
#include "child.h"

using namespace lw;
using namespace lw::bridge;
using namespace lw::test;

TEST_CASE("guardrail stop: a looping step is killed and yields its BLOCKER" * doctest::test_suite("integration")) {
  guard::SteadyClock clock;
  std::atomic<pid_t> pid{-1};
  std::vector<guard::Event> events;
  std::mutex mu;
  Step step;
  step.name = "security";
  StepBridgeOptions o;
  o.stepId = "review/security";
  o.grants = grantsFor(step);
  o.event = boost::json::object{{"action", "opened"}};
  o.onEvent = [&](const guard::Event& e) {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back(e);
  };
  o.onStop = [&](const guard::Event&) { ::kill(pid.load(), SIGKILL); };
  StepBridge bridge(std::move(o), clock);
  auto pair = makeBridgeSocketPair();
  REQUIRE(pair);
  REQUIRE(bridge.serve(std::move(pair->first)));
  // The "agent": asks for the event again and again, reading each answer.
  const char* script =
      "while :; do\n"
      "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"github.event\"}}' >&3\n"
      "  IFS= read -r line <&3 || exit 3\n"
      "  echo \"$line\"\n"
      "done\n";
  Child c = startChild({"/bin/sh", "-c", script}, {{"PATH", "/usr/bin:/bin"}}, pair->second.get());
  REQUIRE(c.pid > 0);
  pid = c.pid;
  pair->second.reset();
  ::close(c.in);
  std::string out = readUntilEof(c.out, std::chrono::seconds(30));
  int status = waitChild(c.pid, std::chrono::seconds(30));
  CHECK(status == 128 + SIGKILL);
  auto stop = bridge.stopped();
  REQUIRE(stop);
  CHECK(stop->code == ErrorCode::LoopDetected);
  CHECK(stop->message == "github.event called 5 times with the same arguments within 60 s");
  {
    std::lock_guard<std::mutex> lock(mu);
    REQUIRE(events.size() == 3);  // warn, warn, stop
    CHECK(events[0].kind == guard::EventKind::Warn);
    CHECK(events[2].kind == guard::EventKind::Stop);
  }
  CHECK(bridge.records().size() == 5);
  CHECK(out.find("\"structuredContent\":{\"action\":\"opened\"}") != std::string::npos);
  CHECK(guard::blockerFor(*stop, "review/security", "/tmp/out/review/security") ==
        "BLOCKER: step 'review/security' stopped by LOOP_DETECTED: github.event called 5 times with the "
        "same arguments within 60 s. Last safe state: the step's output and logs are kept in "
        "/tmp/out/review/security; nothing of it was published. Next action: read the step's log for the "
        "repeated call, fix the agent's prompt or its tools, then rerun.");
  bridge.stop();
  ::close(c.out);
  ::close(c.err);
}
