// Exit statuses (docs/architecture.md, "Exit statuses"); only cli/ turns
// error codes and a run's verdict into them.
#pragma once

#include "core/error.h"
#include "github/publish/conclusion.h"

namespace lw::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitConfig = 2;
inline constexpr int kExitSandbox = 3;
inline constexpr int kExitGuardrail = 4;
inline constexpr int kExitVerification = 5;
inline constexpr int kExitPublication = 6;
inline constexpr int kExitLease = 7;
// `loopwright eval --baseline`: precision or recall fell beyond the threshold.
inline constexpr int kExitEvalRegression = 8;
inline constexpr int kExitInternal = 70;

// The status of a command that failed with `code`.
int exitCodeFor(ErrorCode code);

// The status of a run that completed: 0 for a success or a neutral verdict,
// else that of its worst failure (5 verification, 4 guardrail, 3 refused,
// 1 findings, failed steps or an incomplete review).
int exitStatusFor(const github::Verdict& verdict);

}  // namespace lw::cli
