// Whether the POSIX launcher's tree cleanup holds on this host, observed:
// a step that leaves a setsid, double-forked daemon behind (loopwright's own
// `qualify --canary daemon`, host/canary_program.h) must find it dead once
// the step has ended. Where forks are not reported (Linux), the daemon's
// short-lived middle process is seldom seen, and the canary says so.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace lw::sandbox::process::posix {

// nullopt when the daemon died with the step; otherwise what happened, in
// words for a probe report. `loopwright` is the executable that runs the
// canary; `scratch` a directory it may create and remove.
std::optional<std::string> daemonSurvivesCleanup(const std::filesystem::path& loopwright,
                                                 const std::filesystem::path& scratch);

}  // namespace lw::sandbox::process::posix
