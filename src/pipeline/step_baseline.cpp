#include "pipeline/step_baseline.h"

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
  std::lock_guard lock(checkMu_);
  return verify::check(get().value(), policy);
}

}  // namespace lw::pipeline
