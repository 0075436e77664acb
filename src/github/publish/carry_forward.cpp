#include "github/publish/carry_forward.h"

#include <algorithm>
#include <map>

#include <boost/json.hpp>

#include "core/json_fields.h"
#include "github/publish/conclusion.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

namespace lw::github {

namespace json = boost::json;

namespace {

using json_fields::idOf;
using json_fields::loginOf;
using json_fields::peekInt;
using json_fields::textOf;

// Whether `step` looked at the whole change in this run: then a finding of
// it that it did not report again is gone, not merely out of its sight.
bool reviewedWholeChange(const StepRow& step, bool incrementalRun) {
  if (stepFailed(step)) return false;
  if (!step.coverage) return !incrementalRun;
  return step.coverage->complete && step.coverage->incrementalFrom.empty();
}

std::size_t stageFor(const std::vector<StageResult>& stages, const std::vector<StepRow>& steps,
                     const std::string& step) {
  for (const StepRow& row : steps)
    if (row.step == step)
      for (std::size_t i = 0; i < stages.size(); ++i)
        if (stages[i].name == row.stage) return i;
  return 0;
}

// A path is a file name a pull request chose: shown in a code span only.
}  // namespace

std::vector<CarriedFinding> earlierFindings(const json::array& comments, const std::string& ownLogin,
                                            const std::set<std::int64_t>& resolvedThreads) {
  std::vector<CarriedFinding> out;
  std::set<std::string> seen;
  for (const json::value& c : comments) {
    if (loginOf(c) != ownLogin) continue;  // a marker from anyone else means nothing
    const BodyMarkers marks = markersIn(textOf(c, "body"));
    if (!marks.resolved.empty()) continue;
    const std::optional<std::int64_t> line = peekInt(c, "line");
    for (const FindingMark& m : marks.findings) {
      if (m.origin != Origin::Trusted || !m.severity || !seen.insert(m.fingerprint).second) continue;
      CarriedFinding f{m.fingerprint, *m.severity, m.step, textOf(c, "path"), static_cast<int>(line.value_or(0)),
                       idOf(c)};
      if (!line)
        f.stoppedBecause = kStoppedLinesChanged;
      else if (resolvedThreads.count(f.commentId))
        f.stoppedBecause = kStoppedResolved;
      out.push_back(std::move(f));
    }
  }
  return out;
}

void carryForward(std::vector<StageResult>& stages, const std::vector<StepRow>& steps,
                  const std::vector<CarriedFinding>& earlier, bool incrementalRun) {
  if (stages.empty()) return;
  std::set<std::string> reported;
  for (const StageResult& s : stages)
    for (const Finding& f : s.findings) reported.insert(fingerprint(f));
  std::map<std::string, bool> whole;  // a step name may recur in several stages: all must have
  for (const StepRow& row : steps) {
    const bool w = reviewedWholeChange(row, incrementalRun);
    auto [it, fresh] = whole.emplace(row.step, w);
    if (!fresh) it->second = it->second && w;
  }
  for (CarriedFinding c : earlier) {
    if (reported.count(c.fingerprint)) continue;  // this run counts it itself
    if (c.stoppedBecause.empty() && whole.count(c.step) && whole[c.step]) c.stoppedBecause = kStoppedFullReview;
    stages[stageFor(stages, steps, c.step)].carried.push_back(std::move(c));
  }
}

}  // namespace lw::github
