// The baseline a step is verified against. Steps that run side by side share
// one, taken once before the first of them starts: each starts from the same
// tree (a check that finds a change restores the tree to the baseline), so
// one walk of the repository serves them all instead of one per step.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>

#include "core/result.h"
#include "verify/baseline.h"
#include "verify/check.h"

namespace lw::pipeline {

class StepBaseline {
 public:
  // `storePath`: where captured bytes go (outside the repository and every
  // sandbox view); removed when this object goes away.
  StepBaseline(std::filesystem::path repo, std::filesystem::path storePath);
  ~StepBaseline();
  StepBaseline(const StepBaseline&) = delete;
  StepBaseline& operator=(const StepBaseline&) = delete;

  // Takes the baseline on the first call (thread-safe); later calls return
  // the same result, failure included.
  const Result<verify::Baseline>& get();

  // verify::check against it; one check at a time, since a restore must not
  // race another check's walk. Requires a successful get().
  Result<verify::CheckReport> check(const verify::CheckPolicy& policy);

 private:
  std::filesystem::path repo_;
  std::filesystem::path storePath_;
  std::once_flag taken_;
  std::optional<Result<verify::Baseline>> baseline_;
  std::mutex checkMu_;
};

}  // namespace lw::pipeline
