// builtin/review's main against a real model lane: model.complete goes
// through the bridge's own tool (modelCompleteTool: LaneClient, libcurl,
// the circuit breaker) to the local fake model server, whose answers each
// test scripts; the GitHub read tools answer from a scripted pull request.
// A guardrail stop comes back as an Error with its code, as the bridge's
// JSON-RPC error does.
#pragma once

#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "agents/review/review_agent.h"
#include "bridge/lane_client.h"
#include "bridge/lane_http.h"
#include "bridge/model_tool.h"
#include "core/file_io.h"
#include "core/http_curl.h"
#include "guard/clock.h"
#include "support/fake_model.h"
#include "support/temp_dir.h"
#include "verify/outputs/json_schema.h"

namespace lw::test {

namespace json = boost::json;

// An OpenAI chat completion whose text is `text`, with the usage given.
inline std::string completionWith(const std::string& text, int promptTokens = 900, int completionTokens = 100,
                                  const std::string& finish = "stop") {
  return json::serialize(json::object{
      {"id", "chatcmpl-review"},
      {"object", "chat.completion"},
      {"model", "fake-1"},
      {"choices", json::array{json::object{{"index", 0},
                                           {"message", json::object{{"role", "assistant"}, {"content", text}}},
                                           {"finish_reason", finish}}}},
      {"usage", json::object{{"prompt_tokens", promptTokens}, {"completion_tokens", completionTokens}}}});
}

inline FakeModel::Reply answer(const std::string& text, int promptTokens = 900, int completionTokens = 100) {
  return FakeModel::Reply::withStatus(200, completionWith(text, promptTokens, completionTokens));
}

// A unified diff of `path` adding `lines` lines from line `start`.
inline std::string addedFile(const std::string& path, int lines, const std::string& text = "value = compute(x)",
                             int start = 1) {
  std::string out = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -" +
                    std::to_string(start) + ",0 +" + std::to_string(start) + "," + std::to_string(lines) + " @@\n";
  for (int i = 0; i < lines; ++i) out += "+" + text + " # " + std::to_string(i) + "\n";
  return out;
}

class ReviewRig : public agents::BridgeClient {
 public:
  ReviewRig() : client_(lane(), "sk-test", http_, breaker_), model_(bridge::modelCompleteTool(client_, nullptr)) {}

  FakeModel server;
  json::object params;
  std::string diff;
  std::vector<std::string> paths;  // github.pulls.files, each "modified"
  std::map<std::string, std::string> baseFiles;
  std::string title = "Add compute";
  std::string body = "Computes things.";
  bool incremental = false;
  std::vector<std::string> fileRefs;  // github.file's ref of each call
  std::ostringstream log;
  TempDir out;

  Result<json::value> call(const std::string& tool, const json::object& args) override {
    if (tool == "model.complete") return complete(args);
    if (tool == "github.pull")
      return json::value{{"number", 7}, {"title", title}, {"body", body}, {"baseSha", "b0"}, {"headSha", "h1"}};
    if (tool == "github.pulls.files") return json::value{{"files", filesJson()}, {"truncated", false}};
    if (tool == "github.pulls.diff")
      return json::value{{"base", incremental ? "h0" : "b0"},
                         {"head", "h1"},
                         {"incremental", incremental},
                         {"diff", diff},
                         {"truncated", false}};
    if (tool == "github.file") return file(args);
    return makeError(ErrorCode::UsageError, "tool " + tool + " not granted");
  }

  int run() {
    agents::AgentContext ctx{*this, params, out.root, out.root, log};
    return agents::review::reviewPullRequest(ctx, [n = std::uint64_t{0x5eed}]() mutable { return n++; });
  }

  // findings.json and coverage.json, each checked against its schema.
  json::value findings() const { return readChecked("findings.json", "findings.schema.json"); }
  json::value coverage() const { return readChecked("coverage.json", "coverage.schema.json"); }
  // The text of message `i` of model request `r`.
  std::string message(std::size_t r, std::size_t i) const {
    return std::string(json::parse(server.requests().at(r).body).at("messages").at(i).at("content").as_string());
  }
  std::size_t messageCount(std::size_t r) const {
    return json::parse(server.requests().at(r).body).at("messages").as_array().size();
  }
  // The status and reason coverage.json gives `path`.
  std::pair<std::string, std::string> fileCoverage(const std::string& path) const {
    const json::value cov = coverage();
    for (const json::value& f : cov.at("files").as_array())
      if (f.at("path") == path.c_str())
        return {std::string(f.at("status").as_string()), std::string(f.at("reason").as_string())};
    return {"absent", ""};
  }

 private:
  // Members are built in order: the server is up before the lane names it.
  Lane lane() const {
    Lane l;
    l.name = "review-lane";
    l.baseUrl = server.url();
    l.model = "fake-1";
    l.apiKeyEnv = "KEY";
    l.timeoutMs = 5000;
    return l;
  }

  Result<json::value> complete(const json::object& args) {
    if (auto bad = verify::validateJson(model_.inputSchema, args))
      return makeError(ErrorCode::UsageError, "model.complete: " + bad->path + " " + bad->message);
    if (stopped_) return *stopped_;
    bridge::ToolContext ctx;
    ctx.step = "review/model";
    Result<bridge::ToolOutput> r = model_.handler(args, ctx);
    if (ctx.stop) stopped_ = makeError(ctx.stop->code, ctx.stop->message);
    if (!r) return r.error();
    return r->structured;
  }

  Result<json::value> file(const json::object& args) {
    const std::string path(args.at("path").as_string());
    fileRefs.emplace_back(args.at("ref").as_string());
    auto it = baseFiles.find(path);
    if (it == baseFiles.end()) return makeError(ErrorCode::IoError, "github.file: " + path + ": not found");
    return json::value{{"path", path},          {"ref", "base"},     {"sha", "s"}, {"size", it->second.size()},
                       {"content", it->second}, {"truncated", false}};
  }

  json::array filesJson() const {
    json::array a;
    for (const std::string& p : paths)
      a.push_back(
          json::object{{"path", p}, {"status", "modified"}, {"additions", 1}, {"deletions", 0}, {"binary", false}});
    return a;
  }

  json::value readChecked(const char* name, const char* schemaName) const {
    auto text = readBoundedFile((out.root / name).string(), 1 << 22, ErrorCode::IoError);
    REQUIRE(text);
    json::value v = json::parse(*text);
    auto schema =
        readBoundedFile(std::string(LOOPWRIGHT_SOURCE_DIR) + "/schemas/" + schemaName, 1 << 20, ErrorCode::IoError);
    REQUIRE(schema);
    auto bad = verify::validateJson(json::parse(*schema), v);
    CHECK_MESSAGE(!bad, name << ": " << (bad ? bad->path + " " + bad->message : std::string()));
    return v;
  }

  guard::ManualClock clock_;
  guard::CircuitBreaker breaker_{"review-lane", BreakerGuardrail{}, clock_};
  http::CurlTransport http_{bridge::laneHttpPolicy()};
  bridge::LaneClient client_;
  bridge::Tool model_;
  std::optional<Error> stopped_;
};

}  // namespace lw::test
