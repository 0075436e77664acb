#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "bridge/lane_protocol.h"
#include "verify/outputs/json_schema.h"

using namespace lw;
using namespace lw::bridge;
namespace json = boost::json;

namespace {

Lane lane(LaneApi api) {
  Lane l;
  l.name = "primary";
  l.api = api;
  l.baseUrl = "https://models.example/v1/";
  l.model = "m-large";
  l.apiKeyEnv = "KEY";
  l.timeoutMs = 5000;
  return l;
}

std::string header(const http::Request& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "<absent>";
}

CompletionRequest sample() {
  CompletionRequest c;
  c.messages = {{"system", "be brief"}, {"user", "hello"}, {"system", "no markdown"}};
  c.maxTokens = 64;
  c.temperature = 0.5;
  return c;
}

}  // namespace

TEST_CASE("lane protocol: OpenAI chat completions request") {
  auto r = buildLaneRequest(lane(LaneApi::OpenAiChat), "sk-test", sample());
  CHECK(r.method == "POST");
  CHECK(r.url == "https://models.example/v1/chat/completions");
  CHECK(header(r, "Authorization") == "Bearer sk-test");
  CHECK(header(r, "x-api-key") == "<absent>");
  CHECK(r.timeout == std::chrono::milliseconds(5000));
  CHECK(json::parse(r.body) == json::parse(R"({"model":"m-large","max_tokens":64,"temperature":0.5,
      "messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hello"},
                  {"role":"system","content":"no markdown"}]})"));
}

TEST_CASE("lane protocol: Anthropic messages request takes system messages apart") {
  auto r = buildLaneRequest(lane(LaneApi::AnthropicMessages), "sk-ant", sample());
  CHECK(r.url == "https://models.example/v1/messages");
  CHECK(header(r, "x-api-key") == "sk-ant");
  CHECK(header(r, "anthropic-version") == "2023-06-01");
  CHECK(header(r, "Authorization") == "<absent>");
  CHECK(json::parse(r.body) == json::parse(R"({"model":"m-large","max_tokens":64,"temperature":0.5,
      "system":"be brief\n\nno markdown","messages":[{"role":"user","content":"hello"}]})"));
}

TEST_CASE("lane protocol: responses of both APIs") {
  auto o = parseLaneResponse(LaneApi::OpenAiChat, R"({"model":"gpt","choices":[{"index":0,
      "message":{"role":"assistant","content":"answer"},"finish_reason":"stop"}],
      "usage":{"prompt_tokens":3,"completion_tokens":4}})");
  REQUIRE(o);
  CHECK(o->text == "answer");
  CHECK(o->model == "gpt");
  CHECK(o->stopReason == "stop");
  CHECK(o->inputTokens == 3);
  CHECK(o->outputTokens == 4);
  auto a = parseLaneResponse(LaneApi::AnthropicMessages, R"({"model":"claude","content":[
      {"type":"text","text":"part 1, "},{"type":"tool_use","id":"x"},{"type":"text","text":"part 2"}],
      "stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":6}})");
  REQUIRE(a);
  CHECK(a->text == "part 1, part 2");
  CHECK(a->stopReason == "end_turn");
  CHECK(a->outputTokens == 6);
  SUBCASE("null content is an empty text, not an error") {
    auto n = parseLaneResponse(LaneApi::OpenAiChat, R"({"choices":[{"message":{"content":null}}]})");
    REQUIRE(n);
    CHECK(n->text.empty());
  }
}

TEST_CASE("lane protocol: bodies not in the API's shape are OUTPUT_INVALID") {
  struct Case {
    LaneApi api;
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {LaneApi::OpenAiChat, "<html>", "openai-chat response: not JSON"},
      {LaneApi::OpenAiChat, "[]", "openai-chat response: not a JSON object"},
      {LaneApi::OpenAiChat, R"({"choices":[]})", "openai-chat response: no choices[0]"},
      {LaneApi::OpenAiChat, R"({"choices":[{}]})", "openai-chat response: no choices[0].message"},
      {LaneApi::OpenAiChat, R"({"choices":[{"message":{"content":5}}]})",
       "openai-chat response: choices[0].message.content is not a string"},
      {LaneApi::AnthropicMessages, R"({"choices":[]})", "anthropic-messages response: no content array"},
      {LaneApi::AnthropicMessages, R"({"content":[1]})",
       "anthropic-messages response: a content block is not an object"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.body);
    auto r = parseLaneResponse(c.api, c.body);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::OutputInvalid);
    CHECK(r.error().message.rfind(c.message, 0) == 0);
  }
}

TEST_CASE("lane protocol: the error type is read, the message (which may quote the key) is not") {
  CHECK(laneErrorType(R"({"error":{"type":"invalid_request_error","message":"Incorrect API key provided: sk-abc"}})") ==
        "invalid_request_error");
  CHECK(laneErrorType(R"({"type":"error","error":{"type":"rate_limit_error"}})") == "rate_limit_error");
  CHECK(laneErrorType(R"({"error":{"code":"invalid_api_key"}})") == "invalid_api_key");
  CHECK(laneErrorType(R"({"error":{"type":"Bad key sk-abc"}})") == "");
  CHECK(laneErrorType("oops") == "");
}

TEST_CASE("lane protocol: model.complete arguments schema") {
  json::value schema = completionRequestSchema();
  CHECK_FALSE(
      verify::validateJson(schema, json::parse(R"({"messages":[{"role":"user","content":"x"}],"maxTokens":5})")));
  CHECK(verify::validateJson(schema, json::parse(R"({"messages":[]})")));
  CHECK(verify::validateJson(schema, json::parse(R"({"messages":[{"role":"tool","content":"x"}]})")));
  CHECK(verify::validateJson(schema, json::parse(R"({"messages":[{"role":"user","content":"x"}],"model":"other"})")));
  auto req = completionRequestFromArgs(
      json::parse(R"({"messages":[{"role":"user","content":"x"}],"temperature":1})").as_object());
  CHECK(req.maxTokens == 1024);
  CHECK(req.temperature == 1.0);
  CHECK(req.messages.at(0).content == "x");
}
