#include "sandbox/process/plan_notes.h"

namespace lw::sandbox::process {

const std::vector<std::string>& RunningProcess::planNotes() const {
  static const std::vector<std::string> kNone;
  return kNone;
}

namespace {

class NotedProcess final : public RunningProcess {
 public:
  NotedProcess(std::unique_ptr<RunningProcess> inner, std::vector<std::string> notes)
      : inner_(std::move(inner)), notes_(std::move(notes)) {}
  int pid() const override { return inner_->pid(); }
  ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    return inner_->wait(deadline);
  }
  void kill() override { inner_->kill(); }
  const CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const CapturedStream& stderrData() const override { return inner_->stderrData(); }
  const std::vector<std::string>& planNotes() const override { return notes_; }

 private:
  std::unique_ptr<RunningProcess> inner_;
  std::vector<std::string> notes_;
};

}  // namespace

std::unique_ptr<RunningProcess> withPlanNotes(std::unique_ptr<RunningProcess> inner, std::vector<std::string> notes) {
  if (notes.empty()) return inner;
  return std::make_unique<NotedProcess>(std::move(inner), std::move(notes));
}

}  // namespace lw::sandbox::process
