// Runs the configured linter (argv, no shell) in the workspace and captures
// what it prints: stdout bounded, stderr copied to the step's log with its
// tail kept for a failure message. builtin/lint is already inside the step's
// sandbox, so the linter runs with the step's own confinement.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::agents::lint {

struct LinterRun {
  int exitCode = 0;
  std::string output;            // stdout, at most the bound given
  bool outputTruncated = false;  // stdout was longer (the rest was read and dropped)
  std::string stderrTail;        // the last kStderrTail bytes of stderr
};

constexpr std::size_t kStderrTail = 4096;

// TASKPACK_INVALID when argv is empty or argv[0] is not found (a name is
// searched in PATH, a path with '/' is taken relative to `dir`);
// SANDBOX_LAUNCH_FAILED when it cannot be started. A non-zero exit is a
// result, not an error: linters exit 1 when they find something.
Result<LinterRun> runLinter(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                            std::size_t maxOutput, std::ostream& log);

}  // namespace lw::agents::lint
