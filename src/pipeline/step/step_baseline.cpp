#include "pipeline/step/step_baseline.h"

#include <system_error>

namespace lw::pipeline {

StepBaseline::StepBaseline(std::filesystem::path repo, std::filesystem::path storePath)
    : repo_(std::move(repo)), storePath_(std::move(storePath)) {}

StepBaseline::~StepBaseline() {
  std::error_code ec;
  std::filesystem::remove(storePath_, ec);
}

const Result<verify::Baseline>& StepBaseline::get() {
  std::call_once(taken_, [&] {
    verify::BaselineOptions options;
    options.storePath = storePath_.string();
    baseline_.emplace(verify::takeBaseline(repo_.string(), options));
  });
  return *baseline_;
}

Result<verify::CheckReport> StepBaseline::check(const verify::CheckPolicy& policy) {
  std::unique_lock lock(mu_);
  // An author's allowed changes are not a clean tree: it always checks alone.
  if (policy.role == Role::Author) return walk(policy, lock);
  if (!next_) next_ = std::make_shared<Round>();
  std::shared_ptr<Round> round = next_;
  idle_.wait(lock, [&] { return round->started || !walking_; });
  if (!round->started) {
    // This step leads the round: everyone in it ended before this walk.
    round->started = true;
    next_.reset();
    verify::CheckPolicy detectOnly = policy;
    detectOnly.restore = false;
    auto report = walk(detectOnly, lock);
    if (report && report->ok()) round->clean = std::move(*report);
    round->finished = true;
    idle_.notify_all();
  }
  idle_.wait(lock, [&] { return round->finished; });
  if (round->clean) return *round->clean;
  return walk(policy, lock);
}

std::size_t StepBaseline::walks() {
  std::lock_guard lock(mu_);
  return walks_;
}

Result<verify::CheckReport> StepBaseline::walk(verify::CheckPolicy policy, std::unique_lock<std::mutex>& lock) {
  idle_.wait(lock, [&] { return !walking_; });
  walking_ = true;
  ++walks_;
  policy.ownQuarantines = quarantines_;
  lock.unlock();
  auto report = verify::check(get().value(), policy);
  lock.lock();
  if (report && !report->quarantineRef.empty()) quarantines_[report->quarantineRef] = report->quarantineCommit;
  walking_ = false;
  idle_.notify_all();
  return report;
}

}  // namespace lw::pipeline
