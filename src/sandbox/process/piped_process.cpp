#include "sandbox/process/piped_process.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>

namespace lw::sandbox::process {
namespace {

// A stopped supervisor is seen within this long, so that a step cannot stop
// its cleanup and then outlive a loopwright that dies meanwhile. Costs a
// /proc read per interval per running step.
constexpr std::chrono::milliseconds kStuckCheck{500};

}  // namespace

PipedProcess::PipedProcess(UniqueFd out, UniqueFd err, const SpawnRequest& req, Clock::time_point started)
    : out_(std::move(out)),
      err_(std::move(err)),
      outCapture_(req.maxOutputBytes, 1, req.onOutput),
      errCapture_(req.maxOutputBytes, 2, req.onOutput),
      started_(started),
      nextStuckCheck_(Clock::now() + kStuckCheck) {}

void PipedProcess::killIfRunning() {
  if (!finished_) kill();
}

ExitInfo PipedProcess::wait(std::optional<Clock::time_point> deadline) {
  run(deadline);
  return info_;
}

void PipedProcess::kill() {
  requestKill();
  run(std::nullopt);
}

void PipedProcess::requestKill() {
  if (killRequested_ || ended_) return;
  killRequested_ = true;
  forceAt_ = Clock::now() + kKillGrace;
  sendKill();
}

// The deadline passed, the kill went unanswered, or the supervisor is
// stopped: each acted on once.
void PipedProcess::actOnTimers(Clock::time_point now, std::optional<Clock::time_point> deadline) {
  if (ended_) return;
  if (deadline && now >= *deadline && !killRequested_) {
    info_.timedOut = true;
    requestKill();
  }
  if (!forced_ && forceAt_ && now >= *forceAt_) {
    forced_ = true;
    forceEnd(Stuck::NoAnswerToKill);
  }
  if (!forced_ && now >= nextStuckCheck_) {
    nextStuckCheck_ = now + kStuckCheck;
    if (stuckNow()) {
      forced_ = true;
      forceEnd(Stuck::Stopped);
    }
  }
}

// How long poll may wait: until the next of the drain's end, the kill's
// grace, the deadline or the stuck check; -1 for as long as it takes.
int PipedProcess::pollTimeout(Clock::time_point now, std::optional<Clock::time_point> deadline,
                              std::optional<Clock::time_point> drainUntil) const {
  std::optional<Clock::time_point> until = ended_ ? drainUntil : (killRequested_ ? forceAt_ : deadline);
  if (!ended_ && !forced_ && (!until || nextStuckCheck_ < *until)) until = nextStuckCheck_;
  if (forced_ && !ended_) until = std::nullopt;  // the end follows the kill
  if (!until) return -1;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*until - now).count();
  return static_cast<int>(std::max<long long>(0, ms) + 1);
}

// One poll over the output pipes and the end. False when poll failed.
bool PipedProcess::pollOnce(int timeout) {
  pollfd fds[3];
  int n = 0, outIdx = -1, errIdx = -1, endIdx = -1;
  if (out_) {
    outIdx = n;
    fds[n++] = {out_.get(), POLLIN, 0};
  }
  if (err_) {
    errIdx = n;
    fds[n++] = {err_.get(), POLLIN, 0};
  }
  if (!ended_) {
    endIdx = n;
    fds[n++] = {endFd(), POLLIN, 0};
  }
  if (::poll(fds, static_cast<nfds_t>(n), timeout) < 0) return errno == EINTR;
  if (outIdx >= 0 && fds[outIdx].revents != 0) pump(out_, outCapture_);
  if (errIdx >= 0 && fds[errIdx].revents != 0) pump(err_, errCapture_);
  if (endIdx >= 0 && fds[endIdx].revents != 0) {
    collectEnd(info_);
    ended_ = true;
    info_.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_);
  }
  return true;
}

void PipedProcess::run(std::optional<Clock::time_point> deadline) {
  if (finished_) return;
  // After the tree is gone every writer is closed, so EOF comes at once;
  // the grace only guards against a descriptor leaked outside the tree.
  std::optional<Clock::time_point> drainUntil;
  while (!ended_ || out_ || err_) {
    const Clock::time_point now = Clock::now();
    if (ended_ && now >= *drainUntil) break;
    actOnTimers(now, deadline);
    const bool wasEnded = ended_;
    if (!pollOnce(pollTimeout(now, deadline, drainUntil))) break;
    if (!wasEnded && ended_) drainUntil = Clock::now() + std::chrono::seconds(2);
  }
  out_.reset();
  err_.reset();
  release();
  finished_ = true;
}

}  // namespace lw::sandbox::process
