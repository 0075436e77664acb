// The CaseRunner of `loopwright eval` (eval/eval_loop.h): each case run by
// `run`'s own path (cli/run_session.h) in a linked worktree at the case's
// head, with a pull_request payload naming its base and head, and nothing
// published. What the run prints goes to <out>/<case>-<n>.log, its record
// to <out>/<case>-<n>/run.json.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "cli/command.h"
#include "eval/eval_loop.h"
#include "eval/report.h"

namespace lw::cli {

class RunPathCaseRunner final : public eval::CaseRunner {
 public:
  // `repo` is the repository under evaluation, `out` where the runs go,
  // `taskpack` a file to use instead of the base commit's (`run --taskpack`).
  RunPathCaseRunner(std::filesystem::path repo, std::filesystem::path out, std::optional<std::string> taskpack,
                    const Environment& env);

  void run(const eval::EvalCase& c, const eval::CaseChange& change, int repeat, eval::CaseRun& out) override;

  // The lane every step that calls a model is bound to in the runs from
  // now on (`eval --lane`); nullopt: the taskpack's own lanes.
  void bindLane(std::optional<std::string> lane) { lane_ = std::move(lane); }

  // The error of a --lane the taskpack does not have, once a run met it.
  const std::optional<Error>& laneError() const { return laneError_; }

  // Each lane's prices, from the taskpacks the cases ran with.
  const eval::LanePrices& prices() const { return prices_; }

 private:
  Status runIn(const std::filesystem::path& worktree, const std::string& label, const eval::EvalCase& c,
               const eval::CaseChange& change, eval::CaseRun& out);

  std::filesystem::path repo_;
  std::filesystem::path out_;
  std::optional<std::string> taskpack_;
  Environment env_;  // the caller's, without what would publish or reach GitHub
  int serial_ = 0;
  eval::LanePrices prices_;
  std::optional<std::string> lane_;
  std::optional<Error> laneError_;
};

}  // namespace lw::cli
