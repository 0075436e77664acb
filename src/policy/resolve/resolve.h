// Effective-policy resolution (README, "What a step gets when spec.sandbox is
// omitted" and "Host config"): per step, defaults, then spec.sandbox, then
// the step's override, checked against the admin's floor.
// Pure: the environment and the host config come in as values.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "policy/model/effective_policy.h"
#include "policy/model/host_config.h"
#include "policy/model/taskpack.h"

namespace lw {

struct ResolveContext {
  bool githubActions = false;  // GITHUB_ACTIONS=true
  std::string homeDir;         // for the built-in credential paths
};

// The backends an omitted policy negotiates over, fail-closed; linux-gvisor
// last, so that a step asking for L3 finds it and no L1 step pays its start.
inline constexpr std::array kDefaultBackendOrder = {BackendId::MacosSeatbelt, BackendId::LinuxBwrap,
                                                    BackendId::LinuxLandlock, BackendId::LinuxGvisor};

// Every step of every stage, in order. Fails with POLICY_FLOOR_VIOLATION
// (one diagnostic per offending step and field, never a silent change) when
// a step asks for less than the floor, or names a runtime profile the host
// does not define.
Result<std::vector<EffectiveStep>> resolvePolicies(const Taskpack& taskpack, const HostConfig& host,
                                                   const ResolveContext& context);

// The policy for `loopwright sandbox exec`: the flags act as an explicit
// spec.sandbox of a single step, checked against the same floor.
Result<EffectiveSandbox> resolveAdHoc(const SandboxSpec& flags, const HostConfig& host, const ResolveContext& context);

// True when a stage's `on:` list matches an event ("pull_request") and its
// action ("opened"; empty when the event has none or it is unknown).
bool stageMatchesEvent(const Stage& stage, const std::string& eventName, const std::string& action);

}  // namespace lw
