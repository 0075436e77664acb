// The pure part of the check: what the step changed (with the few facts only
// the file system can tell, read beforehand) and the step's policy -> a
// verdict and a remedy for every change. No disk, no git: unit-tested in
// tests/verify/check/check_decision_test.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "verify/baseline/change.h"
#include "verify/check/check.h"
#include "verify/check/path_resolve.h"

namespace lw::verify {

// One change with what the decision needs to know about it from the disk.
struct ObservedChange {
  Change change;
  // Author steps: where the symlink the change leaves resolves to (nullopt
  // when the change leaves no symlink, or the step is not an author).
  std::optional<Result<ResolvedPath>> linkTarget;
  // A CMakeLists.txt that uses FetchContent now (a dependency manifest then).
  bool mentionsFetchContent = false;
};

// A path an author step says it wrote, resolved against the workspace.
struct DeclaredPath {
  std::string given;
  Result<ResolvedPath> resolved;
};

// What detection found: the changes (the policy's own quarantine refs
// already settled), the declared paths, and what could not be compared.
struct Observation {
  std::vector<ObservedChange> changes;
  std::vector<DeclaredPath> declared;
  std::vector<std::string> notes;
};

// Why a change is refused; no violation when it is allowed.
struct Verdict {
  std::optional<ErrorCode> violation;
  std::string reason;
};

// The verdict on one change for a step of `policy.role`: reviewer and triage
// steps may change nothing (a benign index refresh aside); an author may
// change its writable scope only, never a git directory, a hook or a
// protected path, nor leave a symlink that leads out of it.
Verdict verdictFor(const ObservedChange& observed, const CheckPolicy& policy);

// The verdict on a declared path (author steps).
Verdict verdictFor(const DeclaredPath& declared, const CheckPolicy& policy);

// What the check does about one change once a restore is due.
Remedy remedyFor(const Change& change, const CheckPolicy& policy);

// True when the check quarantines and restores: asked for, and something
// violates the policy.
bool remedyDue(const CheckPolicy& policy, const CheckReport& report);

// The whole decision: every change and declared path judged, the first
// violation and the count, dependency findings, and each change's remedy
// (Remedy::None throughout when no remedy is due).
CheckReport decide(Observation observation, const CheckPolicy& policy);

}  // namespace lw::verify
