#include "core/error.h"

namespace lw {

std::string_view codeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::UsageError: return "USAGE_ERROR";
    case ErrorCode::TaskpackInvalid: return "TASKPACK_INVALID";
    case ErrorCode::HostConfigInvalid: return "HOST_CONFIG_INVALID";
    case ErrorCode::EventInvalid: return "EVENT_INVALID";
    case ErrorCode::PolicyFloorViolation: return "POLICY_FLOOR_VIOLATION";
    case ErrorCode::SandboxBackendUnavailable: return "SANDBOX_BACKEND_UNAVAILABLE";
    case ErrorCode::SandboxCapabilityInsufficient: return "SANDBOX_CAPABILITY_INSUFFICIENT";
    case ErrorCode::SandboxLaunchFailed: return "SANDBOX_LAUNCH_FAILED";
    case ErrorCode::IsolationUnavailable: return "ISOLATION_UNAVAILABLE";
    case ErrorCode::LoopDetected: return "LOOP_DETECTED";
    case ErrorCode::BreakerOpen: return "BREAKER_OPEN";
    case ErrorCode::BudgetExceeded: return "BUDGET_EXCEEDED";
    case ErrorCode::ReadOnlyViolation: return "READ_ONLY_VIOLATION";
    case ErrorCode::PathPolicyViolation: return "PATH_POLICY_VIOLATION";
    case ErrorCode::SecretLeak: return "SECRET_LEAK";
    case ErrorCode::ContractUnmet: return "CONTRACT_UNMET";
    case ErrorCode::OutputInvalid: return "OUTPUT_INVALID";
    case ErrorCode::PublicationFailed: return "PUBLICATION_FAILED";
    case ErrorCode::LeaseUnavailable: return "LEASE_UNAVAILABLE";
    case ErrorCode::LeaseLost: return "LEASE_LOST";
    case ErrorCode::EvalCaseInvalid: return "EVAL_CASE_INVALID";
    case ErrorCode::EvalRegression: return "EVAL_REGRESSION";
    case ErrorCode::IoError: return "IO_ERROR";
    case ErrorCode::Internal: return "INTERNAL_ERROR";
  }
  return "INTERNAL_ERROR";
}

std::string Location::toString() const {
  std::string out = file;
  if (line > 0) {
    out += (out.empty() ? "" : ":") + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  return out;
}

Error makeError(ErrorCode code, std::string message, std::string hint, std::string subject) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.hint = std::move(hint);
  e.subject = std::move(subject);
  return e;
}

}  // namespace lw
