// The linux-landlock plan: StepSpec + what this host offers -> the Landlock
// ruleset, the namespaces to enter and the seccomp options. Pure (paths are
// canonicalized by the caller-supplied resolver), table-tested without root.
// Fails closed: a policy the kernel cannot enforce is an error, never a
// weaker sandbox.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/backend.h"
#include "sandbox/landlock/landlock_abi.h"
#include "sandbox/seccomp/seccomp_policy.h"

namespace lw::sandbox::landlock {

// Observed on this host by the probe.
struct ConfinementFacts {
  int abi = 0;              // Landlock ABI, 0 = none
  bool namespaces = false;  // a user namespace (with net, pid, IPC) can be entered
  // The orchestrator holds CAP_SETPCAP (root): the step can empty its own
  // capability bounding set. Without it, a user namespace is what allows that.
  bool holdsSetpcap = false;
  // The orchestrator holds CAP_SYS_ADMIN (root): namespaces need no user
  // namespace.
  bool holdsSysAdmin = false;
  // A pid and a mount namespace with a fresh /proc and read-only remounts
  // were observed working (private_view.h).
  bool privateView = false;
};

struct PathRule {
  std::string path;          // canonical host path
  std::uint64_t access = 0;  // on a non-directory only access & kFsFileRights apply
  bool required = false;     // workspace / out dir / writable paths must exist
};

struct Plan {
  int abi = 0;
  RulesetAttr handled;          // rights Landlock denies unless a rule grants them
  std::vector<PathRule> paths;  // sorted by path, one rule per path
  // New namespaces only where Landlock and seccomp cannot do the job: each
  // one costs a millisecond or more per step (a network namespace ~2 ms).
  bool userNamespace = false;     // with IPC; implied by the two below, and used
                                  // unprivileged to empty the bounding set
  bool networkNamespace = false;  // loopback-only: a private lo, brought up
  bool pidNamespace = false;      // with the private view; ABI < 6: signals
                                  // cannot be scoped otherwise
  // The private view (private_view.h): a mount namespace, a fresh /proc, all
  // read-only but `writableTrees` (canonical, outermost first, none nested).
  // Without it seccomp refuses every metadata change instead.
  bool mountNamespace = false;
  std::vector<std::string> writableTrees;
  std::string workdir;  // canonical; re-entered inside the view
  seccomp::Options seccomp;
  // What the plan leaves unenforced that a caller may need to know (protected
  // paths inside writable roots: Landlock only adds rights, never removes).
  std::vector<std::string> notEnforced;
};

// Canonical absolute form of a path (symlinks resolved where they exist).
using PathResolver = std::function<std::string(const std::string&)>;
// The entries of a directory that are not symlinks (a symlink granted by
// path would grant its target), or nullopt when it cannot be listed.
using DirLister = std::function<std::optional<std::vector<std::string>>(const std::string&)>;
// Whether others (not the owner, not the group) may read a path, symlinks
// followed: r for a file, r-x for a directory; false when it is missing.
using OthersMayRead = std::function<bool(const std::string&)>;

// Paths every step may read and execute: loader, libraries, tools and the
// handful of /etc files they need (not all of /etc: root inside the sandbox
// is still the owner of /etc/shadow).
const std::vector<std::string>& systemReadPaths();
// Device files granted read/write (no ioctl).
const std::vector<std::string>& systemDevicePaths();

// Fails with SANDBOX_BACKEND_UNAVAILABLE without Landlock, and with
// SANDBOX_CAPABILITY_INSUFFICIENT when the kernel or the host cannot enforce
// what the spec needs (truncate control before ABI 3; signals to host
// processes without ABI 6 scoping or a pid namespace; loopback-only without
// namespaces; allow-outbound at all; a denied path inside a writable tree or
// containing a granted one; more writable trees than the private view takes). A denied path inside a read-only tree is left
// out by granting its siblings one by one (`list` reads the directories on
// the way; those directories themselves become unlistable, and entries
// created in them later unreadable); without `list` that is refused too.
// With `othersMayRead`, a system path others may not read is not granted (a
// 0600 file of root's in the /etc allow-list is still root's in the step).
Result<Plan> plan(const StepSpec& spec, const ConfinementFacts& facts, const PathResolver& resolve,
                  const DirLister& list = nullptr, const OthersMayRead& othersMayRead = nullptr);

}  // namespace lw::sandbox::landlock
