#include "agents/security/workflow/workflow_model.h"

#include <algorithm>
#include <limits>

#include <yaml-cpp/yaml.h>

#include "agents/security/text.h"
#include "policy/yaml/yaml_document.h"

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
  step.id = located(s["id"]);
  step.shell = located(s["shell"]);
  step.withBlock = located(s["with"]);
  return step;
}

// A `parallel:` entry's steps stand in the list in its place (GitHub's
// parallel steps: each is a step of the job like any other).
void addSteps(const YAML::Node& steps, std::vector<StepModel>& out) {
  if (!steps || !steps.IsSequence()) return;
  for (const YAML::Node& s : steps) {
    if (s.IsMap() && s["parallel"] && s["parallel"].IsSequence())
      addSteps(s["parallel"], out);
    else
      out.push_back(parseStep(s));
  }
}

std::vector<StepModel> parseSteps(const YAML::Node& steps) {
  std::vector<StepModel> out;
  addSteps(steps, out);
  return out;
}

// `concurrency: group` or `concurrency: {group: …, cancel-in-progress: …}`.
void readConcurrency(const YAML::Node& n, Located& concurrency, Located& cancelInProgress) {
  if (!n) return;
  concurrency = located(n);
  if (n.IsMap()) cancelInProgress = located(n["cancel-in-progress"]);
}

// The mapping form of permissions:, scope by scope.
LocatedMap permissionScopesOf(const YAML::Node& n) { return n && n.IsMap() ? locatedMap(n) : LocatedMap{}; }

void addRegistryPassword(const YAML::Node& container, std::vector<Located>& out) {
  if (!container || !container.IsMap()) return;
  const YAML::Node credentials = container["credentials"];
  if (credentials && credentials.IsMap() && credentials["password"]) out.push_back(located(credentials["password"]));
}

Located defaultShellOf(const YAML::Node& n) {
  if (!n || !n.IsMap() || !n["run"] || !n["run"].IsMap()) return {};
  return located(n["run"]["shell"]);
}

// A value as a whole, on the line of its key (a block mapping or list
// starts on the line after it).
Located wholeValue(const YAML::Node& map, std::string_view key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node name = it->first, value = it->second;
    if (!name.IsScalar() || name.Scalar() != key) continue;
    Located l = located(value);
    if (value.IsSequence()) l.text = "[]";
    if (l.present()) l.line = lineOf(name);
    return l;
  }
  return {};
}

// Scalars of `value`, or of each item when it is a list.
// `container: image` or `container: {image: …}`; the same for each service.
void addImage(const YAML::Node& n, std::vector<Located>& out) {
  if (!n) return;
  if (n.IsScalar())
    out.push_back(located(n));
  else if (n.IsMap() && n["image"])
    out.push_back(located(n["image"]));
}

void addMatrixValue(const std::string& key, const YAML::Node& v, MatrixModel& m) {
  Located value = located(v);
  if (value.present()) m.values.emplace_back(key, std::move(value));
}

// `exclude: [{key: value}]` with one key removes that value (an entry with
// several keys removes combinations, which needs no change per key).
void applyExcludes(const YAML::Node& exclude, MatrixModel& m) {
  if (!exclude || !exclude.IsSequence()) return;
  for (const YAML::Node& entry : exclude) {
    if (!entry.IsMap() || entry.size() != 1) continue;
    auto only = entry.begin();
    const std::string key = only->first.Scalar();
    const YAML::Node value = only->second;
    if (!value.IsScalar()) continue;
    std::erase_if(m.values, [&](const auto& kv) { return kv.first == key && kv.second.text == value.Scalar(); });
  }
}

MatrixModel parseMatrix(const YAML::Node& strategy) {
  MatrixModel m;
  if (!strategy || !strategy.IsMap() || !strategy["matrix"]) return m;
  const YAML::Node matrix = strategy["matrix"];
  m.line = lineOf(matrix);
  if (matrix.IsScalar()) m.expression = located(matrix);
  if (!matrix.IsMap()) return m;
  for (auto it = matrix.begin(); it != matrix.end(); ++it) {
    const std::string key = it->first.Scalar();
    const YAML::Node values = it->second;  // the iterator's pair is a temporary
    if (key == "include" || key == "exclude") continue;
    if (values.IsSequence())
      for (const YAML::Node& v : values) addMatrixValue(key, v, m);
    else
      addMatrixValue(key, values, m);
  }
  applyExcludes(matrix["exclude"], m);
  const YAML::Node include = matrix["include"];
  if (include && include.IsScalar()) m.includeExpression = located(include);
  if (include && include.IsSequence())
    for (const YAML::Node& entry : include)
      if (entry.IsMap())
        for (auto it = entry.begin(); it != entry.end(); ++it) addMatrixValue(it->first.Scalar(), it->second, m);
  return m;
}

