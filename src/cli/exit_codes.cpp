#include "cli/exit_codes.h"

namespace lw::cli {

int exitCodeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::UsageError:
    case ErrorCode::TaskpackInvalid:
    case ErrorCode::HostConfigInvalid:
    case ErrorCode::EventInvalid:
    case ErrorCode::EvalCaseInvalid:
    case ErrorCode::PolicyFloorViolation:
    case ErrorCode::IoError: return kExitConfig;
    case ErrorCode::SandboxBackendUnavailable:
    case ErrorCode::SandboxCapabilityInsufficient:
    case ErrorCode::SandboxLaunchFailed:
    case ErrorCode::IsolationUnavailable: return kExitSandbox;
    case ErrorCode::LoopDetected:
    case ErrorCode::BreakerOpen:
    case ErrorCode::BudgetExceeded: return kExitGuardrail;
    case ErrorCode::ReadOnlyViolation:
    case ErrorCode::PathPolicyViolation:
    case ErrorCode::SecretLeak:
    case ErrorCode::OutputInvalid:
    case ErrorCode::ContractUnmet: return kExitVerification;
    case ErrorCode::PublicationFailed: return kExitPublication;
    case ErrorCode::LeaseUnavailable:
    case ErrorCode::LeaseLost: return kExitLease;
    case ErrorCode::EvalRegression: return kExitEvalRegression;
    case ErrorCode::Internal: return kExitInternal;
  }
  return kExitInternal;
}

int exitStatusFor(const github::Verdict& verdict) {
  switch (verdict.worst) {
    case github::FailureKind::None: return kExitOk;
    case github::FailureKind::Failed: return kExitFindings;
    case github::FailureKind::Refused: return kExitSandbox;
    case github::FailureKind::Guardrail: return kExitGuardrail;
    case github::FailureKind::Verification: return kExitVerification;
  }
  return kExitInternal;
}

}  // namespace lw::cli
