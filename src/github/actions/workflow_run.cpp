#include "github/actions/workflow_run.h"

#include <boost/json/parse.hpp>

#include "core/file_io.h"
#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

namespace {

Error payloadError(std::string message, const std::string& source, std::string path) {
  Error e = makeError(ErrorCode::EventInvalid, std::move(message),
                      "GITHUB_EVENT_PATH must be the workflow_run payload the runner wrote", source);
  e.location = Location{.file = source, .line = 0, .column = 0, .path = std::move(path)};
  return e;
}

std::vector<int> pullNumbersOn(const json::object& run, const RepoRef& base) {
  std::vector<int> out;
  const json::array* pulls = optArray(run, "pull_requests", "workflow_run");
  if (!pulls) return out;
  for (std::size_t i = 0; i < pulls->size(); ++i) {
    std::string p = "workflow_run.pull_requests[" + std::to_string(i) + "]";
    const json::object& pr = object((*pulls)[i], p);
    const json::object& prBase = object(field(pr, "base", p), p + ".base");
    const json::object& repo = object(field(prBase, "repo", p + ".base"), p + ".base.repo");
    // The list also names pull requests of other repositories whose head is
    // this commit; only this repository's are ours to post on.
    if (str(repo, "name", p + ".base.repo") != base.name) continue;
    out.push_back(static_cast<int>(integer(pr, "number", p)));
  }
  return out;
}

WorkflowRun readWorkflowRun(const json::object& root) {
  WorkflowRun w;
  const json::object& repo = object(field(root, "repository", ""), "repository");
  const json::object& owner = object(field(repo, "owner", "repository"), "repository.owner");
  w.repository = {str(owner, "login", "repository.owner"), str(repo, "name", "repository")};
  const json::object& run = object(field(root, "workflow_run", ""), "workflow_run");
  w.id = integer(run, "id", "workflow_run");
  w.attempt = optInt(run, "run_attempt", "workflow_run").value_or(1);
  w.event = str(run, "event", "workflow_run");
  w.headSha = str(run, "head_sha", "workflow_run");
  // A deleted fork leaves head_repository null.
  if (const json::object* head = optObject(run, "head_repository", "workflow_run"))
    w.headRepository = str(*head, "full_name", "workflow_run.head_repository");
  w.pullNumbers = pullNumbersOn(run, w.repository);
  return w;
}

}  // namespace

Result<WorkflowRun> parseWorkflowRun(std::string_view jsonText, const std::string& source) {
  boost::system::error_code ec;
  json::value doc = json::parse(json::string_view(jsonText.data(), jsonText.size()), ec);
  if (ec) return payloadError("workflow_run payload is not JSON: " + ec.message(), source, "");
  try {
    return readWorkflowRun(object(doc, ""));
  } catch (const FieldError& e) {
    return payloadError("workflow_run payload: " + e.path + ": " + e.what(), source, e.path);
  }
}

Result<WorkflowRun> loadWorkflowRun(const Environment& env) {
  std::string name = env.get("GITHUB_EVENT_NAME").value_or("");
  auto path = env.get("GITHUB_EVENT_PATH");
  if (name != "workflow_run" || !path || path->empty())
    return makeError(ErrorCode::UsageError, "publish --from-artifact runs in a workflow_run job, not on '" + name + "'",
                     "see docs/fork-pull-requests.md: the publishing workflow is `on: workflow_run`");
  // GitHub caps webhook payloads at 25 MB.
  auto text = readBoundedFile(*path, 25u << 20, ErrorCode::EventInvalid);
  if (!text) return std::move(text).error();
  return parseWorkflowRun(*text, *path);
}

}  // namespace lw::github
