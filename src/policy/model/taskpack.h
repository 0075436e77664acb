// The taskpack as written by a repository maintainer (.loopwright/taskpack.yaml).
// Optional fields stay std::nullopt when omitted: resolution (resolve.h) needs
// to know "omitted" apart from "set to the default" (docs/taskpack.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "core/error.h"
#include "policy/model/egress_rule.h"
#include "policy/model/escalation_rule.h"
#include "policy/model/resource_limits.h"
#include "policy/model/vocabulary.h"

namespace lw {

inline constexpr std::size_t kTaskpackMaxBytes = 64 * 1024;
inline constexpr std::string_view kTaskpackApiVersion = "loopwright.dev/v1alpha1";

struct SandboxSpec {
  std::optional<std::vector<BackendId>> preferredBackends;  // 1..7 unique (kAllBackends)
  std::optional<NetworkMode> networkMode;
  std::optional<std::vector<Capability>> requiredCapabilities;  // 0..6 unique
  std::vector<std::string> deniedReadPaths;                     // 0..64, additive, "~/" expanded
  std::optional<std::string> runtimeProfile;                    // host-pinned container image; the only way to docker
  std::optional<std::vector<EgressRule>> egress;                // with networkMode allow-list only
  Location location;                                            // of the `sandbox:` mapping
};

struct LoopGuardrail {
  int warnRepeats = 3;
  int stopRepeats = 5;
  int windowSeconds = 60;
  int suspiciousCallsPerTool = 30;
  int maxCallsPerTool = 50;
};

struct BreakerGuardrail {
  int failures = 5;
  int windowSeconds = 60;
  int cooldownSeconds = 30;
  int escalateAfterCycles = 2;
};

struct Guardrails {
  LoopGuardrail loop;
  BreakerGuardrail breaker;
};

struct Limits {
  std::int64_t wallTimeMs = 3'600'000;
  std::int64_t maxModelCalls = 256;
  std::int64_t maxToolCalls = 1000;
  std::int64_t maxOutputBytes = 1'048'576;
};

// Per-step limits: each omitted field falls back to spec.limits.
struct LimitsOverride {
  std::optional<std::int64_t> wallTimeMs;
  std::optional<std::int64_t> maxModelCalls;
  std::optional<std::int64_t> maxToolCalls;
  std::optional<std::int64_t> maxOutputBytes;
  ResourceLimitsOverride resources;  // pids, memory, fileSize, … (resource_limits.h)
};

enum class LaneApi { OpenAiChat, AnthropicMessages };

// A model's prices: providers charge input (prompt) and output
// (completion) tokens differently. A lane's old single `pricePerMTok` is
// both.
struct TokenPrices {
  double inputPerMTok = 0;
  double outputPerMTok = 0;
};

struct Lane {
  std::string name;
  LaneApi api = LaneApi::OpenAiChat;
  std::string baseUrl;
  std::string model;
  std::string apiKeyEnv;  // the orchestrator reads it; never passed to a step
  std::optional<std::string> fallbackLane;
  std::int64_t timeoutMs = 120'000;
  // US dollars per million input and output tokens: what `loopwright eval`
  // estimates cost from; nullopt when the lane has no price.
  std::optional<TokenPrices> prices;
  Location location;
};

// What an author step promises before it is dispatched (docs/taskpack.md,
// "Task contract"): the paths it should change, a command its change must
// pass, the largest change it may make, the git rule files it may touch,
// and what to do when it stops. Every field empty or nullopt: no contract.
struct TaskContract {
  std::vector<std::string> expects;   // globs; each must match a changed path
  std::vector<std::string> validate;  // argv run on the author's worktree after the step
  std::optional<std::int64_t> maxChangedFiles;
  std::optional<std::int64_t> maxChangedLines;  // added + deleted
  // Binary files' sizes before and after the change, summed. Unset with
  // maxChangedLines set: no binary file at all.
  std::optional<std::int64_t> maxBinaryBytes;
  std::vector<std::string> gitRuleFiles;  // exact .gitattributes/.gitignore paths it may change
  std::optional<std::string> onStop;      // the BLOCKER's next action for this step
  Location location;                      // of the first contract key
  bool declared() const {
    return !expects.empty() || !validate.empty() || maxChangedFiles || maxChangedLines || maxBinaryBytes ||
           !gitRuleFiles.empty() || onStop;
  }
  // The bound on binary bytes: maxBinaryBytes, else 0 when the contract
  // bounds lines (a binary file would carry lines it does not count), else none.
  std::optional<std::int64_t> binaryBytesBound() const {
    if (maxBinaryBytes || !maxChangedLines) return maxBinaryBytes;
    return 0;
  }
};

struct Step {
  std::string name;                 // [a-z0-9-], unique within its stage
  std::vector<std::string> run;     // argv; exactly one of run / uses
  std::optional<std::string> uses;  // "builtin/<name>"
  // A built-in step's `with:` as written, and every parameter of the
  // built-in with its value (`with:` over the catalogue's defaults), both
  // checked against policy/builtin/builtin_catalog.h. Empty for a `run:` step.
  boost::json::object with;
  boost::json::object params;
  Role role = Role::Reviewer;
  std::vector<std::string> tools;  // bridge tools granted to this step only
  std::optional<std::string> lane;
  std::optional<SandboxSpec> sandbox;  // per-step override
  LimitsOverride limits;
  bool idempotent = false;
  // Overrides spec.isolation for this step (never below the host floor).
  std::optional<Isolation> isolation;
  Location isolationLocation;
  std::optional<EscalateSpec> escalate;  // a re-run at a higher level (escalation_rule.h)
  std::vector<std::string> writable;     // author scope (globs relative to the workspace)
  TaskContract contract;                 // author steps only
  Location location;
};

struct Stage {
  std::string name;
  std::vector<std::string> on;     // "pull_request.opened", "workflow_dispatch", …
  std::vector<std::string> needs;  // earlier stages that must have succeeded
  std::vector<Step> steps;
  Location location;
};

enum class ReviewMode { None, Comment, RequestChanges };
enum class FailOn { Error, Warning, Never };

// How an author step's accepted change is published (docs/taskpack.md,
// publication.patches): review suggestions (the rest as a patch in the review
// body), a commit on a branch loopwright/<run>/<step>, or not at all.
enum class PatchPublication { Suggestions, Branch, None };

struct Publication {
  ReviewMode review = ReviewMode::Comment;
  bool checks = true;
  bool summary = true;
  FailOn failOn = FailOn::Error;
  int maxInlineComments = 50;
  PatchPublication patches = PatchPublication::Suggestions;
};

struct Taskpack {
  std::string file;  // where it was loaded from, for messages
  std::string name;
  std::optional<SandboxSpec> sandbox;  // spec.sandbox; nullopt = omitted
  std::optional<Isolation> isolation;
  Location isolationLocation;
  Guardrails guardrails;
  Limits limits;
  ResourceLimitsOverride resourceLimits;  // the OS limits spec.limits wrote
  std::optional<int> maxConcurrency;
  std::vector<Lane> lanes;
  std::vector<Stage> stages;
  Publication publication;
};

std::string_view toString(LaneApi a);
std::string_view toString(ReviewMode m);
std::string_view toString(FailOn f);
std::string_view toString(PatchPublication p);

// The value a name (as toString spells it) stands for; nullopt for any other
// name. What the taskpack loader and the outbox's JSON both read.
std::optional<ReviewMode> reviewModeNamed(std::string_view name);
std::optional<FailOn> failOnNamed(std::string_view name);
std::optional<PatchPublication> patchPublicationNamed(std::string_view name);

}  // namespace lw
