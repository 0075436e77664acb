#include "agents/review/review_run.h"

#include <algorithm>

#include "agents/review/bridge_reads.h"
#include "agents/review/token_estimate.h"
#include "policy/model/tool_names.h"

namespace lw::agents::review {

namespace json = boost::json;

namespace {

// Chat APIs add a few tokens of framing per message.
constexpr std::int64_t kTokensPerMessage = 4;

constexpr const char* kBudgetReason = "token budget";
constexpr const char* kInvalidReason = "model output invalid";
constexpr const char* kOffChangeReason = "off the change: not one of the files the model was shown";

json::object completionArgs(const std::vector<Message>& messages, std::int64_t answer) {
  json::array list;
  for (const Message& m : messages) list.push_back(json::object{{"role", m.role}, {"content", m.content}});
  return json::object{{"messages", std::move(list)}, {"maxTokens", answer}, {"temperature", 0}};
}

std::int64_t intField(const json::object* o, const char* key) {
  const json::value* v = o != nullptr ? o->if_contains(key) : nullptr;
  return v != nullptr && (v->is_int64() || v->is_uint64()) ? std::max<std::int64_t>(0, v->to_number<std::int64_t>())
                                                           : 0;
}

// What the lane reports it used; the estimate when it reports nothing (a
// provider without usage must not make the budget free).
std::int64_t usedTokens(const json::object& answer, std::int64_t estimate) {
  const json::value* usage = answer.if_contains("usage");
  const json::object* u = usage != nullptr ? usage->if_object() : nullptr;
  const std::int64_t reported = intField(u, "inputTokens") + intField(u, "outputTokens");
  return reported > 0 ? reported : estimate;
}

std::vector<std::string> problemsOf(const Error& e) {
  std::vector<std::string> out;
  for (const Diagnostic& d : e.diagnostics)
    out.push_back(d.location.path.empty() ? d.message : d.location.path + " " + d.message);
  if (out.empty()) out.push_back(e.message);
  return out;
}

}  // namespace

std::int64_t answerTokens(std::int64_t chunkTokens) { return std::clamp<std::int64_t>(chunkTokens / 3, 256, 2048); }

std::int64_t requestTokens(const std::vector<Message>& messages, std::int64_t answer) {
  std::int64_t total = answer;
  for (const Message& m : messages) total += estimateTokens(m.content) + kTokensPerMessage;
  return total;
}

ReviewRun::ReviewRun(BridgeClient& bridge, std::int64_t maxTokens, std::int64_t chunkTokens, PromptInputs context,
                     RandomBits random, std::ostream& log)
    : bridge_(bridge),
      maxTokens_(maxTokens),
      answerTokens_(answerTokens(chunkTokens)),
      context_(std::move(context)),
      random_(std::move(random)),
      log_(log) {}

RunResult ReviewRun::run(const std::vector<Chunk>& chunks) {
  for (const Chunk& chunk : chunks) {
    std::vector<std::string> paths;
    for (const ChunkPart& p : chunk.parts)
      if (std::find(paths.begin(), paths.end(), p.path) == paths.end()) paths.push_back(p.path);
    if (result_.stop || result_.budgetReached) {
      result_.chunks.push_back(
          {paths, false, result_.stop ? "model unavailable: " + result_.stop->message : kBudgetReason});
      continue;
    }
    result_.chunks.push_back(review(chunk, paths));
  }
  return std::move(result_);
}

ChunkResult ReviewRun::review(const Chunk& chunk, const std::vector<std::string>& paths) {
  PromptInputs in = context_;
  in.diff = chunk.text();
  Result<std::string> fence = chooseFence(in, random_);
  if (!fence) return {paths, false, fence.error().message};
  const std::vector<Message> first = buildPrompt(in, *fence);
  std::vector<Message> messages = first;
  for (int attempt = 0; attempt < 2; ++attempt) {
    Answer a = complete(messages);
    if (a.outcome == Outcome::OverBudget) return {paths, false, kBudgetReason};
    if (a.outcome == Outcome::Stopped) return {paths, false, "model unavailable: " + result_.stop->message};
    if (a.outcome == Outcome::ModelFailed) return {paths, false, "model error: " + result_.modelError};
    Result<ModelAnswer> found = parseModelOutput(a.text, paths, a.truncated);
    if (found) {
      for (ModelFinding& f : found->findings) result_.findings.push_back(std::move(f));
      for (const ModelFinding& f : found->offChange) drop(f);
      return {paths, true, ""};
    }
    log_ << "builtin/review: " << found.error().message << (attempt == 0 ? " (retrying once)\n" : "\n");
    messages = correctionPrompt(first, a.text, problemsOf(found.error()));
  }
  return {paths, false, kInvalidReason};
}

// A finding on a file the model was not shown as part of this change: never
// reported (it could be an instruction in the diff obeyed, or a guess), but
// kept as a note so that the run and an eval show what the model said.
void ReviewRun::drop(const ModelFinding& f) {
  log_ << "builtin/review: dropped a finding on " << f.path.substr(0, 200) << ": " << kOffChangeReason << "\n";
  result_.dropped.push_back({f.path, f.startLine, f.endLine, "review/" + f.rule, kOffChangeReason});
}

// One request, repeated once on a model error (the breaker counts both).
ReviewRun::Answer ReviewRun::complete(const std::vector<Message>& messages) {
  const std::int64_t estimate = requestTokens(messages, answerTokens_);
  Answer a = completeOnce(messages, estimate);
  if (a.outcome == Outcome::ModelFailed) a = completeOnce(messages, estimate);
  return a;
}

ReviewRun::Answer ReviewRun::completeOnce(const std::vector<Message>& messages, std::int64_t estimate) {
  if (result_.tokensUsed + estimate > maxTokens_) {
    result_.budgetReached = true;
    return {Outcome::OverBudget, {}, false};
  }
  Result<json::value> r = bridge_.call(tools::kModelComplete, completionArgs(messages, answerTokens_));
  if (!r) {
    log_ << "builtin/review: model.complete failed: " << r.error().message << "\n";
    if (isGuardrailStop(r.error())) {
      result_.stop = r.error();
      return {Outcome::Stopped, {}, false};
    }
    result_.modelError = r.error().message;
    return {Outcome::ModelFailed, {}, false};
  }
  const json::object* o = r->if_object();
  result_.tokensUsed += o != nullptr ? usedTokens(*o, estimate) : estimate;
  const json::value* text = o != nullptr ? o->if_contains("text") : nullptr;
  if (text == nullptr || !text->is_string()) {
    result_.modelError = "model.complete answered without a text";
    return {Outcome::ModelFailed, {}, false};
  }
  const json::value* stop = o->if_contains("stopReason");
  const bool truncated =
      stop != nullptr && stop->is_string() && (stop->get_string() == "length" || stop->get_string() == "max_tokens");
  return {Outcome::Answered, std::string(text->get_string()), truncated};
}

}  // namespace lw::agents::review
