#include "agents/security/workflow_model.h"

#include <limits>

#include <yaml-cpp/yaml.h>

#include "policy/yaml_document.h"

namespace lw::agents::security {

namespace {

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

Located located(const YAML::Node& n) {
  if (!n || n.IsNull()) return {};
  if (n.IsScalar()) return {n.Scalar(), lineOf(n)};
  return {"{}", lineOf(n)};
}

LocatedMap locatedMap(const YAML::Node& n) {
  LocatedMap out;
  if (!n || !n.IsMap()) return out;
  for (auto it = n.begin(); it != n.end(); ++it) {
    Located value = located(it->second);
    value.line = lineOf(it->first);  // the key's line: where a reader looks
    out.emplace_back(it->first.Scalar(), std::move(value));
  }
  return out;
}

StepModel parseStep(const YAML::Node& s) {
  StepModel step;
  step.line = lineOf(s);
  if (!s.IsMap()) return step;
  step.uses = located(s["uses"]);
  step.run = located(s["run"]);
  step.ifCond = located(s["if"]);
  step.with = locatedMap(s["with"]);
  step.env = locatedMap(s["env"]);
  return step;
}

std::vector<StepModel> parseSteps(const YAML::Node& steps) {
  std::vector<StepModel> out;
  if (steps && steps.IsSequence())
    for (const YAML::Node& s : steps) out.push_back(parseStep(s));
  return out;
}

// `container: image` or `container: {image: …}`; the same for each service.
void addImage(const YAML::Node& n, std::vector<Located>& out) {
  if (!n) return;
  if (n.IsScalar())
    out.push_back(located(n));
  else if (n.IsMap() && n["image"])
    out.push_back(located(n["image"]));
}

JobModel parseJob(const std::string& id, const YAML::Node& key, const YAML::Node& j) {
  JobModel job;
  job.id = id;
  job.line = lineOf(key);
  if (!j.IsMap()) return job;
  if (j["permissions"]) job.permissions = located(j["permissions"]);
  job.permissionScopes = locatedMap(j["permissions"]);
  const YAML::Node runsOn = j["runs-on"];
  if (runsOn && runsOn.IsSequence())
    for (const YAML::Node& label : runsOn) job.runsOn.push_back(located(label));
  else if (runsOn && runsOn.IsScalar())
    job.runsOn.push_back(located(runsOn));
  job.uses = located(j["uses"]);
  job.secrets = located(j["secrets"]);
  job.ifCond = located(j["if"]);
  addImage(j["container"], job.images);
  if (j["services"] && j["services"].IsMap())
    for (auto it = j["services"].begin(); it != j["services"].end(); ++it) addImage(it->second, job.images);
  job.env = locatedMap(j["env"]);
  job.steps = parseSteps(j["steps"]);
  return job;
}

void parseTriggers(const YAML::Node& on, WorkflowModel& w) {
  if (!on) return;
  if (on.IsScalar())
    w.triggers.push_back(located(on));
  else if (on.IsSequence())
    for (const YAML::Node& e : on) w.triggers.push_back(located(e));
  else if (on.IsMap())
    for (auto it = on.begin(); it != on.end(); ++it) {
      w.triggers.push_back({it->first.Scalar(), lineOf(it->first)});
      if (it->first.Scalar() == "push" && it->second.IsMap() && it->second["tags"]) w.pushesTags = true;
    }
}

void parseAction(const YAML::Node& root, WorkflowModel& w) {
  const YAML::Node runs = root["runs"];
  if (!runs || !runs.IsMap()) return;
  if (runs["image"]) w.actionImage = located(runs["image"]);
  JobModel job;
  job.id = "runs";
  job.line = lineOf(runs);
  job.steps = parseSteps(runs["steps"]);
  w.jobs.push_back(std::move(job));
}

void parseWorkflowBody(const YAML::Node& root, WorkflowModel& w) {
  parseTriggers(root["on"], w);
  if (root["permissions"]) w.permissions = located(root["permissions"]);
  w.permissionScopes = locatedMap(root["permissions"]);
  w.env = locatedMap(root["env"]);
  const YAML::Node jobs = root["jobs"];
  if (jobs && jobs.IsMap())
    for (auto it = jobs.begin(); it != jobs.end(); ++it)
      w.jobs.push_back(parseJob(it->first.Scalar(), it->first, it->second));
}

Error unreadable(std::string message, Location where) {
  Error e = makeError(ErrorCode::OutputInvalid, std::move(message));
  e.location = std::move(where);
  return e;
}

}  // namespace

const Located* StepModel::withValue(std::string_view key) const {
  for (const auto& [k, v] : with)
    if (k == key) return &v;
  return nullptr;
}

bool WorkflowModel::hasTrigger(std::string_view event) const {
  for (const Located& t : triggers)
    if (t.text == event) return true;
  return false;
}

int WorkflowModel::firstTriggerLine() const { return triggers.empty() ? 0 : triggers.front().line; }

Result<WorkflowModel> parseWorkflow(std::string_view content, bool isAction) {
  std::vector<Diagnostic> problems;
  // No size bound here: github.file's is the bound, and a file cut short by
  // it is reported before it is parsed (scan.cpp).
  std::optional<YAML::Node> root = parseYamlDocument(content, "", std::numeric_limits<std::size_t>::max(), problems);
  if (!root) return unreadable(problems.front().message, problems.front().location);
  if (!root->IsMap())
    return unreadable(std::string("is ") + (root->IsSequence() ? "a list" : "a single value") + ", not a mapping",
                      yamlLocation("", root->Mark()));
  WorkflowModel w;
  w.isAction = isAction;
  try {
    if (isAction)
      parseAction(*root, w);
    else
      parseWorkflowBody(*root, w);
  } catch (const YAML::Exception& e) {
    return unreadable(e.msg, yamlLocation("", e.mark));  // a key that is not a scalar, and the like
  }
  return w;
}

}  // namespace lw::agents::security
