// The two model APIs a lane speaks, as pure functions: a completion request
// to an HTTP request, an HTTP body to a completion. OpenAI-compatible chat
// completions (POST {baseUrl}/chat/completions, Authorization: Bearer) and
// Anthropic messages (POST {baseUrl}/messages, x-api-key,
// anthropic-version: 2023-06-01).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "core/http.h"
#include "core/result.h"
#include "policy/model/taskpack.h"

namespace lw::bridge {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct CompletionRequest {
  std::vector<ChatMessage> messages;
  int maxTokens = 1024;
  std::optional<double> temperature;
};

struct Completion {
  std::string text;
  std::string model;       // as the provider named it
  std::string stopReason;  // finish_reason / stop_reason
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
};

inline constexpr std::string_view kAnthropicVersion = "2023-06-01";

// The JSON Schema of model.complete's arguments (checked by verify::validateJson).
boost::json::object completionRequestSchema();
// model.complete's arguments, already checked against that schema.
CompletionRequest completionRequestFromArgs(const boost::json::object& args);

// The request for `lane`. Anthropic takes system messages apart; they are
// joined into its `system` field in order.
http::Request buildLaneRequest(const Lane& lane, const std::string& apiKey, const CompletionRequest& request);

// The completion in a 2xx body. OUTPUT_INVALID when the body is not the
// API's shape; an empty text is returned as such (the caller decides).
Result<Completion> parseLaneResponse(LaneApi api, std::string_view body);

// The provider's error type from an error body ("rate_limit_error",
// "invalid_api_key"), or "" — never its message, which may quote the key.
std::string laneErrorType(std::string_view body);

}  // namespace lw::bridge
