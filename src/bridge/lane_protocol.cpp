#include "bridge/lane_protocol.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lw::bridge {

namespace json = boost::json;

namespace {

std::string joinUrl(const std::string& base, std::string_view path) {
  std::string url = base;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url + std::string(path);
}

Error invalidBody(LaneApi api, const std::string& what) {
  return makeError(ErrorCode::OutputInvalid, std::string(toString(api)) + " response: " + what,
                   "the lane's baseUrl must point at an API of this kind");
}

std::int64_t intAt(const json::object* o, const char* key) {
  if (o == nullptr) return 0;
  const json::value* v = o->if_contains(key);
  return v != nullptr && v->is_int64() ? v->get_int64() : 0;
}

std::string stringAt(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

}  // namespace

json::object completionRequestSchema() {
  json::object message{
      {"type", "object"},
      {"required", json::array{"role", "content"}},
      {"additionalProperties", false},
      {"properties", json::object{{"role", json::object{{"enum", json::array{"system", "user", "assistant"}}}},
                                  {"content", json::object{{"type", "string"}, {"maxLength", 1 << 20}}}}}};
  return json::object{
      {"type", "object"},
      {"required", json::array{"messages"}},
      {"additionalProperties", false},
      {"properties",
       json::object{
           {"messages",
            json::object{{"type", "array"}, {"minItems", 1}, {"maxItems", 512}, {"items", std::move(message)}}},
           {"maxTokens", json::object{{"type", "integer"}, {"minimum", 1}, {"maximum", 200000}}},
           {"temperature", json::object{{"type", "number"}, {"minimum", 0}, {"maximum", 2}}}}}};
}

CompletionRequest completionRequestFromArgs(const json::object& args) {
  CompletionRequest r;
  for (const json::value& m : args.at("messages").as_array())
    r.messages.push_back({stringAt(m.as_object(), "role"), stringAt(m.as_object(), "content")});
  if (const json::value* v = args.if_contains("maxTokens")) r.maxTokens = v->to_number<int>();
  if (const json::value* v = args.if_contains("temperature")) r.temperature = v->to_number<double>();
  return r;
}

http::Request buildLaneRequest(const Lane& lane, const std::string& apiKey, const CompletionRequest& request) {
  http::Request http;
  http.method = "POST";
  http.timeout = std::chrono::milliseconds(lane.timeoutMs);
  http.headers.emplace_back("Content-Type", "application/json");
  http.headers.emplace_back("Accept", "application/json");
  json::object body;
  body["model"] = lane.model;
  body["max_tokens"] = request.maxTokens;
  if (request.temperature) body["temperature"] = *request.temperature;
  json::array messages;
  if (lane.api == LaneApi::OpenAiChat) {
    http.url = joinUrl(lane.baseUrl, "/chat/completions");
    http.headers.emplace_back("Authorization", "Bearer " + apiKey);
    for (const ChatMessage& m : request.messages)
      messages.push_back(json::object{{"role", m.role}, {"content", m.content}});
  } else {
    http.url = joinUrl(lane.baseUrl, "/messages");
    http.headers.emplace_back("x-api-key", apiKey);
    http.headers.emplace_back("anthropic-version", std::string(kAnthropicVersion));
    std::string system;
    for (const ChatMessage& m : request.messages) {
      if (m.role == "system") {
        system += (system.empty() ? "" : "\n\n") + m.content;
      } else {
        messages.push_back(json::object{{"role", m.role}, {"content", m.content}});
      }
    }
    if (!system.empty()) body["system"] = system;
  }
  body["messages"] = std::move(messages);
  http.body = json::serialize(body);
  return http;
}

Result<Completion> parseLaneResponse(LaneApi api, std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return invalidBody(api, "not JSON (" + ec.message() + ")");
  const json::object* o = v.if_object();
  if (o == nullptr) return invalidBody(api, "not a JSON object");
  Completion c;
  c.model = stringAt(*o, "model");
  const json::value* usageV = o->if_contains("usage");
  const json::object* usage = usageV ? usageV->if_object() : nullptr;
  if (api == LaneApi::OpenAiChat) {
    const json::value* choices = o->if_contains("choices");
    if (choices == nullptr || !choices->is_array() || choices->get_array().empty() ||
        !choices->get_array()[0].is_object())
      return invalidBody(api, "no choices[0]");
    const json::object& choice = choices->get_array()[0].get_object();
    const json::value* message = choice.if_contains("message");
    if (message == nullptr || !message->is_object()) return invalidBody(api, "no choices[0].message");
    const json::value* content = message->get_object().if_contains("content");
    if (content != nullptr && !content->is_string() && !content->is_null())
      return invalidBody(api, "choices[0].message.content is not a string");
    if (content != nullptr && content->is_string()) c.text = std::string(content->get_string());
    c.stopReason = stringAt(choice, "finish_reason");
    c.inputTokens = intAt(usage, "prompt_tokens");
    c.outputTokens = intAt(usage, "completion_tokens");
  } else {
    const json::value* content = o->if_contains("content");
    if (content == nullptr || !content->is_array()) return invalidBody(api, "no content array");
    for (const json::value& block : content->get_array()) {
      if (!block.is_object()) return invalidBody(api, "a content block is not an object");
      if (stringAt(block.get_object(), "type") == "text") c.text += stringAt(block.get_object(), "text");
    }
    c.stopReason = stringAt(*o, "stop_reason");
    c.inputTokens = intAt(usage, "input_tokens");
    c.outputTokens = intAt(usage, "output_tokens");
  }
  return c;
}

std::string laneErrorType(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return "";
  const json::value* err = v.get_object().if_contains("error");
  if (err == nullptr || !err->is_object()) return "";
  std::string type = stringAt(err->get_object(), "type");
  if (type.empty()) type = stringAt(err->get_object(), "code");
  // A type is an identifier; anything else is not repeated.
  if (type.size() > 64 || type.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789.-") != std::string::npos)
    return "";
  return type;
}

}  // namespace lw::bridge
