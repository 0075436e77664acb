// What both ways of starting a step share once it runs: its stdout and
// stderr read into bounded captures while waiting for its end, a deadline
// that kills it, and a short drain after the end. How the end is learnt
// (a supervisor's report, a pidfd) and how a kill is sent are the
// subclass's.
#pragma once

#include <chrono>
#include <optional>

#include "sandbox/process/capture.h"
#include "sandbox/process/fd.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

class PipedProcess : public RunningProcess {
 public:
  using Clock = std::chrono::steady_clock;

  ExitInfo wait(std::optional<Clock::time_point> deadline) final;
  void kill() final;
  const CapturedStream& stdoutData() const final { return outCapture_.stream(); }
  const CapturedStream& stderrData() const final { return errCapture_.stream(); }

 protected:
  PipedProcess(Fd out, Fd err, const SpawnRequest& req, Clock::time_point started);
  // Subclasses call this from their destructor: a dropped process is killed.
  void killIfRunning();

  // Readable when the process has ended (or its watcher has gone away).
  virtual int endFd() const = 0;
  // Called once endFd is readable: fills `info` (exit code or signal, and
  // descendants killed when known).
  virtual void collectEnd(ExitInfo& info) = 0;
  // Asks for the whole tree to be killed; called at most once.
  virtual void sendKill() = 0;
  // Called once if the end has not come kKillGrace after sendKill: the
  // process that should have done the killing is stuck; kill it instead.
  virtual void forceEnd() {}
  // After the loop, with the pipes closed: release what is left (reap).
  virtual void release() = 0;

 private:
  void run(std::optional<Clock::time_point> deadline);
  void requestKill();

  Fd out_;
  Fd err_;
  BoundedCapture outCapture_;
  BoundedCapture errCapture_;
  Clock::time_point started_;
  ExitInfo info_;
  bool ended_ = false;
  bool killRequested_ = false;
  std::optional<Clock::time_point> forceAt_;  // kill requested, end not seen yet
  bool finished_ = false;
};

}  // namespace lw::sandbox::process
