#include "sandbox/process/placeholders.h"

#include <unistd.h>

namespace lw::sandbox::process {
namespace {

class RemovingPlaceholders final : public RunningProcess {
 public:
  RemovingPlaceholders(std::unique_ptr<RunningProcess> inner, std::vector<std::filesystem::path> placeholders)
      : inner_(std::move(inner)), placeholders_(std::move(placeholders)) {}
  ~RemovingPlaceholders() override {
    inner_.reset();
    cleanUp();
  }
  int pid() const override { return inner_->pid(); }
  ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    ExitInfo info = inner_->wait(deadline);
    cleanUp();
    return info;
  }
  void kill() override {
    inner_->kill();
    cleanUp();
  }
  const CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const CapturedStream& stderrData() const override { return inner_->stderrData(); }
  const std::vector<std::string>& planNotes() const override { return inner_->planNotes(); }

 private:
  void cleanUp() {
    // Deepest first; rmdir leaves anything that is not an empty directory.
    for (auto it = placeholders_.rbegin(); it != placeholders_.rend(); ++it) ::rmdir(it->c_str());
    placeholders_.clear();
  }
  std::unique_ptr<RunningProcess> inner_;
  std::vector<std::filesystem::path> placeholders_;
};

}  // namespace

std::unique_ptr<RunningProcess> removingPlaceholdersAfter(std::unique_ptr<RunningProcess> inner,
                                                          std::vector<std::filesystem::path> placeholders) {
  if (placeholders.empty()) return inner;
  return std::make_unique<RemovingPlaceholders>(std::move(inner), std::move(placeholders));
}

}  // namespace lw::sandbox::process
