#include "pipeline/author/contract_plan.h"

#include <algorithm>

#include "policy/model/scope_glob.h"
#include "verify/check/path_policy.h"

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

// A message names at most this many paths of a list, then counts the rest.
constexpr std::size_t kNamedPaths = 5;

std::string named(const std::vector<std::string>& paths) {
  std::vector<std::string> shown(paths.begin(), paths.begin() + std::min(paths.size(), kNamedPaths));
  std::string out = joined(shown, ", ");
  if (paths.size() > shown.size()) out += " and " + std::to_string(paths.size() - shown.size()) + " more";
  return out;
}

// A .gitattributes or .gitignore file changes how git reads every other
// file, the published branch's too: each one changed must be listed.
std::optional<std::string> ruleFilesUnlisted(const AuthorChange& c, const TaskContract& contract) {
  std::vector<std::string> unlisted;
  for (const std::string& path : c.paths)
    if (isGitRuleFile(path) &&
        std::find(contract.gitRuleFiles.begin(), contract.gitRuleFiles.end(), path) == contract.gitRuleFiles.end())
      unlisted.push_back(path);
  if (unlisted.empty()) return std::nullopt;
  return "changed " + named(unlisted) + ": .gitattributes and .gitignore files the contract does not list in " +
         "gitRuleFiles";
}

// Binary files carry no lines: their bytes are held to their own bound.
std::optional<std::string> binaryBeyondBound(const AuthorChange& c, const TaskContract& contract) {
  const std::optional<std::int64_t> bound = contract.binaryBytesBound();
  if (!bound || c.binaryPaths.empty() || (contract.maxBinaryBytes && c.binaryBytes <= *bound)) return std::nullopt;
  const std::string what = "changed " + plural(c.binaryBytes, "byte", "bytes") + " in " +
                           plural(static_cast<std::int64_t>(c.binaryPaths.size()), "binary file", "binary files") +
                           " (" + named(c.binaryPaths) + "), the contract allows ";
  if (contract.maxBinaryBytes) return what + std::to_string(*bound);
  return what + "none: it bounds lines and sets no maxBinaryBytes";
}

// The bounds: PATH_POLICY_VIOLATION, with the numbers.
std::vector<std::string> boundsBroken(const AuthorChange& c, const TaskContract& contract) {
  std::vector<std::string> broken;
  if (auto unlisted = ruleFilesUnlisted(c, contract)) broken.push_back(*unlisted);
  if (contract.maxChangedFiles && c.filesChanged > *contract.maxChangedFiles)
    broken.push_back("changed " + plural(c.filesChanged, "file", "files") + ", the contract allows " +
                     std::to_string(*contract.maxChangedFiles));
  const std::int64_t lines = c.linesAdded + c.linesDeleted;
  if (contract.maxChangedLines && lines > *contract.maxChangedLines)
    broken.push_back("changed " + plural(lines, "line", "lines") + " (" + std::to_string(c.linesAdded) + " added, " +
                     std::to_string(c.linesDeleted) + " deleted), the contract allows " +
                     std::to_string(*contract.maxChangedLines));
  if (auto binary = binaryBeyondBound(c, contract)) broken.push_back(*binary);
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

}  // namespace lw::pipeline
