#include "policy/resolve/lane_binding.h"

#include <algorithm>

#include "policy/builtin/builtin_params.h"

namespace lw {
namespace {

Error unknownLane(const Taskpack& taskpack, const std::string& lane) {
  std::string names;
  for (const Lane& l : taskpack.lanes) names += (names.empty() ? "" : ", ") + l.name;
  Error e = makeError(ErrorCode::UsageError, "--lane " + lane + ": the taskpack has no lane of that name",
                      names.empty() ? "the taskpack defines no lane: add one under spec.lanes (docs/taskpack.md)"
                                    : "its lanes: " + names + " (spec.lanes, docs/taskpack.md)",
                      "--lane " + lane);
  Location at = taskpack.lanes.empty() ? Location{} : taskpack.lanes.front().location;
  at.file = taskpack.file;
  at.path = "spec.lanes";
  e.location = at;
  return e;
}

}  // namespace

Status bindModelSteps(Taskpack& taskpack, const std::string& lane) {
  const bool known =
      std::any_of(taskpack.lanes.begin(), taskpack.lanes.end(), [&](const Lane& l) { return l.name == lane; });
  if (!known) return unknownLane(taskpack, lane);
  for (Stage& stage : taskpack.stages)
    for (Step& step : stage.steps)
      if (step.lane || stepCallsModel(step)) step.lane = lane;
  return Ok{};
}

}  // namespace lw
