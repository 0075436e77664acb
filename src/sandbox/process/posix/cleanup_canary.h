// Whether the POSIX launcher's tree cleanup holds on this host, observed:
// a step that leaves the hardest daemon the launcher claims to end behind
// (loopwright's own `qualify --canary daemon`, host/canary_program.h: its
// middle process calls setsid, forks and exits at once, the daemon calls
// setsid again and runs loopwright anew) must find it dead once the step has
// ended.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace lw::sandbox::process::posix {

// What a backend on the POSIX launcher reports of processTreeCleanup: once
// the canary saw its daemon die (enforced), and what it still does when the
// canary did not (partial, followed by the canary's words).
inline constexpr const char* kCleanupSeenToHold =
    "descendants followed by the mark they inherit (LOOPWRIGHT_TREE), their parents, sessions and groups, "
    "and killed when the step ends; a canary's setsid, double-forked daemon, its middle process gone at "
    "once, was seen to die (not a process that drops the mark and leaves the session between two looks, "
    "nor when loopwright itself is killed: no supervisor outlives it)";
inline constexpr const char* kCleanupWithoutCanary =
    "the step's session and groups, the processes seen in its tree and those carrying its mark are killed "
    "when it ends; ";

// nullopt when the daemon died with the step; otherwise what happened, in
// words for a probe report. `loopwright` is the executable that runs the
// canary; `scratch` a directory it may create and remove.
std::optional<std::string> daemonSurvivesCleanup(const std::filesystem::path& loopwright,
                                                 const std::filesystem::path& scratch);

}  // namespace lw::sandbox::process::posix
