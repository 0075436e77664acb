// The check after a step: what changed against the baseline, which changes
// the step's role allows, and — when asked — quarantine and restore.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"
#include "core/result.h"
#include "policy/model/vocabulary.h"
#include "verify/baseline/baseline.h"
#include "verify/baseline/change.h"

namespace lw::verify {

struct CheckPolicy {
  Role role = Role::Reviewer;
  // Author only: workspace-relative globs the step may write (empty: none).
  std::vector<std::string> writableGlobs;
  // Added to builtinProtectedGlobs().
  std::vector<std::string> protectedGlobs;
  // Author only: paths the step says it wrote, as it gave them (absolute or
  // relative to `cwd`); each is resolved and held to the same policy.
  std::vector<std::string> declaredPaths;
  std::string cwd;  // the step's working directory; empty = the repository
  std::string runId, stepName;
  // Quarantine refs (name -> commit) written by earlier checks against the
  // same baseline: loopwright's, not the step's, as long as each still
  // points where it was written.
  std::map<std::string, std::string> ownQuarantines;
  // Reviewer/triage: quarantine and restore everything when anything changed.
  // Author: quarantine and restore the violating changes only.
  bool restore = false;
};

struct CheckReport {
  std::vector<Change> changes;
  std::vector<Change> declared;        // author: violating declared paths (path as given)
  std::optional<ErrorCode> violation;  // the first violation's code
  std::size_t violations = 0;
  std::string quarantineRef;  // set when something was quarantined
  std::string quarantineCommit;
  bool restored = false;  // every selected change was restored
  std::vector<std::string> restoreFailures;
  std::vector<std::string> notes;
  // Dependency manifest changes, as notice-level findings for publication.
  std::vector<Finding> findings;

  bool ok() const { return !violation.has_value(); }
};

// What verification concluded for a step, as the run record carries it;
// spelled out only at the JSON and text boundary (toString).
enum class Verification : std::uint8_t {
  NotRun,     // no check ran (the step failed first, or the check could not read the repository)
  Passed,     // no violation
  Violation,  // the report has a violation
};
// "not-run", "passed", "violation": the run record's verification.result.
std::string_view toString(Verification v);
// Passed or Violation, as the report says.
Verification verificationOf(const CheckReport& report);

// Compares the repository with `baseline` and applies `policy`. Fails only
// when the repository cannot be read at all (IO_ERROR); violations are in
// the report, not an Error.
Result<CheckReport> check(const Baseline& baseline, const CheckPolicy& policy);

// The report as JSON: {ok, violation, changes:[{path, kind, category, area,
// resolved, given, detail, violation, reason, restorable, restored,
// dependency}], quarantine, restored, restoreFailures, notes}.
boost::json::value toJson(const CheckReport& report, const Baseline& baseline);

// The Error a caller returns for a failed report (its first violation's code,
// the number of violations, where the changes were kept).
Error toError(const CheckReport& report);

}  // namespace lw::verify
