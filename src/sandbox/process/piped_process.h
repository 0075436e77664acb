// What both ways of starting a step share once it runs: its stdout and
// stderr read into bounded captures while waiting for its end, a deadline
// that kills it, and a short drain after the end. How the end is learnt
// (a supervisor's report, a pidfd) and how a kill is sent are the
// subclass's.
#pragma once

#include <chrono>
#include <optional>

#include "core/unique_fd.h"
#include "sandbox/process/capture.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

class PipedProcess : public RunningProcess {
 public:
  using Clock = std::chrono::steady_clock;
  // Why the end had to be forced (see forceEnd).
  enum class Stuck { NoAnswerToKill, Stopped };

  ExitInfo wait(std::optional<Clock::time_point> deadline) final;
  void kill() final;
  const CapturedStream& stdoutData() const final { return outCapture_.stream(); }
  const CapturedStream& stderrData() const final { return errCapture_.stream(); }

 protected:
  PipedProcess(UniqueFd out, UniqueFd err, const SpawnRequest& req, Clock::time_point started);
  // Subclasses call this from their destructor: a dropped process is killed.
  void killIfRunning();

  // Readable when the process has ended (or its watcher has gone away).
  virtual int endFd() const = 0;
  // Called once endFd is readable: fills `info` (exit code or signal, and
  // descendants killed when known).
  virtual void collectEnd(ExitInfo& info) = 0;
  // Asks for the whole tree to be killed; called at most once.
  virtual void sendKill() = 0;
  // Called at most once, before the end: the end has not come kKillGrace
  // after sendKill, or stuckNow() said so. The process that should do the
  // killing is stuck; kill it instead.
  virtual void forceEnd(Stuck) {}
  // Asked periodically until the end (kStuckCheck, piped_process.cpp): true
  // when whatever ends the tree can no longer do it (a stopped supervisor).
  virtual bool stuckNow() { return false; }
  // After the loop, with the pipes closed: release what is left (reap).
  virtual void release() = 0;

 private:
  void run(std::optional<Clock::time_point> deadline);
  void actOnTimers(Clock::time_point now, std::optional<Clock::time_point> deadline);
  int pollTimeout(Clock::time_point now, std::optional<Clock::time_point> deadline,
                  std::optional<Clock::time_point> drainUntil) const;
  bool pollOnce(int timeout);
  void requestKill();

  UniqueFd out_;
  UniqueFd err_;
  BoundedCapture outCapture_;
  BoundedCapture errCapture_;
  Clock::time_point started_;
  ExitInfo info_;
  bool ended_ = false;
  bool killRequested_ = false;
  std::optional<Clock::time_point> forceAt_;  // kill requested, end not seen yet
  bool forced_ = false;
  Clock::time_point nextStuckCheck_;
  bool finished_ = false;
};

}  // namespace lw::sandbox::process
