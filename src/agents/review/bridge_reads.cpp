#include "agents/review/bridge_reads.h"

#include "agents/review/instructions.h"
#include "policy/model/tool_names.h"

namespace lw::agents::review {

namespace json = boost::json;

namespace {

// github.file answers a missing path with the tool error "not found".
bool isNotFound(const Error& e) { return e.message.find("not found") != std::string::npos; }

Result<std::optional<std::string>> readBaseFile(BridgeClient& bridge, const std::string& path) {
  Result<json::value> r = bridge.call(tools::kGithubFile, json::object{{"path", path}, {"ref", "base"}});
  if (!r) {
    if (!isGuardrailStop(r.error()) && isNotFound(r.error())) return std::optional<std::string>();
    return std::move(r).error();
  }
  const json::object* o = r->if_object();
  const json::value* content = o != nullptr ? o->if_contains("content") : nullptr;
  if (content == nullptr || !content->is_string())
    return makeError(ErrorCode::OutputInvalid, "github.file answered without a string 'content' for " + path,
                     "the bridge's GitHub read tools are described in docs/builtin-steps.md", path);
  return std::optional<std::string>(std::string(content->get_string()));
}

}  // namespace

bool isGuardrailStop(const Error& e) {
  return e.code == ErrorCode::BreakerOpen || e.code == ErrorCode::LoopDetected || e.code == ErrorCode::BudgetExceeded;
}

Result<PullRequestInputs> readPullRequest(BridgeClient& bridge) {
  PullRequestInputs in;
  Result<json::value> pull = bridge.call(tools::kGithubPull, {});
  if (!pull) return std::move(pull).error();
  Result<PullInfo> info = readPullInfo(*pull);
  if (!info) return std::move(info).error();
  Result<json::value> files = bridge.call(tools::kGithubPullsFiles, {});
  if (!files) return std::move(files).error();
  Result<PullFiles> fileList = readPullFiles(*files);
  if (!fileList) return std::move(fileList).error();
  Result<json::value> diff = bridge.call(tools::kGithubPullsDiff, {});
  if (!diff) return std::move(diff).error();
  Result<PullDiff> unified = readPullDiff(*diff);
  if (!unified) return std::move(unified).error();
  return PullRequestInputs{std::move(*info), std::move(*fileList), std::move(*unified)};
}

Result<std::optional<Instructions>> readInstructions(BridgeClient& bridge, const std::string& preferred) {
  const std::string candidates[] = {preferred, "AGENTS.md", "CLAUDE.md"};
  for (const std::string& path : candidates) {
    if (path.empty()) continue;
    Result<std::optional<std::string>> text = readBaseFile(bridge, path);
    if (!text) return std::move(text).error();
    if (!*text) continue;
    // The step's own instructions file is about review throughout; the
    // agents' files cover everything, so only their review sections go.
    std::string chosen = path == preferred ? **text : reviewSections(**text);
    return std::optional<Instructions>(Instructions{path, boundInstructions(chosen)});
  }
  return std::optional<Instructions>();
}

}  // namespace lw::agents::review
