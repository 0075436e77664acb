#include "agents/security/workflow/caller_inputs.h"

#include "agents/security/text.h"
#include "agents/security/workflow/workflow_flow.h"

namespace lw::agents::security {

namespace {

bool isLocalUses(std::string_view uses) { return uses.starts_with("./") || uses.starts_with("$/"); }

// `./.github/workflows/x.yml` -> ".github/workflows/x.yml"; `./tools/act` ->
// "tools/act"; the same for GitHub's self-repository `$/…` (a ref after
// `@`, if any, left out); not local: "".
std::string localCallee(std::string_view uses) {
  uses = trim(uses);
  if (!isLocalUses(uses)) return "";
  if (uses.starts_with("$/")) uses = uses.substr(0, uses.find('@'));
  uses.remove_prefix(2);
  while (uses.ends_with("/")) uses.remove_suffix(1);
  return std::string(uses);
}

void recordCall(const std::string& callee, const LocatedMap& with, const FlowScope& at, const std::string& path,
                CallerInputs& out) {
  if (callee.empty()) return;
  for (const auto& [name, value] : with) {
    Taint t = textTaint(value.text, at);
    if (t.reach != Reach::Attacker) continue;
    std::string where = path + ":" + std::to_string(value.line);
    out[callee].emplace_back(lowerCase(name), Located{t.via + " (passed by " + where + ")", value.line});
  }
}

void callsOf(const WorkflowModel& w, const std::string& path, CallerInputs& out) {
  for (const JobModel& j : w.jobs) {
    recordCall(localCallee(j.uses.text), j.with, {w, &j, nullptr}, path, out);
    for (const StepModel& s : j.steps) recordCall(localCallee(s.uses.text), s.with, {w, &j, &s}, path, out);
  }
}

// A `uses: ./…` or `uses: $/…` line (quoted or not) anywhere in the text.
bool callsLocal(std::string_view content) {
  for (std::string_view line : splitLines(content)) {
    std::size_t at = line.find("uses:");
    if (at == std::string_view::npos) continue;
    std::string_view rest = trim(line.substr(at + 5));
    if (rest.starts_with("'") || rest.starts_with("\"")) rest.remove_prefix(1);
    if (isLocalUses(rest)) return true;
  }
  return false;
}

bool isWorkflowPath(std::string_view path) {
  return path.starts_with(".github/workflows/") && (path.ends_with(".yml") || path.ends_with(".yaml"));
}

}  // namespace

std::string calleeKey(std::string_view path, bool isAction) {
  if (!isAction) return std::string(path);
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(path.substr(0, slash));
}

CallerInputs callerInputsOf(const std::vector<ChangedFile>& files) {
  CallerInputs out;
  for (const ChangedFile& f : files) {
    bool action = baseName(f.path) == "action.yml" || baseName(f.path) == "action.yaml";
    // Only a file that calls something local is parsed a second time.
    if (f.truncated || (!action && !isWorkflowPath(f.path)) || !callsLocal(f.content)) continue;
    Result<WorkflowModel> w = parseWorkflow(f.content, action);
    if (w) callsOf(*w, f.path, out);
  }
  return out;
}

}  // namespace lw::agents::security
