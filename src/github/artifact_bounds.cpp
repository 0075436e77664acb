#include "github/artifact_bounds.h"

#include <algorithm>
#include <set>
#include <utility>

#include "github/conclusion.h"
#include "github/run_artifact.h"
#include "policy/resolve.h"

namespace lw::github {

namespace {

using Exceeded = std::vector<CapExceeded>;

std::string n(std::size_t count) { return std::to_string(count); }

std::string label(const std::string& stage, const std::string& step) { return "'" + stage + "/" + step + "'"; }

// A step's findings.json and what it reported through the bridge are each
// bounded by its maxOutputBytes (verify/outputs.h, guard/budget_meter.cpp).
std::size_t stepBytes(const Taskpack& base, const Step& step) {
  const std::int64_t output = step.limits.maxOutputBytes.value_or(base.limits.maxOutputBytes);
  return 2 * static_cast<std::size_t>(std::max<std::int64_t>(output, 0)) + kStepByteAllowance;
}

bool publishesPatchOf(const Taskpack& base, const Step& step) {
  return step.role == Role::Author && base.publication.patches == PatchPublication::Suggestions;
}

// More stages than the base taskpack runs, else the first unknown or repeated one.
void checkStages(const PublicationRequest& r, const ArtifactCaps& caps, Exceeded& out) {
  if (r.stages.size() > caps.stages.size()) {
    out.push_back({"stages", n(r.stages.size()) + " stages; the base taskpack runs " + n(caps.stages.size()) + " on " +
                                 caps.event});
    return;
  }
  std::set<std::string> seen;
  for (const StageResult& s : r.stages) {
    if (!caps.stages.count(s.name))
      return out.push_back({"stages", "stage '" + s.name + "' is not one the base taskpack runs on " + caps.event});
    if (!seen.insert(s.name).second) return out.push_back({"stages", "stage '" + s.name + "' appears twice"});
  }
}

bool hasStep(const ArtifactCaps& caps, const std::string& stage, const std::string& step) {
  auto it = caps.stages.find(stage);
  return it != caps.stages.end() && it->second.count(step) != 0;
}

void checkSteps(const PublicationRequest& r, const ArtifactCaps& caps, Exceeded& out) {
  if (r.steps.size() > caps.steps) {
    out.push_back({"steps", n(r.steps.size()) + " step rows; the base taskpack's stages on " + caps.event + " have " +
                                n(caps.steps) + " steps"});
    return;
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (const StepRow& row : r.steps) {
    if (!hasStep(caps, row.stage, row.step))
      return out.push_back({"steps", "step row " + label(row.stage, row.step) + " is not a step of the base taskpack"});
    if (!seen.insert({row.stage, row.step}).second)
      return out.push_back({"steps", "step row " + label(row.stage, row.step) + " appears twice"});
  }
}

// Per step of each known stage; the first finding of a step the stage does
// not have, and the first step over the per-step cap.
void checkFindings(const PublicationRequest& r, const ArtifactCaps& caps, Exceeded& out) {
  for (const StageResult& s : r.stages) {
    auto stage = caps.stages.find(s.name);
    if (stage == caps.stages.end()) continue;  // reported with the stages
    std::map<std::string, std::size_t> perStep;
    for (const Finding& f : s.findings) {
      if (!stage->second.count(f.step))
        return out.push_back({"findings", "a finding of stage '" + s.name + "' names step '" + f.step +
                                              "', which that stage of the base taskpack does not have"});
      ++perStep[f.step];
    }
    for (const auto& [step, count] : perStep)
      if (count > caps.findingsPerStep)
        return out.push_back({"findings", "step " + label(s.name, step) + " has " + n(count) +
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

void checkChanges(const PublicationRequest& r, const ArtifactCaps& caps, Exceeded& out) {
  if (r.changes.empty()) return;
  if (caps.changes == 0)
    return out.push_back({"changes", n(r.changes.size()) + " proposed changes; " + whyNoChanges(caps)});
  if (r.changes.size() > caps.changes) {
    out.push_back({"changes", n(r.changes.size()) + " proposed changes; the base taskpack has " + n(caps.changes) +
                                  " author steps on " + caps.event});
    return;
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (const ProposedChange& c : r.changes) {
    auto stage = caps.stages.find(c.stage);
    bool author = stage != caps.stages.end() && stage->second.count(c.step) && stage->second.at(c.step);
    if (!author)
      return out.push_back(
          {"changes", "a change of " + label(c.stage, c.step) + ", not an author step of the base taskpack"});
    if (!seen.insert({c.stage, c.step}).second)
      return out.push_back({"changes", "two changes of " + label(c.stage, c.step)});
  }
}

void checkBytes(std::size_t bytes, const ArtifactCaps& caps, Exceeded& out) {
  if (bytes > caps.bytes)
    out.push_back(
        {"bytes", "publication.json is " + n(bytes) + " bytes; the base taskpack's steps allow " + n(caps.bytes)});
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

std::vector<CapExceeded> capsExceeded(const PublicationRequest& request, std::size_t bytes, const ArtifactCaps& caps) {
  Exceeded out;
  checkStages(request, caps, out);
  checkSteps(request, caps, out);
  checkFindings(request, caps, out);
  checkChanges(request, caps, out);
  checkBytes(bytes, caps, out);
  return out;
}

Result<PublicationRequest> boundByBaseTaskpack(PublicationRequest request, std::size_t bytes,
                                               const ArtifactCaps& caps) {
  auto over = capsExceeded(request, bytes, caps);
  if (!over.empty()) {
    std::string what;
    for (const CapExceeded& c : over) what += (what.empty() ? "" : "; ") + c.cap + ": " + c.detail;
    return makeError(ErrorCode::PublicationFailed,
                     "the artifact was not published: it is over the base taskpack's caps (" + what + ")",
                     "an artifact carries at most what a run of the base repository's taskpack could have "
                     "produced (docs/fork-pull-requests.md)");
  }
  request.options = caps.options;
  request.conclusion = std::string(toString(judgeRun(request).conclusion));
  return request;
}

}  // namespace lw::github
