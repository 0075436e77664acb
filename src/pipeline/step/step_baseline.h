// The baseline a step is verified against. Steps that run side by side share
// one, taken once before the first of them starts: each starts from the same
// tree (a check that finds a change restores the tree to the baseline), so
// one walk of the repository serves them all instead of one per step. Their
// checks are shared the same way: one walk that starts after several of them
// ended serves them all when it finds no violation.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "core/result.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

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

  // verify::check against it, for a step that has ended; one walk at a
  // time, since a restore must not race another check's walk. Read-only
  // roles that ask while a walk runs are served together by the next one:
  // a walk that finds nothing a read-only step may not do is the report for
  // each; a violation, and each of them checks on its own (the first
  // quarantines and restores, as without sharing). Requires a successful
  // get().
  Result<verify::CheckReport> check(const verify::CheckPolicy& policy);

  // How many walks check() has taken so far.
  std::size_t walks();

 private:
  // The steps waiting for the same walk.
  struct Round {
    bool started = false, finished = false;
    std::optional<verify::CheckReport> clean;  // set when the walk found no violation
  };
  // One walk, after the one in progress, with the quarantine refs earlier
  // walks wrote left out; `lock` (on mu_) is released while it walks.
  Result<verify::CheckReport> walk(verify::CheckPolicy policy, std::unique_lock<std::mutex>& lock);

  std::filesystem::path repo_;
  std::filesystem::path storePath_;
  std::once_flag taken_;
  std::optional<Result<verify::Baseline>> baseline_;
  std::mutex mu_;
  std::condition_variable idle_;  // notified when a walk ends
  bool walking_ = false;
  std::size_t walks_ = 0;
  // Quarantine refs the checks wrote, left out of the later checks.
  std::map<std::string, std::string> quarantines_;
  std::shared_ptr<Round> next_;  // the round the next walk serves
};

}  // namespace lw::pipeline
