#include "policy/resolve/resolve.h"

#include <algorithm>

#include "policy/builtin/builtin_defaults.h"
#include "policy/load/sandbox_spec_reader.h"
#include "policy/model/isolation.h"
#include "policy/model/tool_names.h"

namespace lw {
namespace {

std::string at(const Location& loc) {
  return loc.line > 0 ? " (" + loc.file + ":" + std::to_string(loc.line) + ")" : "";
}

std::string joinNames(const auto& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + std::string(toString(i));
  return out;
}

void addUnique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// Merges the sandbox layers of one step into `out`, recording each field's
// origin. True when it is GitHub Actions' default (direct-dedicated).
bool mergeSandbox(const std::optional<SandboxSpec>& spec, const std::optional<SandboxSpec>& step,
                  const ResolveContext& ctx, EffectiveSandbox& out, FieldOrigins& why) {
  const bool omitted = !spec && !step;
  const bool actionsDefault = omitted && ctx.githubActions;
  if (actionsDefault) {
    // A GitHub-hosted runner is a fresh VM per job: the job owns the machine.
    out.preferredBackends = {BackendId::DirectDedicated};
    out.networkMode = NetworkMode::AllowOutbound;
    out.requiredCapabilities = {Capability::ProcessTreeCleanup};
    out.allowDedicatedDirectOverride = true;
    const std::string rule = "default: GITHUB_ACTIONS=true and no sandbox policy";
    for (auto f : {"preferredBackends", "networkMode", "requiredCapabilities", "allowDedicatedDirectOverride"})
      why[f] = rule;
  } else {
    out.preferredBackends.assign(kDefaultBackendOrder.begin(), kDefaultBackendOrder.end());
    out.networkMode = NetworkMode::None;
    out.requiredCapabilities = {};
    out.allowDedicatedDirectOverride = false;
    const std::string rule = omitted ? "default: no sandbox policy, fail-closed" : "default of an explicit policy";
    for (auto f : {"preferredBackends", "networkMode", "requiredCapabilities", "allowDedicatedDirectOverride"})
      why[f] = rule;
  }
  for (const auto* layer : {&spec, &step}) {
    if (!*layer) continue;
    const SandboxSpec& s = **layer;
    std::string origin = (layer == &spec ? "taskpack spec.sandbox" : "step sandbox override") + at(s.location);
    if (s.preferredBackends) {
      out.preferredBackends = *s.preferredBackends;
      why["preferredBackends"] = origin;
    }
    if (s.networkMode) {
      out.networkMode = *s.networkMode;
      why["networkMode"] = origin;
    }
    if (s.requiredCapabilities) {
      out.requiredCapabilities = *s.requiredCapabilities;
      why["requiredCapabilities"] = origin;
    }
    if (s.egress) {
      out.egress = *s.egress;
      why["egress"] = origin;
    }
    if (!s.deniedReadPaths.empty()) why["deniedReadPaths"] = "built-in credential paths + " + origin;
    for (const auto& p : s.deniedReadPaths) addUnique(out.deniedReadPaths, p);
  }
  // An explicit list may name direct-dedicated; that is the override it allows.
  if (std::find(out.preferredBackends.begin(), out.preferredBackends.end(), BackendId::DirectDedicated) !=
          out.preferredBackends.end() &&
      !out.allowDedicatedDirectOverride) {
    out.allowDedicatedDirectOverride = true;
    why["allowDedicatedDirectOverride"] = why["preferredBackends"] + " lists direct-dedicated";
  }
  return actionsDefault;
}

// The floor's isolation level against the step's. A level no backend of this
// version gives is not the taskpack's to meet (asking for it too would only
// be refused): the step takes it, and negotiation refuses it with a BLOCKER.
void applyFloorIsolation(const HostConfig& host, const Location& where, const std::string& who, EffectiveSandbox& sb,
                         FieldOrigins& why, std::vector<Diagnostic>& problems) {
  const std::optional<Isolation>& floorLevel = host.floor.minIsolation;
  if (!floorLevel || static_cast<int>(sb.minIsolation) >= static_cast<int>(*floorLevel)) return;
  if (!isolationMissing(*floorLevel).empty()) {
    sb.minIsolation = *floorLevel;
    why["isolation"] = "host config floor minIsolation (" + host.file + ")";
    return;
  }
  problems.push_back(
      {where,
       who + "asks for isolation " + std::string(toString(sb.minIsolation)) + ", below the minimum " +
           std::string(toString(*floorLevel)) + " required by the host config floor (" + host.file + ")",
       why["isolation"].starts_with("step ")
           ? "set the step's isolation: " + std::string(toString(*floorLevel)) + " (or higher)"
           : "set spec.isolation: " + std::string(toString(*floorLevel)) + " (or higher) in the taskpack"});
  sb.minIsolation = *floorLevel;  // only reached together with a reported problem
}

// Each entry of the step's egress list must be one the floor's list covers:
// the floor narrows what a taskpack may reach, never widens it.
void applyFloorEgress(const HostConfig& host, const Location& where, const std::string& who, const EffectiveSandbox& sb,
                      std::vector<Diagnostic>& problems) {
  if (!host.floor.egress) return;
  for (const EgressRule& entry : sb.egress) {
    const bool covered = std::any_of(host.floor.egress->begin(), host.floor.egress->end(),
                                     [&](const EgressRule& f) { return egressRuleCovers(f, entry); });
    if (!covered)
      problems.push_back({where,
                          who + "lists egress to " + entry.host + ":" + std::to_string(entry.port) + " (" +
                              entry.origin + "), which the host config floor's egress list does not allow (" +
                              host.file + ")",
                          "remove the entry, or ask the runner admin to add it to floor.egress"});
  }
}

// Checks one step's sandbox against the floor; appends a diagnostic per problem.
void applyFloor(const HostConfig& host, const std::optional<std::string>& profileName, const Location& where,
                const std::string& who, EffectiveSandbox& sb, FieldOrigins& why, std::vector<Diagnostic>& problems) {
  const Floor& floor = host.floor;
  const std::string floorAt = " by the host config floor (" + host.file + ")";
  applyFloorIsolation(host, where, who, sb, why, problems);
  applyFloorEgress(host, where, who, sb, problems);
  sb.egressSettings = host.egress;
  std::vector<Capability> missing;
  for (Capability c : floor.requiredCapabilities)
    if (std::find(sb.requiredCapabilities.begin(), sb.requiredCapabilities.end(), c) == sb.requiredCapabilities.end())
      missing.push_back(c);
  if (!missing.empty())
    problems.push_back({where, who + "does not require " + joinNames(missing) + ", which is required" + floorAt,
                        "add them to requiredCapabilities: [" + joinNames(missing) + "]"});
  bool listsDirect = std::find(sb.preferredBackends.begin(), sb.preferredBackends.end(), BackendId::DirectDedicated) !=
                     sb.preferredBackends.end();
  if (!floor.allowDirectDedicated && listsDirect)
    problems.push_back({where,
                        who + "may run on direct-dedicated (no containment: " + why["preferredBackends"] +
                            "), which is forbidden" + floorAt,
                        "this host is not a dedicated machine: give spec.sandbox with preferredBackends: "
                        "[linux-bwrap, linux-landlock]"});
  if (!floor.allowDirectDedicated) sb.allowDedicatedDirectOverride = false;
  if (profileName) {
    auto it = host.runtimeProfiles.find(*profileName);
    if (it == host.runtimeProfiles.end())
      problems.push_back({where,
                          who + "names runtime profile '" + *profileName + "', which this host does not define" +
                              (host.present ? " in " + host.file : " (no host config)"),
                          "ask the runner admin to pin it under runtimeProfiles in host.yaml"});
    else {
      sb.runtimeProfile = it->second;
      why["runtimeProfile"] = "host config runtimeProfiles." + *profileName;
    }
  }
}

}  // namespace

bool stageMatchesEvent(const Stage& stage, const std::string& eventName, const std::string& action) {
  for (const std::string& on : stage.on) {
    auto dot = on.find('.');
    std::string onEvent = on.substr(0, dot);
    if (onEvent != eventName) continue;
    if (dot == std::string::npos || action.empty() || on.substr(dot + 1) == action) return true;
  }
  return false;
}

Result<EffectiveSandbox> resolveAdHoc(const SandboxSpec& flags, const HostConfig& host, const ResolveContext& context) {
  EffectiveSandbox sb;
  FieldOrigins why;
  for (std::string_view p : kBuiltinDeniedReadPaths)
    if (auto e = expandUserPath(std::string(p), context.homeDir)) addUnique(sb.deniedReadPaths, *e);
  for (std::string_view p : kBuiltinProtectedPaths) sb.protectedPaths.emplace_back(p);
  ResolveContext explicitCtx = context;
  explicitCtx.githubActions = false;  // command-line flags are an explicit policy
  mergeSandbox(flags, std::nullopt, explicitCtx, sb, why);
  std::vector<Diagnostic> problems;
  applyFloor(host, flags.runtimeProfile, flags.location, "this command ", sb, why, problems);
  if (problems.empty()) return sb;
  Error e = makeError(ErrorCode::PolicyFloorViolation, problems.front().message, problems.front().hint, host.file);
  e.diagnostics = std::move(problems);
  return e;
}

namespace {

// The step's sandbox: the built-in denied and protected paths, the
// taskpack's and the step's settings merged, its isolation, then the host's
// floor (a breach is added to `problems`).
void resolveSandbox(const Taskpack& taskpack, const HostConfig& host, const ResolveContext& context, const Stage& stage,
                    const Step& step, EffectiveStep& es, std::vector<Diagnostic>& problems) {
  FieldOrigins& why = es.origins;
  EffectiveSandbox& sb = es.sandbox;
  for (std::string_view p : kBuiltinDeniedReadPaths)
    if (auto e = expandUserPath(std::string(p), context.homeDir)) addUnique(sb.deniedReadPaths, *e);
  why["deniedReadPaths"] = "built-in credential paths";
  for (std::string_view p : kBuiltinProtectedPaths) sb.protectedPaths.emplace_back(p);
  why["protectedPaths"] = "built-in protected paths";
  es.githubActionsDefault = mergeSandbox(taskpack.sandbox, step.sandbox, context, sb, why);

  sb.minIsolation = step.isolation.value_or(taskpack.isolation.value_or(Isolation::L1));
  why["isolation"] = step.isolation       ? "step isolation" + at(step.isolationLocation)
                     : taskpack.isolation ? "taskpack spec.isolation" + at(taskpack.isolationLocation)
                                          : "default L1";
  applyBuiltinSandboxDefaults(step, sb, why);

  std::optional<std::string> profile = step.sandbox && step.sandbox->runtimeProfile ? step.sandbox->runtimeProfile
                                       : taskpack.sandbox                           ? taskpack.sandbox->runtimeProfile
                                                                                    : std::nullopt;
  std::string who = "stage '" + stage.name + "' step '" + step.name + "' ";
  applyFloor(host, profile, step.location, who, sb, why, problems);
}

// spec.limits with the step's overrides, and the resource limits of both.
void resolveLimits(const Taskpack& taskpack, const Step& step, EffectiveStep& es) {
  FieldOrigins& why = es.origins;
  es.limits = taskpack.limits;
  const LimitsOverride& lo = step.limits;
  if (lo.wallTimeMs) es.limits.wallTimeMs = *lo.wallTimeMs;
  if (lo.maxModelCalls) es.limits.maxModelCalls = *lo.maxModelCalls;
  if (lo.maxToolCalls) es.limits.maxToolCalls = *lo.maxToolCalls;
  if (lo.maxOutputBytes) es.limits.maxOutputBytes = *lo.maxOutputBytes;
  why["limits"] = lo.wallTimeMs || lo.maxModelCalls || lo.maxToolCalls || lo.maxOutputBytes
                      ? "spec.limits with the step's overrides"
                      : "spec.limits";
  for (ResourceLimit r : kAllResourceLimits) why["limits." + std::string(keyOf(r))] = "default";
  applyResourceLimits(taskpack.resourceLimits, "taskpack spec.limits" + at(taskpack.resourceLimits.location),
                      es.resources, why);
  applyResourceLimits(lo.resources, "step limits override" + at(lo.resources.location), es.resources, why);
}

// The step's lane, or the only lane for a step that calls the model.
void resolveLane(const Taskpack& taskpack, const Step& step, EffectiveStep& es) {
  es.lane = step.lane;
  bool usesModel = std::find(step.tools.begin(), step.tools.end(), tools::kModelComplete) != step.tools.end();
  if (!es.lane && usesModel && taskpack.lanes.size() == 1) {
    es.lane = taskpack.lanes.front().name;
    es.origins["lane"] = "the only lane in spec.lanes";
  } else if (es.lane) {
    es.origins["lane"] = "step lane";
  }
}

}  // namespace

Result<std::vector<EffectiveStep>> resolvePolicies(const Taskpack& taskpack, const HostConfig& host,
                                                   const ResolveContext& context) {
  std::vector<EffectiveStep> out;
  std::vector<Diagnostic> problems;
  for (const Stage& stage : taskpack.stages) {
    for (const Step& step : stage.steps) {
      EffectiveStep es;
      es.stage = stage.name;
      es.step = step.name;
      es.role = step.role;
      es.tools = step.tools;
      es.guardrails = taskpack.guardrails;
      es.idempotent = step.idempotent;
      es.escalate = step.escalate;
      resolveSandbox(taskpack, host, context, stage, step, es, problems);
      resolveLimits(taskpack, step, es);
      resolveLane(taskpack, step, es);
      out.push_back(std::move(es));
    }
  }
  if (problems.empty()) return out;
  Error e = makeError(ErrorCode::PolicyFloorViolation,
                      std::to_string(problems.size()) + (problems.size() == 1 ? " step asks" : " requests ask") +
                          " for less than this host's floor",
                      "a taskpack may ask for more isolation than the floor, never less", host.file);
  e.diagnostics = std::move(problems);
  return e;
}

}  // namespace lw