// `runs-on: {group: …, labels: …}`: its labels (a group names no label).
void addRunnerLabels(const YAML::Node& labels, std::vector<Located>& out) {
  if (labels && labels.IsScalar()) out.push_back(located(labels));
  if (labels && labels.IsSequence())
    for (const YAML::Node& label : labels) out.push_back(located(label));
}

JobModel parseJob(const std::string& id, const YAML::Node& key, const YAML::Node& j) {
  JobModel job;
  job.id = id;
  job.line = lineOf(key);
  if (!j.IsMap()) return job;
  if (j["permissions"]) job.permissions = located(j["permissions"]);
  const YAML::Node runsOn = j["runs-on"];
  if (runsOn && runsOn.IsSequence())
    for (const YAML::Node& label : runsOn) job.runsOn.push_back(located(label));
  else if (runsOn && runsOn.IsScalar())
    job.runsOn.push_back(located(runsOn));
  else if (runsOn && runsOn.IsMap()) {
    addRunnerLabels(runsOn["labels"], job.runsOn);
    job.runnerGroup = located(runsOn["group"]);
  }
  job.uses = located(j["uses"]);
  job.secrets = located(j["secrets"]);
  job.ifCond = located(j["if"]);
  addImage(j["container"], job.images);
  if (j["services"] && j["services"].IsMap())
    for (auto it = j["services"].begin(); it != j["services"].end(); ++it) addImage(it->second, job.images);
  job.env = locatedMap(j["env"]);
  job.steps = parseSteps(j["steps"]);
  job.matrix = parseMatrix(j["strategy"]);
  job.outputs = locatedMap(j["outputs"]);
  job.with = locatedMap(j["with"]);
  job.permissionScopes = permissionScopesOf(j["permissions"]);
  readConcurrency(j["concurrency"], job.concurrency, job.cancelInProgress);
  addRegistryPassword(j["container"], job.registryPasswords);
  if (j["services"] && j["services"].IsMap())
    for (auto it = j["services"].begin(); it != j["services"].end(); ++it)
      addRegistryPassword(it->second, job.registryPasswords);
  job.environment = located(j["environment"]);
  job.defaultShell = defaultShellOf(j["defaults"]);
  job.runsOnWhole = wholeValue(j, "runs-on");
  return job;
}

void parseInputs(const YAML::Node& inputs, std::vector<InputModel>& out) {
  if (!inputs || !inputs.IsMap()) return;
  for (auto it = inputs.begin(); it != inputs.end(); ++it) {
    InputModel in{it->first.Scalar(), "", lineOf(it->first)};
    if (it->second.IsMap() && it->second["type"] && it->second["type"].IsScalar())
      in.type = it->second["type"].Scalar();
    out.push_back(std::move(in));
  }
}

void parseTriggerBody(const std::string& event, const YAML::Node& body, WorkflowModel& w) {
  if (!body.IsMap()) return;
  if (event == "push" && body["tags"]) w.pushesTags = true;
  if (event == "push" && body["branches"] && body["branches"].IsSequence())
    for (const YAML::Node& b : body["branches"])
      if (b.IsScalar()) w.pushBranches.push_back(b.Scalar());
  if (event == "workflow_call" || event == "workflow_dispatch") parseInputs(body["inputs"], w.inputs);
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
      parseTriggerBody(it->first.Scalar(), it->second, w);
    }
}

void parseAction(const YAML::Node& root, WorkflowModel& w) {
  const YAML::Node runs = root["runs"];
  if (!runs || !runs.IsMap()) return;
  if (runs["image"]) w.actionImage = located(runs["image"]);
  parseInputs(root["inputs"], w.inputs);
  JobModel job;
  job.id = "runs";
  job.line = lineOf(runs);
  job.steps = parseSteps(runs["steps"]);
  w.jobs.push_back(std::move(job));
}

void parseWorkflowBody(const YAML::Node& root, WorkflowModel& w) {
  parseTriggers(root["on"], w);
  if (root["permissions"]) w.permissions = located(root["permissions"]);
  w.env = locatedMap(root["env"]);
  w.permissionScopes = permissionScopesOf(root["permissions"]);
  readConcurrency(root["concurrency"], w.concurrency, w.cancelInProgress);
  w.defaultShell = defaultShellOf(root["defaults"]);
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "on") w.onLine = lineOf(it->first);
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

bool usesAction(const StepModel& s, std::string_view ownerRepo) {
  std::string_view u = trim(s.uses.text);  // a block scalar ends in a newline
  std::size_t at = u.find('@');
  return lowerCase(u.substr(0, at)) == ownerRepo;
}

}  // namespace lw::agents::security
