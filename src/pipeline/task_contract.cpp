#include "pipeline/task_contract.h"

#include <algorithm>

#include "verify/path_policy.h"

namespace lw::pipeline {
namespace {

constexpr std::string_view kContractHint =
    "the step's task contract is in the taskpack (docs/taskpack.md, \"Task contract\")";

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : std::string(separator)) + p;
  return out;
}

std::string plural(std::int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// The bounds: PATH_POLICY_VIOLATION, with the numbers.
std::vector<std::string> boundsBroken(const AuthorChange& c, const TaskContract& contract) {
  std::vector<std::string> broken;
  if (contract.maxChangedFiles && c.filesChanged > *contract.maxChangedFiles)
    broken.push_back("changed " + plural(c.filesChanged, "file", "files") + ", the contract allows " +
                     std::to_string(*contract.maxChangedFiles));
  const std::int64_t lines = c.linesAdded + c.linesDeleted;
  if (contract.maxChangedLines && lines > *contract.maxChangedLines)
    broken.push_back("changed " + plural(lines, "line", "lines") + " (" + std::to_string(c.linesAdded) +
                     " added, " + std::to_string(c.linesDeleted) + " deleted), the contract allows " +
                     std::to_string(*contract.maxChangedLines));
  return broken;
}

// The expected paths: CONTRACT_UNMET, naming each entry no changed path matches.
std::vector<std::string> expectsUnmet(const AuthorChange* c, const TaskContract& contract) {
  std::vector<std::string> unmet;
  if (contract.expects.empty()) return unmet;
  if (c == nullptr || c->paths.empty()) {
    unmet.push_back("changed nothing, the contract expects a change to " + joined(contract.expects, ", "));
    return unmet;
  }
  for (const std::string& glob : contract.expects) {
    bool matched = std::any_of(c->paths.begin(), c->paths.end(),
                               [&](const std::string& path) { return verify::globMatch(glob, path); });
    if (!matched) unmet.push_back("no changed path matches expects `" + glob + "`");
  }
  return unmet;
}


}  // namespace

std::string commandLine(const std::vector<std::string>& argv) { return joined(argv, " "); }

std::optional<Error> judgeChange(const AuthorChange* change, const TaskContract& contract) {
  std::vector<std::string> bounds = change ? boundsBroken(*change, contract) : std::vector<std::string>{};
  std::vector<std::string> unmet = expectsUnmet(change, contract);
  if (bounds.empty() && unmet.empty()) return std::nullopt;
  const ErrorCode code = bounds.empty() ? ErrorCode::ContractUnmet : ErrorCode::PathPolicyViolation;
  bounds.insert(bounds.end(), unmet.begin(), unmet.end());
  return makeError(code, joined(bounds, "; "), std::string(kContractHint));
}

bool validationDue(const AuthorChange& change, const TaskContract& contract) {
  return !contract.validate.empty() && !change.paths.empty() && change.refusedBecause.empty();
}

std::optional<Error> judgeValidation(const ValidationRun& run) {
  if (run.passed) return std::nullopt;
  const std::string what = "validate `" + commandLine(run.command) + "` ";
  std::string why = !run.error.empty() ? "could not run: " + run.error
                    : run.timedOut     ? "ran past the step's wall time of " + std::to_string(run.wallTimeMs) + " ms"
                                       : "exited " + std::to_string(run.exitStatus);
  return makeError(ErrorCode::ContractUnmet, what + why,
                   "its output is in " + run.stdoutPath + " and " + run.stderrPath);
}

std::string nextActionFor(const Step& step, std::string_view otherwise) {
  return step.contract.onStop ? *step.contract.onStop : std::string(otherwise);
}

std::string nextActionFor(const Step* step, std::string_view otherwise) {
  return step ? nextActionFor(*step, otherwise) : std::string(otherwise);
}

}  // namespace lw::pipeline
