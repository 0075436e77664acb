// The task contract's validate run (docs/taskpack.md, "Task contract"): the
// `validate:` argv, run after the author step in a sandbox of its own, on the
// author's worktree. Planned purely from the step's plan (the same backend
// and policy, network none, no bridge, the worktree writable for a build,
// its own out dir and logs under <stepDir>/validate/), then launched.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/run/run_record.h"
#include "pipeline/step/step_plan.h"
#include "sandbox/backend.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::pipeline {

// <stepDir>/validate: its LOOPWRIGHT_OUT and its two logs.
struct ValidateLayout {
  std::filesystem::path dir;
  std::filesystem::path outDir;
  std::filesystem::path stdoutLog;
  std::filesystem::path stderrLog;
};
ValidateLayout validateLayout(const std::filesystem::path& stepDir);

// The validate command's StepSpec from the author step's: its workspace
// (the worktree) writable whole, protected paths and the read-only host
// paths (the checkout's git directory, for git inside) as the step's,
// network none, no bridge descriptor or variable, its own out dir as
// LOOPWRIGHT_OUT and HOME; limits, image and the rest as the step's. The
// patch was captured before: what validate writes is never published, and
// the worktree is removed without reading anything it left.
sandbox::StepSpec planValidate(const StepPlan& step, const std::vector<std::string>& argv);

// Launches `spec` with `backend` and waits at most `wallTimeMs`; the logs
// are masked with `scanner` and written to `layout`. Passed only on exit 0
// within time. A launch that fails is a failed run whose `error` says why.
ValidationRun runValidation(sandbox::Backend& backend, const sandbox::StepSpec& spec, const ValidateLayout& layout,
                            std::int64_t wallTimeMs, const verify::SecretScanner& scanner);

}  // namespace lw::pipeline
