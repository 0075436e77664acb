#include "sandbox/process/posix/posix_process.h"

#include <sys/wait.h>

#include <cerrno>

namespace lw::sandbox::process::posix {
namespace {

// How often the table is looked at where no fork is reported: each look
// reads every process's stat (~1 ms for a few hundred processes) and the
// environment of each process it has not read before, so a
// shorter interval costs a running step a noticeable share of a core. With
// kqueue, forks wake the watcher at once and this is only a backstop.
constexpr std::chrono::milliseconds kLookInterval{10};
constexpr std::chrono::milliseconds kLookIntervalWithEvents{100};

}  // namespace

PosixProcess::PosixProcess(pid_t pid, const std::string& token, UniqueFd out, UniqueFd err, const SpawnRequest& req,
                           Clock::time_point started)
    : PipedProcess(std::move(out), std::move(err), req, started), pid_(pid), tree_(pid, token) {
  makePipe(endRead_, endWrite_);
  events_.watch(pid);
  watcher_ = std::thread([this] { watch(); });
}

PosixProcess::~PosixProcess() {
  killIfRunning();
  if (watcher_.joinable()) watcher_.join();
}

void PosixProcess::watch() {
  const auto interval = TreeEvents::reportsForks() ? kLookIntervalWithEvents : kLookInterval;
  for (;;) {
    tree_.observe(events_);
    if (killRequested_) descendantsKilled_ += tree_.killAll();
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      status_ = r == pid_ ? status : 0;
      // The leader is reaped, but its session and group ids stay held by
      // whatever it left: that is what killAll finds.
      descendantsKilled_ += tree_.killAll();
      const char b = 'e';
      (void)!::write(endWrite_.get(), &b, 1);
      return;
    }
    events_.waitFor(interval);
  }
}

void PosixProcess::collectEnd(ExitInfo& info) {
  if (watcher_.joinable()) watcher_.join();
  info.descendantsKilled = descendantsKilled_;
  if (WIFEXITED(status_)) info.exitCode = WEXITSTATUS(status_);
  if (WIFSIGNALED(status_)) info.signal = WTERMSIG(status_);
}

void PosixProcess::sendKill() {
  killRequested_ = true;
  events_.wake();
}

void PosixProcess::release() {
  if (watcher_.joinable()) watcher_.join();
}

}  // namespace lw::sandbox::process::posix
