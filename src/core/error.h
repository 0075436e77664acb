// Error vocabulary shared by every module. Codes are stable strings that users
// and scripts match on; only cli/ maps them to exit statuses and text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lw {

enum class ErrorCode {
  UsageError,
  TaskpackInvalid,
  HostConfigInvalid,
  EventInvalid,
  PolicyFloorViolation,
  SandboxBackendUnavailable,
  SandboxCapabilityInsufficient,
  SandboxLaunchFailed,
  IsolationUnavailable,
  LoopDetected,
  BreakerOpen,
  BudgetExceeded,
  ReadOnlyViolation,
  PathPolicyViolation,
  SecretLeak,
  ContractUnmet,
  OutputInvalid,
  PublicationFailed,
  LeaseUnavailable,
  LeaseLost,
  EvalCaseInvalid,
  EvalRegression,
  IoError,
  Internal,
};

// The stable name printed as error[NAME] and in --json ("TASKPACK_INVALID").
std::string_view codeName(ErrorCode code);

// Where a problem is: a file and a 1-based line/column (0 = unknown), plus
// the YAML/JSON path of the node ("spec.stages[0].steps[1].role").
struct Location {
  std::string file;
  int line = 0;
  int column = 0;
  std::string path;

  bool known() const { return !file.empty() || line > 0 || !path.empty(); }
  // "file:line:col" with the parts that are known.
  std::string toString() const;
};

// One problem found while validating; an Error may carry many so that a user
// fixes them all in one pass.
struct Diagnostic {
  Location location;
  std::string message;
  std::string hint;
};

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string subject;  // what was wrong: a file, a step, a backend
  std::string hint;
  std::optional<Location> location;
  std::vector<Diagnostic> diagnostics;
};

Error makeError(ErrorCode code, std::string message, std::string hint = {}, std::string subject = {});

}  // namespace lw
