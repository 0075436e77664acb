// Git's own background maintenance: `git gc --auto` detaches by default
// (gc.autoDetach) after a checkout, fetch, merge or commit, and goes on
// repacking, writing commit-graph, objects/info/packs and packed-refs while
// loopwright takes its baseline. What it does then is not the step's; the
// baseline waits for it to end instead of exempting the files it writes (a
// step writing the same files is still caught).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::verify {

// The lock `git gc` holds: "<pid> <hostname>" in <gitdir>/gc.pid.
struct GcLock {
  std::int64_t pid = 0;
  std::string host;
};

// Parses a gc.pid file's text; nullopt when it is not "<pid> <host>".
std::optional<GcLock> parseGcPid(std::string_view text);

// The gc.pid files that can name a running gc: the common git directory's
// and each submodule's (modules/**), whether or not they exist now.
std::vector<std::string> gcPidFiles(const std::string& gitDir);

// What the baseline waited for: one entry per gc that was running.
struct MaintenanceWait {
  std::string pidFile;
  std::int64_t pid = 0;
  std::int64_t waitedMs = 0;
};

// The host facts the wait needs, behind an interface so that tests can
// stand in a process that never ends.
class ProcessView {
 public:
  virtual ~ProcessView() = default;
  virtual std::string hostname() const = 0;
  // True while `pid` is a live (not zombie) `git gc` or `git maintenance`
  // process on this host.
  virtual bool isLiveGitMaintenance(std::int64_t pid) const = 0;
};
// /proc and gethostname().
const ProcessView& hostProcesses();

// Waits until no gc.pid of `gitDir` names a live git process on this host,
// polling every `poll`. A gc.pid from another host, older than git's own
// 12 hours (git ignores those too), or naming a pid that is not a git gc or
// maintenance now (the pid was reused) is not waited for. Fails with IO_ERROR naming the pid when one still runs after
// `timeout`: the baseline is never taken under a running gc.
Result<std::vector<MaintenanceWait>> waitForGitMaintenance(
    const std::string& gitDir, std::chrono::milliseconds timeout,
    std::chrono::milliseconds poll = std::chrono::milliseconds(50), const ProcessView& processes = hostProcesses());

}  // namespace lw::verify
