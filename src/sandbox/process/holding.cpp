#include "sandbox/process/holding.h"

namespace lw::sandbox::process {
namespace {

class Holding final : public RunningProcess {
 public:
  Holding(std::unique_ptr<RunningProcess> inner, std::shared_ptr<void> kept)
      : kept_(std::move(kept)), inner_(std::move(inner)) {}
  int pid() const override { return inner_->pid(); }
  ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    return inner_->wait(deadline);
  }
  void kill() override { inner_->kill(); }
  const CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const CapturedStream& stderrData() const override { return inner_->stderrData(); }
  const std::vector<std::string>& planNotes() const override { return inner_->planNotes(); }

 private:
  std::shared_ptr<void> kept_;  // declared first: destroyed after inner_
  std::unique_ptr<RunningProcess> inner_;
};

}  // namespace

std::unique_ptr<RunningProcess> holding(std::unique_ptr<RunningProcess> inner, std::shared_ptr<void> kept) {
  return std::make_unique<Holding>(std::move(inner), std::move(kept));
}

}  // namespace lw::sandbox::process
