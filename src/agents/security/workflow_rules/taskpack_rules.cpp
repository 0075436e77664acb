// loopwright's own taskpack: a sandbox policy that runs a step unsandboxed
// (`direct-dedicated`) with the network open (`allow-outbound`). The keys
// and the field-by-field override of `spec.sandbox` by a step's `sandbox:`
// are docs/taskpack.md's; why the pair matters on a self-hosted runner is
// docs/host-config.md's (`allowDirectDedicated` is true without a host config).
//
// The rule reads the taskpack alone: whether the workflow that runs it is on
// a self-hosted runner is in another file, often one the pull request does not
// touch, so the finding says what the policy allows there instead of
// claiming where it runs.
#include <string>

#include <yaml-cpp/yaml.h>

#include "agents/security/workflow_rules/agentic_workflow_rules.h"
#include "policy/yaml/yaml_document.h"

namespace lw::agents::security {

namespace {

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

struct SandboxFields {
  bool listsBackends = false;   // sets preferredBackends
  int directDedicatedLine = 0;  // 0: not listed
  std::string network;
  int networkLine = 0;
};

SandboxFields fieldsOf(const YAML::Node& sandbox) {
  SandboxFields f;
  if (!sandbox || !sandbox.IsMap()) return f;
  const YAML::Node backends = sandbox["preferredBackends"];
  if (backends && backends.IsSequence()) {
    f.listsBackends = true;
    for (const YAML::Node& b : backends)
      if (b.IsScalar() && b.Scalar() == "direct-dedicated") f.directDedicatedLine = lineOf(b);
  }
  const YAML::Node network = sandbox["networkMode"];
  if (network && network.IsScalar()) {
    f.network = network.Scalar();
    f.networkLine = lineOf(network);
  }
  return f;
}

// A step's policy: its own fields where it sets them, the spec's elsewhere.
SandboxFields merged(const SandboxFields& spec, const SandboxFields& step) {
  SandboxFields out = spec;
  if (step.listsBackends) {
    out.listsBackends = true;
    out.directDedicatedLine = step.directDedicatedLine;
  }
  if (step.networkLine != 0) {
    out.network = step.network;
    out.networkLine = step.networkLine;
  }
  return out;
}

void addHit(const SandboxFields& f, const std::string& where, std::vector<RuleHit>& out) {
  if (f.directDedicatedLine == 0 || f.network != "allow-outbound") return;
  for (const RuleHit& h : out)
    if (h.anchors == std::vector<int>{f.networkLine, f.directDedicatedLine}) return;  // the spec's, inherited
  out.push_back({"security/agent-taskpack-outbound",
                 where + " runs on `direct-dedicated` (no sandbox) with `networkMode: allow-outbound`; on a "
                         "self-hosted runner without a host config that is the machine and its network.",
                 {f.networkLine, f.directDedicatedLine}});
}

void taskpackHitsOf(const YAML::Node& root, std::vector<RuleHit>& out) {
  const YAML::Node spec = root["spec"];
  if (!spec || !spec.IsMap()) return;
  SandboxFields base = fieldsOf(spec["sandbox"]);
  addHit(base, "`spec.sandbox`", out);
  const YAML::Node stages = spec["stages"];
  if (!stages || !stages.IsSequence()) return;
  for (const YAML::Node& stage : stages) {
    const YAML::Node steps = stage.IsMap() ? stage["steps"] : YAML::Node();
    if (!steps || !steps.IsSequence()) continue;
    for (const YAML::Node& step : steps) {
      if (!step.IsMap() || !step["sandbox"]) continue;
      std::string name = step["name"] && step["name"].IsScalar() ? step["name"].Scalar() : "a step";
      addHit(merged(base, fieldsOf(step["sandbox"])), "Step `" + name + "`", out);
    }
  }
}

}  // namespace

bool isTaskpackPath(std::string_view path) {
  return path == ".loopwright/taskpack.yaml" || path == ".loopwright/taskpack.yml";
}

std::vector<RuleHit> taskpackHits(std::string_view content) {
  std::vector<RuleHit> out;
  std::vector<Diagnostic> problems;
  std::optional<YAML::Node> root = parseYamlDocument(content, "", content.size() + 1, problems);
  if (!root || !root->IsMap()) return out;
  try {
    taskpackHitsOf(*root, out);
  } catch (const YAML::Exception&) {
    // a key that is not a scalar, and the like: `loopwright validate` reports it
  }
  return out;
}

}  // namespace lw::agents::security
