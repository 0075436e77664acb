// The policy one step actually runs under, after defaults, the taskpack,
// the step override and the host floor are merged (resolve.h). Each field
// records the rule that produced it, for `loopwright explain`.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/model/host_config.h"
#include "policy/model/taskpack.h"
#include "policy/model/vocabulary.h"

namespace lw {

// Paths inside the workspace that stay read-only for every role. `.git`:
// git runs its config and hooks on the host (verification catches a change
// under any git directory afterwards; this stops it at the source).
inline constexpr std::array<std::string_view, 5> kBuiltinProtectedPaths = {".git", ".github", ".loopwright/policies",
                                                                           "AGENTS.md", "CLAUDE.md"};

// Host credential paths no step may read ("~/" expanded at resolution).
inline constexpr std::array<std::string_view, 9> kBuiltinDeniedReadPaths = {
    "~/.ssh",   "~/.aws",   "~/.config/gh",       "~/.docker",       "~/.kube",
    "~/.gnupg", "~/.netrc", "~/.git-credentials", "~/.config/gcloud"};

struct EffectiveSandbox {
  std::vector<BackendId> preferredBackends;  // probed in this order
  NetworkMode networkMode = NetworkMode::None;
  std::vector<Capability> requiredCapabilities;
  std::vector<std::string> deniedReadPaths;      // absolute, built-ins included
  std::vector<std::string> protectedPaths;       // workspace-relative, built-ins included
  Isolation minIsolation = Isolation::L1;        // a backend below it is refused
  bool allowDedicatedDirectOverride = false;     // direct-dedicated may be chosen
  std::optional<RuntimeProfile> runtimeProfile;  // set: docker may run this image
  std::vector<EgressRule> egress;                // networkMode allow-list: where the step may connect
  EgressSettings egressSettings;                 // the host config's egress: section
};

// Field name ("networkMode") -> the rule that set it ("taskpack spec.sandbox (line 7)").
using FieldOrigins = std::map<std::string, std::string>;

struct EffectiveStep {
  std::string stage;
  std::string step;
  Role role = Role::Reviewer;
  EffectiveSandbox sandbox;
  Limits limits;
  ResourceLimits resources;  // origins keyed "limits.<key>"
  Guardrails guardrails;
  std::vector<std::string> tools;
  std::optional<std::string> lane;
  FieldOrigins origins;
  bool githubActionsDefault = false;     // its sandbox is GitHub Actions' default (direct-dedicated)
  bool idempotent = false;               // may be run again (a reroute, an escalation)
  std::optional<EscalateSpec> escalate;  // the step's escalate:, as written
};

}  // namespace lw
