#include "policy/load/stage_reader.h"

#include <algorithm>
#include <set>

#include "policy/builtin/builtin_params.h"
#include "policy/load/sandbox_spec_reader.h"
#include "policy/load/step_isolation_reader.h"
#include "policy/load/task_contract_reader.h"
#include "policy/load/tuning_reader.h"
#include "policy/model/scope_glob.h"
#include "policy/model/tool_names.h"
#include "policy/yaml/did_you_mean.h"

namespace lw {
namespace {

bool isToolName(const std::string& s) {
  if (s.empty() || s.size() > 128 || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  });
}

std::string knownToolsHint() {
  std::string names;
  for (std::string_view name : knownToolNames()) names += (names.empty() ? "" : ", ") + std::string(name);
  return "the bridge offers " + names;
}

void checkEvent(YamlSchemaReader& reader, const YAML::Node& n, const std::string& p, const std::string& event) {
  std::string name = event.substr(0, event.find('.'));
  std::vector<std::string_view> known(std::begin(kKnownEvents), std::end(kKnownEvents));
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    auto guess = closestMatch(name, known);
    reader.error(n, p, "'" + name + "' is not an event loopwright handles",
                 guess ? "did you mean '" + *guess + "'?"
                       : "use pull_request, pull_request_target, issues, issue_comment or "
                         "workflow_dispatch, optionally with '.<action>'");
    return;
  }
  if (auto dot = event.find('.'); dot != std::string::npos) {
    std::string action = event.substr(dot + 1);
    bool valid = !action.empty() && action.size() <= 40 &&
                 std::all_of(action.begin(), action.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
    if (!valid)
      reader.error(n, p, "'" + action + "' is not an event action",
                   "actions are lower-case words such as opened or synchronize");
  }
}

// Every key a step may have (any other is reported with a did-you-mean).
const std::vector<std::string_view> kStepKeys = {"name",
                                                 "run",
                                                 "uses",
                                                 "with",
                                                 "role",
                                                 "tools",
                                                 "lane",
                                                 "sandbox",
                                                 "limits",
                                                 "idempotent",
                                                 "writable",
                                                 "isolation",
                                                 "escalate",
                                                 "expects",
                                                 "validate",
                                                 "maxChangedFiles",
                                                 "maxChangedLines",
                                                 "maxBinaryBytes",
                                                 "gitRuleFiles",
                                                 "onStop"};

// A step's tools: each a tool name the bridge offers, else an error naming
// the closest one.
std::optional<std::vector<std::string>> readTools(YamlSchemaReader& reader, const YAML::Node& value,
                                                  const std::string& fp) {
  auto list = reader.stringList(value, fp, 0, 64, {}, 128);
  if (!list) return list;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string& name = (*list)[i];
    if (!isToolName(name)) {
      reader.error(value[i], indexPath(fp, i), "'" + name + "' is not a tool name",
                   "tool names look like github.pulls.diff or model.complete");
    } else if (!isKnownTool(name)) {
      auto guess = closestMatch(name, knownToolNames());
      reader.error(value[i], indexPath(fp, i), "'" + name + "' is not a tool the bridge offers",
                   guess ? "did you mean '" + *guess + "'?" : knownToolsHint());
    }
  }
  return list;
}

// An author step's writable scope: relative paths or globs inside the workspace.
std::optional<std::vector<std::string>> readWritable(YamlSchemaReader& reader, const YAML::Node& value,
                                                     const std::string& fp) {
  auto list = reader.stringList(value, fp, 0, 64, {}, 1024);
  if (!list) return list;
  for (std::size_t i = 0; i < list->size(); ++i)
    if (!isScopeGlob((*list)[i]))
      reader.error(value[i], indexPath(fp, i), "'" + (*list)[i] + "' is not a path inside the workspace",
                   "write a relative path or glob without '..', e.g. src/** or docs/");
  return list;
}

// What holds across a step's keys once each is read: exactly one of run and
// uses, a writable scope only for an author, the builtin's and the task
// contract's own rules.
void checkStep(YamlSchemaReader& reader, const YAML::Node& n, const std::string& p,
               const std::vector<MapEntry>& entries, Step& step) {
  readStepBuiltin(reader, n, p, entries, step);
  checkEscalateLevel(reader, step);
  bool hasRun = find(entries, "run").IsDefined();
  bool hasUses = find(entries, "uses").IsDefined();
  if (hasRun == hasUses)
    reader.error(n, p, hasRun ? "has both 'run' and 'uses'" : "has neither 'run' nor 'uses'",
                 "give exactly one: run: [command, args…] or uses: builtin/<name>");
  if (!step.writable.empty() && step.role != Role::Author)
    reader.error(find(entries, "writable"), childPath(p, "writable"), "only an author step has a writable scope",
                 "set role: author, or remove 'writable'");
  checkTaskContract(reader, entries, p, step);
}

