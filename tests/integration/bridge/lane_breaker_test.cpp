// The breaker of docs/taskpack.md against real HTTP: libcurl talking to a local
// model server that fails on command. The breaker's clock is manual (the
// cooldown is not slept through); the HTTP timeouts are real.
#include <doctest/doctest.h>

#include "bridge/lane_client.h"
#include "bridge/lane_http.h"
#include "core/http_curl.h"
#include "support/fake_model.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::FakeModel;
using namespace std::chrono_literals;

namespace {

struct Rig {
  FakeModel server;
  guard::ManualClock clock;
  guard::CircuitBreaker breaker{"primary", BreakerGuardrail{}, clock};
  http::CurlTransport http{laneHttpPolicy()};
  LaneClient client;

  explicit Rig(LaneApi api = LaneApi::OpenAiChat) : client(lane(api), "sk-test-key", http, breaker) {}

  Lane lane(LaneApi api) {
    Lane l;
    l.name = "primary";
    l.api = api;
    l.baseUrl = server.url();
    l.model = "fake-1";
    l.apiKeyEnv = "KEY";
    l.timeoutMs = 300;
    return l;
  }
  LaneResult call() {
    CompletionRequest r;
    r.messages = {{"system", "terse"}, {"user", "hello"}};
    return client.complete(r);
  }
  // The five kinds of counted failure of the issue, one each.
  std::vector<guard::Event> fiveFailures() {
    server.script(FakeModel::Reply::delayed(2s));  // timeout (the lane waits 300 ms)
    server.script(FakeModel::Reply::withStatus(429));
    server.script(FakeModel::Reply::withStatus(500));
    server.script(FakeModel::Reply::empty());  // 200 with an empty body
    server.script(FakeModel::Reply::closed());
    std::vector<guard::Event> events;
    const LaneFailure expected[] = {LaneFailure::Timeout, LaneFailure::RateLimited, LaneFailure::ServerError,
                                    LaneFailure::EmptyResult, LaneFailure::NoResponse};
    for (LaneFailure f : expected) {
      LaneResult r = call();
      CHECK(r.failure == f);
      for (auto& e : r.events) events.push_back(e);
      clock.advance(5s);
    }
    return events;
  }
};

bool has(const std::vector<guard::Event>& events, guard::EventKind k) {
  for (const auto& e : events)
    if (e.kind == k) return true;
  return false;
}

}  // namespace

TEST_CASE("lanes over HTTP: OpenAI chat completions and Anthropic messages against the fake server" *
          doctest::test_suite("integration")) {
  SUBCASE("openai") {
    Rig rig;
    auto r = rig.call();
    REQUIRE(r.completion);
    CHECK(r.completion->text == "fake completion 1");
    CHECK(r.completion->model == "fake-1");
    auto req = rig.server.requests().at(0);
    CHECK(req.path == "/v1/chat/completions");
    CHECK(req.headers["authorization"] == "Bearer sk-test-key");
  }
  SUBCASE("anthropic") {
    Rig rig(LaneApi::AnthropicMessages);
    auto r = rig.call();
    REQUIRE(r.completion);
    CHECK(r.completion->text == "fake completion 1");
    CHECK(r.completion->outputTokens == 7);
    auto req = rig.server.requests().at(0);
    CHECK(req.path == "/v1/messages");
    CHECK(req.headers["x-api-key"] == "sk-test-key");
    CHECK(req.headers["anthropic-version"] == "2023-06-01");
    CHECK(req.headers.count("authorization") == 0);
    CHECK(req.body.find(R"("system":"terse")") != std::string::npos);
  }
}

TEST_CASE("breaker over HTTP: opens after 5 failures in 60 s, refuses without a request" *
          doctest::test_suite("integration")) {
  Rig rig;
  auto events = rig.fiveFailures();
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == guard::EventKind::Open);
  CHECK(rig.breaker.state() == guard::BreakerState::Open);
  const auto sent = rig.server.count();
  auto refused = rig.call();
  CHECK(refused.failure == LaneFailure::BreakerOpen);
  CHECK(refused.completion.error().code == ErrorCode::BreakerOpen);
  CHECK(rig.server.count() == sent);
}

TEST_CASE("breaker over HTTP: one probe after the cooldown, closed on its success" *
          doctest::test_suite("integration")) {
  Rig rig;
  rig.fiveFailures();
  rig.clock.advance(30s);
  // While the probe is in flight (the server holds it), a second call is refused.
  rig.server.script(FakeModel::Reply::delayed(200ms));
  std::thread probe([&] {
    auto r = rig.call();
    CHECK(r.completion);
    CHECK(has(r.events, guard::EventKind::Close));
  });
  while (rig.breaker.state() != guard::BreakerState::HalfOpen) std::this_thread::yield();
  auto second = rig.call();
  CHECK(second.failure == LaneFailure::BreakerOpen);
  CHECK(second.completion.error().message == "lane 'primary' is half-open and its one probe call is in flight");
  probe.join();
  CHECK(rig.breaker.state() == guard::BreakerState::Closed);
  CHECK(rig.call().completion);
}

TEST_CASE("breaker over HTTP: a failed probe re-opens it, the second open cycle escalates" *
          doctest::test_suite("integration")) {
  Rig rig;
  rig.fiveFailures();
  rig.clock.advance(30s);
  rig.server.script(FakeModel::Reply::withStatus(503));
  auto probe = rig.call();
  CHECK(probe.failure == LaneFailure::ServerError);
  CHECK(rig.breaker.state() == guard::BreakerState::Open);
  CHECK(rig.breaker.openCycles() == 2);
  CHECK(has(probe.events, guard::EventKind::Open));
  CHECK(has(probe.events, guard::EventKind::Escalate));
  CHECK(rig.breaker.escalated());
  rig.clock.advance(30s);
  CHECK(rig.call().failure == LaneFailure::BreakerOpen);
}

TEST_CASE("breaker over HTTP: the probe flag is released after a 401, the next cooldown probes again" *
          doctest::test_suite("integration")) {
  Rig rig;
  rig.fiveFailures();
  rig.clock.advance(30s);
  rig.server.script(
      FakeModel::Reply::withStatus(401, R"({"error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
  auto probe = rig.call();
  CHECK(probe.failure == LaneFailure::Rejected);
  CHECK(probe.completion.error().message.find("HTTP 401 (authentication_error)") != std::string::npos);
  CHECK(probe.events.empty());
  CHECK(rig.breaker.state() == guard::BreakerState::Open);
  CHECK(rig.breaker.openCycles() == 1);
  const auto sent = rig.server.count();
  CHECK(rig.call().failure == LaneFailure::BreakerOpen);  // a fresh cooldown
  CHECK(rig.server.count() == sent);
  rig.clock.advance(30s);
  auto again = rig.call();
  REQUIRE(again.completion);
  CHECK(has(again.events, guard::EventKind::Close));
  CHECK(rig.server.count() == sent + 1);
}

TEST_CASE("lanes over HTTP: a response over the size bound is a failure, not a crash" *
          doctest::test_suite("integration")) {
  FakeModel server;
  server.script(FakeModel::Reply::withStatus(200, std::string(9u << 20, 'x')));
  http::Policy policy = laneHttpPolicy();
  policy.maxResponseBytes = 1u << 20;
  http::CurlTransport http(policy);
  http::Request req;
  req.method = "POST";
  req.url = server.url() + "/chat/completions";
  req.body = "{}";
  auto out = http.send(req);
  CHECK(out.status == 0);
  CHECK(out.failure == http::Failure::kTooLarge);
  CHECK(out.error == "response larger than 1048576 bytes");
  CHECK(out.body.empty());
}
