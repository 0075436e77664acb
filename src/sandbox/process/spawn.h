// Starting a process with its whole tree under control: a new session, no
// inherited descriptors but the one passed, a scrubbed environment, bounded
// capture of stdout/stderr, a deadline, and a kill that leaves no descendant
// behind (the parent is a child subreaper, so orphans re-parent to it).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::sandbox::process {

// Runs in the forked child just before exec (after fds are arranged). Must be
// async-signal-safe: no allocation, no locks. Returns 0 to go on, or an errno
// value that the parent reports as SANDBOX_LAUNCH_FAILED with `what`.
struct ChildSetup {
  std::string what;  // "landlock_restrict_self", "seccomp load", …
  std::function<int()> run;
};

struct SpawnRequest {
  std::vector<std::string> argv;           // argv[0] found by the rule of executable.h
  std::map<std::string, std::string> env;  // the complete environment
  std::string cwd;                         // empty = inherit
  std::optional<int> passFd;               // kept open in the child as fd 3
  std::vector<int> extraFds;               // kept open as fd 4, 5, … (at most 4); for
                                           // the launcher itself, e.g. bwrap --seccomp 4
  std::vector<ChildSetup> childSetup;      // in order, after fd and session setup
  // Run by the step's supervisor before it forks the step (async-signal-safe
  // too), e.g. entering the user and pid namespaces whose init the step then
  // is, with no fork of its own (stepIsPidNamespaceInit).
  std::vector<ChildSetup> supervisorSetup;
  // The step is pid 1 of its own pid namespace: its orphans re-parent to it,
  // and the kernel ends them with it, uncounted.
  bool stepIsPidNamespaceInit = false;
  std::optional<int> stdinFd;            // default /dev/null
  std::size_t maxOutputBytes = 1 << 20;  // per stream; the rest is counted, not kept
  // Called with each chunk as it is read (1 = stdout, 2 = stderr), besides
  // the bounded capture: `sandbox exec` passes the step's output through live.
  std::function<void(int stream, const char* data, std::size_t size)> onOutput;
};

struct CapturedStream {
  std::string data;
  std::size_t totalBytes = 0;  // as written by the process
  bool truncated() const { return totalBytes > data.size(); }
};

// How long a supervisor may take to end the tree after a kill request before
// loopwright kills it and sweeps the tree itself.
inline constexpr std::chrono::milliseconds kKillGrace{2000};

struct ExitInfo {
  int exitCode = -1;  // valid when signal == 0
  int signal = 0;     // the terminating signal, 0 for a normal exit
  bool timedOut = false;
  // Processes still alive after the main one ended, killed by loopwright's
  // subreaper; nullopt where a pid namespace ends them (bwrap, docker,
  // Landlock below ABI 6): the kernel does not say how many there were.
  std::optional<int> descendantsKilled;
  // Set when the step's supervisor died before reporting (the step killed
  // it) or ignored a kill request (the step stopped it): what happened, in
  // words for the report. The step's own status is then unknown (signal is
  // SIGKILL) and loopwright swept the step's processes itself.
  std::string supervisorLost;
  // Set by a launcher that saw its sandbox never start (runsc's own error):
  // the step did not run, whatever the status says (SANDBOX_LAUNCH_FAILED).
  std::optional<Error> launchFailure;
  std::chrono::milliseconds duration{0};
  // The shell convention: exitCode, or 128 + signal; 124 when timed out.
  int status() const { return timedOut ? 124 : (signal != 0 ? 128 + signal : exitCode); }
};

class RunningProcess {
 public:
  virtual ~RunningProcess() = default;
  virtual int pid() const = 0;
  // Waits for the process and then makes sure no descendant survives. At the
  // deadline the whole tree is killed and timedOut is set.
  virtual ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) = 0;
  // Kills the whole tree now; idempotent.
  virtual void kill() = 0;
  virtual const CapturedStream& stdoutData() const = 0;
  virtual const CapturedStream& stderrData() const = 0;
  // What the backend's planner could not give this step as asked (a path not
  // bound, a protected path reached through a symlink), one sentence each,
  // for the run record. A wrapper forwards its inner process's notes.
  virtual const std::vector<std::string>& planNotes() const;
};

// Forks a per-step supervisor (a child subreaper that owns the step's whole
// tree, so parallel steps never kill each other's processes) which forks and
// execs the command in a new session with no-new-privileges set, after the
// ChildSetup steps, searching the step's PATH in its view (executable.h).
// Fails with SANDBOX_LAUNCH_FAILED when fork/exec or a ChildSetup fails or
// the command is not found (the child's errno and the failing step are
// carried back over a CLOEXEC pipe). When the calling process dies, the
// supervisor sees its control pipe close and kills the tree; when the
// supervisor dies or stops, this process (made a child subreaper on the
// first call, irreversibly) sweeps the tree: see orphan_sweep.h.
// Capabilities are not dropped here: see child_setups.h.
Result<std::unique_ptr<RunningProcess>> spawn(const SpawnRequest& request);

}  // namespace lw::sandbox::process
