// Exit statuses of DESIGN.md §11; only cli/ turns error codes into them.
#pragma once

#include "core/error.h"

namespace lw::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitConfig = 2;
inline constexpr int kExitSandbox = 3;
inline constexpr int kExitGuardrail = 4;
inline constexpr int kExitVerification = 5;
inline constexpr int kExitPublication = 6;
inline constexpr int kExitInternal = 70;

int exitCodeFor(ErrorCode code);

}  // namespace lw::cli
