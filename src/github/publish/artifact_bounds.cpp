#include "github/publish/artifact_bounds.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include "core/json_fields.h"
#include "github/publish/conclusion.h"
#include "github/publish/run_artifact.h"
#include "policy/resolve/resolve.h"

namespace lw::github {

namespace json = boost::json;

namespace {

using Exceeded = std::vector<CapExceeded>;

std::string n(std::size_t count) { return std::to_string(count); }

std::string label(const ArtifactShape::StepRef& ref) { return "'" + ref.first + "/" + ref.second + "'"; }

// A step's findings.json and what it reported through the bridge are each
// bounded by its maxOutputBytes (verify/outputs/outputs.h, guard/budget_meter.cpp).
std::size_t stepBytes(const Taskpack& base, const Step& step) {
  const std::int64_t output = step.limits.maxOutputBytes.value_or(base.limits.maxOutputBytes);
  return 2 * static_cast<std::size_t>(std::max<std::int64_t>(output, 0)) + kStepByteAllowance;
}

bool publishesPatchOf(const Taskpack& base, const Step& step) {
  return step.role == Role::Author && base.publication.patches == PatchPublication::Suggestions;
}

// More stages than the base taskpack runs, else the first unknown or repeated one.
void checkStages(const ArtifactShape& a, const ArtifactCaps& caps, Exceeded& out) {
  if (a.stages.size() > caps.stages.size()) {
    out.push_back({"stages", n(a.stages.size()) + " stages; the base taskpack runs " + n(caps.stages.size()) + " on " +
                                 caps.event});
    return;
  }
  std::set<std::string> seen;
  for (const auto& s : a.stages) {
    if (!caps.stages.count(s.name))
      return out.push_back({"stages", "stage '" + s.name + "' is not one the base taskpack runs on " + caps.event});
    if (!seen.insert(s.name).second) return out.push_back({"stages", "stage '" + s.name + "' appears twice"});
  }
}

// The step of `ref`: nullptr when the base taskpack's stage has no such step;
// else whether it is an author step.
const bool* stepOf(const ArtifactCaps& caps, const ArtifactShape::StepRef& ref) {
  auto stage = caps.stages.find(ref.first);
  if (stage == caps.stages.end()) return nullptr;
  auto step = stage->second.find(ref.second);
  return step == stage->second.end() ? nullptr : &step->second;
}

void checkSteps(const ArtifactShape& a, const ArtifactCaps& caps, Exceeded& out) {
  if (a.steps.size() > caps.steps) {
    out.push_back({"steps", n(a.steps.size()) + " step rows; the base taskpack's stages on " + caps.event + " have " +
                                n(caps.steps) + " steps"});
    return;
  }
  std::set<ArtifactShape::StepRef> seen;
  for (const auto& row : a.steps) {
    if (!stepOf(caps, row))
      return out.push_back({"steps", "step row " + label(row) + " is not a step of the base taskpack"});
    if (!seen.insert(row).second) return out.push_back({"steps", "step row " + label(row) + " appears twice"});
  }
}

// Per step of each known stage: the first step the stage does not have,
// else the first step over the per-step cap.
void checkFindings(const ArtifactShape& a, const ArtifactCaps& caps, Exceeded& out) {
  for (const auto& s : a.stages) {
    if (!caps.stages.count(s.name)) continue;  // reported with the stages
    for (const auto& [step, count] : s.findingsPerStep)
      if (!stepOf(caps, {s.name, step}))
        return out.push_back({"findings", "a finding of stage '" + s.name + "' names step '" + step +
                                              "', which that stage of the base taskpack does not have"});
    for (const auto& [step, count] : s.findingsPerStep)
      if (count > caps.findingsPerStep)
        return out.push_back({"findings", "step " + label({s.name, step}) + " has " + n(count) +
                                              " findings; a step reports at most " + n(caps.findingsPerStep)});
  }
}

std::string whyNoChanges(const ArtifactCaps& caps) {
  switch (caps.options.patches) {
    case PatchPublication::Branch: return "the base taskpack pushes changes as a branch, never from an artifact";
    case PatchPublication::None: return "the base taskpack publishes no changes (publication.patches: none)";
    case PatchPublication::Suggestions: break;
  }
  return "the base taskpack has no author step on " + caps.event;
}

void checkChanges(const ArtifactShape& a, const ArtifactCaps& caps, Exceeded& out) {
  if (a.changes.empty()) return;
  if (caps.changes == 0)
    return out.push_back({"changes", n(a.changes.size()) + " proposed changes; " + whyNoChanges(caps)});
  if (a.changes.size() > caps.changes) {
    out.push_back({"changes", n(a.changes.size()) + " proposed changes; the base taskpack has " + n(caps.changes) +
                                  " author steps on " + caps.event});
    return;
  }
  std::set<ArtifactShape::StepRef> seen;
  for (const auto& change : a.changes) {
    const bool* author = stepOf(caps, change);
    if (!author || !*author)
      return out.push_back({"changes", "a change of " + label(change) + ", not an author step of the base taskpack"});
    if (!seen.insert(change).second) return out.push_back({"changes", "two changes of " + label(change)});
  }
}

void checkBytes(const ArtifactShape& a, const ArtifactCaps& caps, Exceeded& out) {
  if (a.bytes > caps.bytes)
    out.push_back(
        {"bytes", "publication.json is " + n(a.bytes) + " bytes; the base taskpack's steps allow " + n(caps.bytes)});
}

void countFinding(ArtifactShape::Stage& stage, std::string_view step) {
  auto it = stage.findingsPerStep.find(step);
  if (it == stage.findingsPerStep.end()) it = stage.findingsPerStep.emplace(std::string(step), 0).first;
  ++it->second;
}

// The array `key` of `v`; null when `v` is no object or it is no array.
const json::array* arrayAt(const json::value& v, std::string_view key) {
  return json_fields::peekMember(v, key).if_array();
}

// The stage and step an item (a step row, a change) names.
ArtifactShape::StepRef refOf(const json::value& item) {
  return {json_fields::textOf(item, "stage"), json_fields::textOf(item, "step")};
}

}  // namespace

ArtifactCaps artifactCapsOf(const Taskpack& base, const std::string& eventName) {
  ArtifactCaps caps;
  caps.event = eventName;
  caps.bytes = kRequestByteAllowance;
  caps.options = base.publication;
  for (const Stage& stage : base.stages) {
    if (!stageMatchesEvent(stage, eventName, "")) continue;
    auto& steps = caps.stages[stage.name];
    for (const Step& step : stage.steps) {
      steps[step.name] = step.role == Role::Author;
      ++caps.steps;
      const bool patch = publishesPatchOf(base, step);
      caps.changes += patch ? 1 : 0;
      caps.bytes += patch ? kMaxArtifactRequestBytes : stepBytes(base, step);
    }
  }
  caps.bytes = std::min(caps.bytes, kMaxArtifactRequestBytes);
  return caps;
}

ArtifactShape shapeOf(const PublicationRequest& request, std::size_t bytes) {
  ArtifactShape a;
  a.bytes = bytes;
  for (const StageResult& s : request.stages) {
    a.stages.push_back({s.name, {}});
    for (const Finding& f : s.findings) countFinding(a.stages.back(), f.step);
  }
  for (const StepRow& row : request.steps) a.steps.emplace_back(row.stage, row.step);
  for (const ProposedChange& c : request.changes) a.changes.emplace_back(c.stage, c.step);
  return a;
}

ArtifactShape shapeOf(const json::value& artifact, std::size_t bytes) {
  ArtifactShape a;
  a.bytes = bytes;
  if (const json::array* stages = arrayAt(artifact, "stages"))
    for (const json::value& s : *stages) {
      a.stages.push_back({json_fields::textOf(s, "name"), {}});
      if (const json::array* findings = arrayAt(s, "findings"))
        for (const json::value& f : *findings) {
          const json::string* step = json_fields::peekMember(f, "step").if_string();
          countFinding(a.stages.back(), step ? std::string_view(*step) : std::string_view());
        }
    }
  if (const json::array* rows = arrayAt(artifact, "steps"))
    for (const json::value& row : *rows) a.steps.push_back(refOf(row));
  if (const json::array* changes = arrayAt(artifact, "changes"))
    for (const json::value& c : *changes) a.changes.push_back(refOf(c));
  return a;
}

std::vector<CapExceeded> capsExceeded(const ArtifactShape& shape, const ArtifactCaps& caps) {
  Exceeded out;
  checkStages(shape, caps, out);
  checkSteps(shape, caps, out);
  checkFindings(shape, caps, out);
  checkChanges(shape, caps, out);
  checkBytes(shape, caps, out);
  return out;
}

Status checkCaps(const ArtifactShape& shape, const ArtifactCaps& caps) {
  auto over = capsExceeded(shape, caps);
  if (over.empty()) return Ok{};
  std::string what;
  for (const CapExceeded& c : over) what += (what.empty() ? "" : "; ") + c.cap + ": " + c.detail;
  return makeError(ErrorCode::PublicationFailed,
                   "the artifact was not published: it is over the base taskpack's caps (" + what + ")",
                   "an artifact carries at most what a run of the base repository's taskpack could have "
                   "produced (docs/fork-pull-requests.md)");
}

Result<PublicationRequest> boundByBaseTaskpack(PublicationRequest request, std::size_t bytes,
                                               const ArtifactCaps& caps) {
  if (auto s = checkCaps(shapeOf(request, bytes), caps); !s) return std::move(s).error();
  request.options = caps.options;
  request.conclusion = judgeRun(request).conclusion;
  return request;
}

}  // namespace lw::github
