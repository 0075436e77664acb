#include "agents/review/coverage_summary.h"

#include <algorithm>

namespace lw::agents::review {

namespace {

constexpr std::string_view kPartly = "part of the file not reviewed: ";

FileCoverage fileCoverage(const std::string& path, const ChunkPlan& plan, const RunResult& run) {
  int reviewed = 0, failed = 0;
  std::string failure;
  for (const ChunkResult& c : run.chunks) {
    if (std::find(c.paths.begin(), c.paths.end(), path) == c.paths.end()) continue;
    if (c.reviewed) {
      ++reviewed;
    } else {
      ++failed;
      if (failure.empty()) failure = c.reason;
    }
  }
  if (reviewed == 0) return {path, CoverageStatus::Skipped, failure.empty() ? "not sent" : failure};
  if (failed > 0) return {path, CoverageStatus::Clipped, std::string(kPartly) + failure};
  for (const FileCoverage& c : plan.clipped)
    if (c.path == path) return c;
  return {path, CoverageStatus::Reviewed, ""};
}

// Why a selected file keeps the review from being complete, as the verdict
// names it ("" when it does not, or when the run's stop or budget already
// says it).
std::string verdictReason(const FileCoverage& f) {
  if (f.status == CoverageStatus::Reviewed) return "";
  std::string r = f.reason.starts_with(kPartly) ? f.reason.substr(kPartly.size()) : f.reason;
  if (r.starts_with("token budget") || r.starts_with("model unavailable")) return "";
  if (r.starts_with("a hunk larger than chunkTokens")) return "hunks larger than chunkTokens were clipped";
  return r;
}

// A reason kept once, in the order first met.
void note(std::vector<std::string>& reasons, std::string reason) {
  if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(std::move(reason));
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

Coverage summarizeCoverage(const Selection& selection, const ChunkPlan& plan, const RunResult& run,
                           bool diffTruncated) {
  Coverage c;
  std::vector<std::string> reasons;
  if (run.stop) note(reasons, "model unavailable: " + run.stop->message);
  if (run.budgetReached) note(reasons, "token budget (maxTokens) reached: the review is partial");
  for (const std::string& path : selection.review) {
    c.files.push_back(fileCoverage(path, plan, run));
    if (std::string r = verdictReason(c.files.back()); !r.empty()) note(reasons, std::move(r));
  }
  for (const FileCoverage& s : selection.skipped) {
    c.files.push_back(s);
    if (s.reason.starts_with("maxFiles")) note(reasons, s.reason + ": files not reviewed");
  }
  if (diffTruncated) note(reasons, "the diff was truncated: files past the limit not reviewed");
  c.complete = reasons.empty();
  c.reason = join(reasons);
  c.dropped = run.dropped;
  return c;
}

}  // namespace lw::agents::review
