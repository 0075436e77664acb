#include "sandbox/process/held_start.h"

#include <sys/socket.h>

#include <cerrno>

namespace lw::sandbox::process {
namespace {

class HeldStart final : public RunningProcess {
 public:
  HeldStart(std::unique_ptr<RunningProcess> inner, Fd gate)
      : inner_(std::move(inner)), gate_(std::move(gate)) {}
  ~HeldStart() override {
    if (gate_) inner_->kill();
    inner_.reset();
  }
  int pid() const override { return inner_->pid(); }
  ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    if (gate_) kill();
    return inner_->wait(deadline);
  }
  void kill() override {
    inner_->kill();
    gate_.reset();
  }
  void resume() override {
    if (!gate_) return;
    // A failed send (the launcher already died) needs nothing more: wait()
    // reports how it ended.
    const char go = 'g';
    while (::send(gate_.get(), &go, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
    gate_.reset();
  }
  const CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const CapturedStream& stderrData() const override { return inner_->stderrData(); }

 private:
  std::unique_ptr<RunningProcess> inner_;
  Fd gate_;
};

}  // namespace

std::unique_ptr<RunningProcess> holdingStart(std::unique_ptr<RunningProcess> inner, Fd gate) {
  return std::make_unique<HeldStart>(std::move(inner), std::move(gate));
}

}  // namespace lw::sandbox::process
