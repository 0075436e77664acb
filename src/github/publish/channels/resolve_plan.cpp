#include "github/publish/channels/resolve_plan.h"

#include <algorithm>

#include "github/publish/conclusion.h"
#include "github/publish/markers.h"

namespace lw::github {

std::optional<std::set<std::string>> resolveScope(const std::vector<StepRow>& steps, bool incremental) {
  std::set<std::string> files;
  bool anyCoverage = false;
  for (const StepRow& s : steps) {
    if (stepFailed(s)) return std::set<std::string>{};
    if (!s.coverage) continue;
    anyCoverage = true;
    for (const std::string& p : reviewedPaths(*s.coverage)) files.insert(p);
  }
  if (anyCoverage || incremental) return files;
  return std::nullopt;
}

bool reviewedIncrementally(const std::vector<StepRow>& steps) {
  return std::any_of(steps.begin(), steps.end(),
                     [](const StepRow& s) { return s.coverage && !s.coverage->incrementalFrom.empty(); });
}

std::vector<std::int64_t> planResolve(const std::vector<OwnComment>& own, const std::set<std::string>& current,
                                      const ResolveRule& rule) {
  std::vector<std::int64_t> out;
  for (const OwnComment& c : own) {
    if (c.answered) continue;
    if (rule.files && !rule.files->count(c.path)) continue;
    if (rule.onlyOutdated && !c.outdated) continue;
    const BodyMarkers marks = markersIn(c.body);
    std::vector<std::string> fps;
    for (const FindingMark& m : marks.findings)
      if (m.origin == rule.origin) fps.push_back(m.fingerprint);
    if (!marks.resolved.empty() || fps.empty()) continue;
    bool stillReported =
        std::any_of(fps.begin(), fps.end(), [&](const std::string& fp) { return current.count(fp) > 0; });
    if (!stillReported) out.push_back(c.id);
  }
  return out;
}

}  // namespace lw::github
