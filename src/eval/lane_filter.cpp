// `loopwright eval --lane NAME` (eval/report.h).
#include <algorithm>
#include <set>

#include "eval/report.h"

namespace lw::eval {

void keepLane(std::vector<EvalCase>& cases, std::vector<CaseRun>& runs, const std::string& lane) {
  std::set<std::string> kept;
  for (CaseRun& run : runs) {
    for (const StepRun& st : run.steps)
      if (st.lane == lane) kept.insert(st.step);
    std::erase_if(run.steps, [&](const StepRun& st) { return st.lane != lane; });
    run.stepsMs = 0;
    for (const StepRun& st : run.steps) run.stepsMs += st.durationMs;
  }
  for (CaseRun& run : runs) std::erase_if(run.findings, [&](const Finding& f) { return !kept.contains(f.step); });
  for (EvalCase& c : cases)
    std::erase_if(c.expect, [&](const FindingPattern& p) { return !p.step.empty() && !kept.contains(p.step); });
}

}  // namespace lw::eval
