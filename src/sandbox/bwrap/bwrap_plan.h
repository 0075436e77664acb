// The pure bubblewrap planner: a step and the facts of this host (what kind
// of thing each path is) in, the bwrap argv out. No system call happens
// here, so the containment order is tested as data on any machine.
//
// Order of the view (later mounts cover earlier ones):
//   1. system dirs read-only, the allow-listed /etc entries (system_paths.h)
//      copied (files) or bound read-only (directories), fresh /proc, /dev, /tmp
//   2. the workspace (read-write only for the author role), writable paths, the out dir
//   3. parents of protected symlinks re-bound read-only (the entry itself
//      cannot carry a mount), then the writable paths below them again
//   4. ancestors of protected paths inside writable trees bound onto
//      themselves, so that they are mount points and cannot be renamed away
//   5. protected paths read-only; a missing one gets a read-only empty tmpfs
//      at its first missing component, so the step cannot create it
//   6. masks: deniedReadPaths, and host secrets in /etc where a read-only
//      path brought /etc into the view
//   7. the root (bwrap's tmpfs holding the mount points) remounted read-only
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/backend.h"

namespace lw::sandbox::bwrap {

enum class PathKind { Missing, Directory, File, Symlink, Other };

struct PathInfo {
  PathKind kind = PathKind::Missing;
  std::string linkTarget;  // for a symlink
  // What the path leads to with symlinks followed (Missing when dangling),
  // and whether others — not the owner, not the group — may read it (r for
  // a file, r-x for a directory). Only the /etc allow-list asks.
  PathKind resolvedKind = PathKind::Missing;
  bool othersMayRead = false;
};

// lstat() of a host path (stat() too for a symlink); tests pass a table.
using PathLookup = std::function<PathInfo(const std::filesystem::path&)>;

// Host secrets masked when something in the view shows them (only a
// read-only path naming /etc or a parent does: the system view itself binds
// an allow-list of /etc, see system_paths.h).
inline constexpr const char* kSystemSecrets[] = {"/etc/shadow",      "/etc/gshadow",          "/etc/shadow-",
                                                 "/etc/gshadow-",    "/etc/sudoers",          "/etc/sudoers.d",
                                                 "/etc/ssh",         "/etc/security/opasswd", "/etc/loopwright",
                                                 "/etc/ssl/private", "/etc/pki/tls/private",  "/etc/docker"};

struct BwrapOptions {
  std::string bwrapPath = "/usr/bin/bwrap";
  std::optional<int> seccompFd;  // the descriptor number bwrap will see
  int firstCopyFd = 5;           // the number of the first of BwrapPlan::copiedFiles
};

struct BwrapPlan {
  std::vector<std::string> argv;  // bwrap, its options, "--", the step's argv
  // Mount points bwrap creates on the host for missing protected paths;
  // the launcher removes them (if still empty) after the step.
  std::vector<std::filesystem::path> placeholders;
  // The /etc files bwrap copies into its root (--file): the launcher opens
  // them, in this order, as descriptors firstCopyFd, firstCopyFd + 1, …
  std::vector<std::filesystem::path> copiedFiles;
  // Where the view is stricter than asked, and why (for reports).
  std::vector<std::string> notes;
};

// Fails with SANDBOX_LAUNCH_FAILED when the step cannot be planned safely:
// a relative or missing workspace, a missing writable path, a denied path
// that is a symlink inside the view.
Result<BwrapPlan> planBwrap(const StepSpec& spec, const BwrapOptions& options, const PathLookup& lookup);

// The real lookup: lstat() and readlink().
PathInfo lstatPath(const std::filesystem::path& path);

}  // namespace lw::sandbox::bwrap
