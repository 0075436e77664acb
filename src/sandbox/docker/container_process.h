// A started container seen as a RunningProcess. It owns the container: on
// every path out (wait finished, kill, launch failure, destruction while
// unwinding) the container is force-removed, so nothing of the step lingers.
// Containers left by a killed orchestrator carry dev.loopwright.run for
// removeLabelledContainers().
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/docker/engine_client.h"
#include "sandbox/docker/orphan_reaper.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::docker {

class ContainerProcess final : public process::RunningProcess {
 public:
  // Takes ownership of container `id` (created, maybe not yet started).
  // `onOutput` gets the step's output once it has ended (the logs are read
  // after the exit, not followed live).
  ContainerProcess(std::shared_ptr<EngineClient> client, std::string id, std::size_t maxOutputBytes,
                   std::chrono::milliseconds killGrace, LogDemuxer::OnData onOutput = {});
  ~ContainerProcess() override;
  ContainerProcess(const ContainerProcess&) = delete;
  ContainerProcess& operator=(const ContainerProcess&) = delete;

  // Hands the container to a watchdog too, for when this process dies
  // without unwinding.
  void guardAgainstOrphaning(OrphanReaper reaper) { reaper_.emplace(std::move(reaper)); }

  // POST start, then inspects the host pid. Fails with SANDBOX_LAUNCH_FAILED.
  Status start();

  int pid() const override { return pid_; }
  // Waits (bounded by the deadline), kills at the deadline, collects the
  // logs, removes the container. Repeated calls return the first result.
  process::ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override;
  // SIGKILL to the container's init; the pid namespace takes every
  // descendant with it. Safe from another thread while wait() blocks.
  void kill() override;
  const process::CapturedStream& stdoutData() const override { return out_; }
  const process::CapturedStream& stderrData() const override { return err_; }

  const std::string& id() const { return id_; }
  // Engine failures met after the start (logs, remove): the exit status
  // alone would hide them.
  const std::vector<std::string>& engineErrors() const { return engineErrors_; }

 private:
  void removeNow();

  std::shared_ptr<EngineClient> client_;
  std::string id_;
  std::size_t maxOutputBytes_;
  std::chrono::milliseconds killGrace_;
  LogDemuxer::OnData onOutput_;
  int pid_ = -1;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> killed_{false};
  std::mutex waitMutex_;
  std::optional<process::ExitInfo> exit_;
  bool removed_ = false;
  process::CapturedStream out_;
  process::CapturedStream err_;
  std::vector<std::string> engineErrors_;
  std::optional<OrphanReaper> reaper_;  // destroyed after removeNow() ran
};

}  // namespace lw::sandbox::docker