Step readStep(YamlSchemaReader& reader, const YAML::Node& n, const std::string& p, const std::string& homeDir) {
  Step step;
  step.location = reader.locate(n, p);
  auto entries = reader.mapping(n, p, kStepKeys, {"name"});
  if (!entries) return step;
  for (const MapEntry& e : *entries) {
    std::string fp = childPath(p, e.key);
    if (e.key == "name") {
      if (auto s = reader.name(e.value, fp)) step.name = *s;
    } else if (e.key == "run") {
      reader.sequence(e.value, fp, 1, 256, [&](const YAML::Node& a, const std::string& ap) {
        if (auto s = reader.string(a, ap, 4096)) step.run.push_back(*s);
      });
    } else if (e.key == "uses") {
      if (auto s = reader.string(e.value, fp, 128)) {
        checkUses(reader, e.value, fp, *s);
        step.uses = *s;
      }
    } else if (e.key == "role") {
      if (auto s = reader.oneOf(e.value, fp, {"triage", "reviewer", "author"})) step.role = *parseRole(*s);
    } else if (e.key == "tools") {
      if (auto list = readTools(reader, e.value, fp)) step.tools = *list;
    } else if (e.key == "lane") {
      step.lane = reader.name(e.value, fp);
    } else if (e.key == "sandbox") {
      step.sandbox = readSandboxSpec(reader, e.value, fp, homeDir);
    } else if (e.key == "limits") {
      readLimitsOverride(reader, e.value, fp, step.limits);
    } else if (e.key == "isolation" || e.key == "escalate") {
      readStepIsolationKey(reader, e, fp, step);
    } else if (e.key == "idempotent") {
      if (auto b = reader.boolean(e.value, fp)) step.idempotent = *b;
    } else if (e.key == "writable") {
      if (auto list = readWritable(reader, e.value, fp)) step.writable = *list;
    } else if (isTaskContractKey(e.key)) {
      readTaskContractKey(reader, e, fp, step.contract);
    }
  }
  checkStep(reader, n, p, *entries, step);
  return step;
}

}  // namespace

void readStages(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, const std::string& homeDir,
                std::vector<Stage>& out) {
  std::set<std::string> stageNames;
  reader.sequence(node, path, 1, 32, [&](const YAML::Node& n, const std::string& p) {
    Stage stage;
    stage.location = reader.locate(n, p);
    auto entries = reader.mapping(n, p, {"name", "on", "needs", "steps"}, {"name", "on", "steps"});
    if (!entries) return;
    for (const MapEntry& e : *entries) {
      std::string fp = childPath(p, e.key);
      if (e.key == "name") {
        if (auto s = reader.name(e.value, fp)) {
          if (stageNames.contains(*s))
            reader.error(e.value, fp, "stage '" + *s + "' is defined twice", "stage names must be unique");
          stage.name = *s;
        }
      } else if (e.key == "on") {
        if (auto list = reader.stringList(e.value, fp, 1, 32, {}, 80)) {
          for (std::size_t i = 0; i < list->size(); ++i) checkEvent(reader, e.value[i], indexPath(fp, i), (*list)[i]);
          stage.on = *list;
        }
      } else if (e.key == "needs") {
        if (auto list = reader.stringList(e.value, fp, 0, 32, {}, 63)) {
          for (std::size_t i = 0; i < list->size(); ++i)
            if (!stageNames.contains((*list)[i]))
              reader.error(e.value[i], indexPath(fp, i), "'" + (*list)[i] + "' is not an earlier stage",
                           "a stage can only need stages listed before it");
          stage.needs = *list;
        }
      } else if (e.key == "steps") {
        std::set<std::string> stepNames;
        reader.sequence(e.value, fp, 1, 32, [&](const YAML::Node& sn, const std::string& sp) {
          Step step = readStep(reader, sn, sp, homeDir);
          if (!step.name.empty() && !stepNames.insert(step.name).second)
            reader.error(sn, sp, "step '" + step.name + "' is defined twice in this stage",
                         "step names must be unique within a stage");
          stage.steps.push_back(std::move(step));
        });
      }
    }
    if (!stage.name.empty()) stageNames.insert(stage.name);
    out.push_back(std::move(stage));
  });
}

}  // namespace lw
