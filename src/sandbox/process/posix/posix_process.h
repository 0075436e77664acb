// A step started by the POSIX launcher, once it runs: its output read by
// PipedProcess, its end and its tree's cleanup in a watcher thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <thread>

#include "sandbox/process/piped_process.h"
#include "sandbox/process/posix/tree_cleanup.h"
#include "sandbox/process/posix/tree_events.h"

namespace lw::sandbox::process::posix {

class PosixProcess final : public PipedProcess {
 public:
  // `token`: the tree's mark the step was started with (tree_mark.h).
  PosixProcess(pid_t pid, const std::string& token, UniqueFd out, UniqueFd err, const SpawnRequest& req,
               Clock::time_point started);
  ~PosixProcess() override;

  int pid() const override { return pid_; }

 private:
  int endFd() const override { return endRead_.get(); }
  void collectEnd(ExitInfo& info) override;
  void sendKill() override;
  void release() override;
  // The watcher thread: observe, wait, and kill the tree at the end.
  void watch();

  pid_t pid_;
  UniqueFd endRead_;
  UniqueFd endWrite_;
  TreeEvents events_;
  TreeCleanup tree_;
  std::atomic<bool> killRequested_{false};
  int status_ = 0;  // written by the watcher before it signals the end
  int descendantsKilled_ = 0;
  std::thread watcher_;
};

}  // namespace lw::sandbox::process::posix
