// The first stage of the check: what changed against the baseline, with the
// facts the decision needs that only the file system can tell (where a new
// symlink leads, what a CMakeLists.txt uses, where declared paths resolve).
// Reads the repository; changes nothing.
#pragma once

#include "core/result.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"
#include "verify/check/check_decision.h"

namespace lw::verify {

// Fails with IO_ERROR when the repository cannot be walked, or when the
// policy names its own quarantine refs and the refs cannot be read.
Result<Observation> observeChanges(const Baseline& baseline, const CheckPolicy& policy);

}  // namespace lw::verify
