#include "sandbox/docker/container_process.h"

#include <csignal>

namespace lw::sandbox::docker {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

ContainerProcess::ContainerProcess(std::shared_ptr<EngineClient> client, std::string id, std::size_t maxOutputBytes,
                                   milliseconds killGrace, LogDemuxer::OnData onOutput)
    : client_(std::move(client)),
      id_(std::move(id)),
      maxOutputBytes_(maxOutputBytes),
      killGrace_(killGrace),
      onOutput_(std::move(onOutput)),
      started_(steady_clock::now()) {}

ContainerProcess::~ContainerProcess() {
  std::lock_guard lock(waitMutex_);
  if (!removed_) removeNow();
}

Status ContainerProcess::start() {
  started_ = steady_clock::now();
  if (auto st = client_->start(id_); !st) return st.error();
  auto pid = client_->hostPid(id_);
  if (pid) pid_ = *pid;
  return Ok{};
}

void ContainerProcess::removeNow() {
  // force=1 kills a running container first; a failure is retried once
  // because a container left behind is the one outcome this class exists to prevent.
  for (int attempt = 0; attempt < 2 && !removed_; ++attempt) {
    auto st = client_->remove(id_);
    if (st) {
      removed_ = true;
      if (reaper_) reaper_->containerRemoved();
    } else if (attempt == 1)
      engineErrors_.push_back(st.error().message);
  }
}

void ContainerProcess::kill() {
  killed_ = true;
  (void)client_->kill(id_);
}

process::ExitInfo ContainerProcess::wait(std::optional<steady_clock::time_point> deadline) {
  std::lock_guard lock(waitMutex_);
  if (exit_) return *exit_;
  process::ExitInfo info;
  milliseconds limit{0};
  if (deadline)
    limit = std::max(milliseconds(1), std::chrono::duration_cast<milliseconds>(*deadline - steady_clock::now()));
  auto outcome = client_->wait(id_, limit);
  if (outcome && outcome->timedOut) {
    info.timedOut = true;
    kill();
    outcome = client_->wait(id_, killGrace_);
  }
  if (!outcome) {
    engineErrors_.push_back(outcome.error().message);
    kill();
  } else if (!outcome->timedOut) {
    info.exitCode = static_cast<int>(outcome->statusCode);
    // The init (tini) reports a child killed by signal n as 128+n, like a
    // shell; only our own SIGKILL is known to be a signal for certain.
    if (killed_ && !info.timedOut && outcome->statusCode == 128 + SIGKILL) {
      info.signal = SIGKILL;
      info.exitCode = -1;
    }
  }
  info.duration = std::chrono::duration_cast<milliseconds>(steady_clock::now() - started_);

  LogDemuxer demux(maxOutputBytes_, onOutput_);
  if (auto st = client_->logs(id_, demux); !st)
    engineErrors_.push_back(st.error().message);
  else if (!demux.complete())
    engineErrors_.push_back("Docker engine: the log stream ended inside a frame or was malformed");
  out_ = demux.out();
  err_ = demux.err();
  removeNow();
  exit_ = info;
  return info;
}

}  // namespace lw::sandbox::docker
