#include <doctest/doctest.h>

#include "bridge/lane_client.h"
#include "scripted_lane_http.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::ScriptedLaneHttp;
using namespace std::chrono_literals;

namespace {

Lane primaryLane() {
  Lane l;
  l.name = "primary";
  l.baseUrl = "https://models.example/v1";
  l.model = "m";
  l.apiKeyEnv = "OPENAI_API_KEY";
  l.timeoutMs = 2000;
  return l;
}

CompletionRequest hello() {
  CompletionRequest r;
  r.messages = {{"user", "hello"}};
  return r;
}

}  // namespace

TEST_CASE("lane client: each outcome classified, counted or not") {
  struct Case {
    const char* name;
    http::Response out;
    LaneFailure failure;
    bool counted;
    const char* message;
  };
  const Case cases[] = {
      {"timeout", ScriptedLaneHttp::timeout(), LaneFailure::Timeout, true,
       "lane 'primary': no answer within 2000 ms from POST https://models.example/v1/chat/completions"},
      {"refused", ScriptedLaneHttp::refused(), LaneFailure::NoResponse, true,
       "lane 'primary': Couldn't connect to server from POST https://models.example/v1/chat/completions"},
      {"429", ScriptedLaneHttp::status(429, R"({"error":{"type":"rate_limit_error"}})"), LaneFailure::RateLimited, true,
       "lane 'primary': HTTP 429 (rate_limit_error) from POST https://models.example/v1/chat/completions"},
      {"500", ScriptedLaneHttp::status(500), LaneFailure::ServerError, true,
       "lane 'primary': HTTP 500 from POST https://models.example/v1/chat/completions"},
      {"408", ScriptedLaneHttp::status(408), LaneFailure::Timeout, true, nullptr},
      {"empty body", ScriptedLaneHttp::ok(""), LaneFailure::EmptyResult, true,
       "lane 'primary': HTTP 200 with an empty body from POST https://models.example/v1/chat/completions"},
      {"empty completion", ScriptedLaneHttp::ok(R"({"choices":[{"message":{"content":""}}]})"),
       LaneFailure::EmptyResult, true, nullptr},
      {"wrong shape", ScriptedLaneHttp::ok(R"({"content":[]})"), LaneFailure::Invalid, true,
       "lane 'primary': HTTP 200 with openai-chat response: no choices[0] from POST "
       "https://models.example/v1/chat/completions"},
      {"401",
       ScriptedLaneHttp::status(
           401, R"({"error":{"message":"Incorrect API key provided: sk-sec***","type":"invalid_request_error"}})"),
       LaneFailure::Rejected, false,
       "lane 'primary': HTTP 401 (invalid_request_error) from POST https://models.example/v1/chat/completions"},
      {"403", ScriptedLaneHttp::status(403), LaneFailure::Rejected, false, nullptr},
      {"400", ScriptedLaneHttp::status(400), LaneFailure::Rejected, false, nullptr},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    guard::ManualClock clock;
    guard::CircuitBreaker breaker("primary", BreakerGuardrail{}, clock);
    ScriptedLaneHttp http;
    LaneClient client(primaryLane(), "sk-secret-value", http, breaker);
    http.push(c.out, 5);
    LaneResult r;
    for (int i = 0; i < 5; ++i) r = client.complete(hello());
    CHECK(r.failure == c.failure);
    CHECK(countsAsBreakerFailure(r.failure) == c.counted);
    REQUIRE_FALSE(r.completion);
    CHECK(r.completion.error().code == ErrorCode::IoError);
    if (c.message) CHECK(r.completion.error().message == c.message);
    CHECK(r.completion.error().message.find("sk-sec") == std::string::npos);
    CHECK(r.completion.error().hint.starts_with(c.counted ? "retriable" : "not retriable"));
    // Five counted failures open the breaker; five refusals do not.
    CHECK(breaker.state() == (c.counted ? guard::BreakerState::Open : guard::BreakerState::Closed));
  }
}

TEST_CASE("lane client: a completion, and the key only in its header") {
  guard::ManualClock clock;
  guard::CircuitBreaker breaker("primary", BreakerGuardrail{}, clock);
  ScriptedLaneHttp http;
  LaneClient client(primaryLane(), "sk-secret-value", http, breaker);
  auto r = client.complete(hello());
  REQUIRE(r.completion);
  CHECK(r.completion->text == "hi");
  CHECK(r.failure == LaneFailure::None);
  REQUIRE(http.requests.size() == 1);
  CHECK(http.requests[0].body.find("sk-secret-value") == std::string::npos);
  CHECK(http.requests[0].url.find("sk-secret-value") == std::string::npos);
}

TEST_CASE("lane client: an open breaker refuses without a request, the probe closes it") {
  guard::ManualClock clock;
  guard::CircuitBreaker breaker("primary", BreakerGuardrail{}, clock);
  ScriptedLaneHttp http;
  LaneClient client(primaryLane(), "k", http, breaker);
  http.push(ScriptedLaneHttp::status(503), 5);
  std::vector<guard::Event> events;
  for (int i = 0; i < 5; ++i)
    for (auto& e : client.complete(hello()).events) events.push_back(e);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == guard::EventKind::Open);
  auto refused = client.complete(hello());
  CHECK(refused.failure == LaneFailure::BreakerOpen);
  CHECK(refused.completion.error().code == ErrorCode::BreakerOpen);
  CHECK(http.requests.size() == 5);
  clock.advance(30s);
  auto probe = client.complete(hello());
  REQUIRE(probe.completion);
  REQUIRE(probe.events.size() == 1);
  CHECK(probe.events[0].kind == guard::EventKind::Close);
}

TEST_CASE("lane client: the key comes from the orchestrator's environment") {
  Lane l = primaryLane();
  CHECK(*laneApiKey(l, Environment(std::map<std::string, std::string>{{"OPENAI_API_KEY", "sk-1"}})) == "sk-1");
  auto missing = laneApiKey(l, Environment(std::map<std::string, std::string>{{"OPENAI_API_KEY", ""}}));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::UsageError);
  CHECK(missing.error().message == "lane 'primary': OPENAI_API_KEY is not set");
}
