// What a fork's artifact may carry: no more than a run of the base
// repository's taskpack could have produced (docs/fork-pull-requests.md,
// "Caps"). Every count that turns into writes to GitHub (check runs,
// annotation batches, inline comments, suggestions) is bounded here, from
// the base taskpack, before anything is posted; the publication options are
// the base taskpack's, never the artifact's.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include "core/result.h"
#include "github/publish/publication.h"
#include "policy/model/taskpack.h"

namespace lw::github {

// What one findings.json or one findings.report call may hold
// (schemas/findings.schema.json, "maxItems"): the findings of one step.
inline constexpr std::size_t kMaxFindingsPerStep = 1000;
// Per step, beside its findings: its coverage (coverage.json is at most
// 1 MiB, pipeline/step/coverage_output.h), its row of the step table and the keys
// the run adds to each finding.
inline constexpr std::size_t kStepByteAllowance = 1u << 20;
// Per request: its own fields (id, repository, head, options).
inline constexpr std::size_t kRequestByteAllowance = 64u << 10;

// The caps one base taskpack sets, for one event.
struct ArtifactCaps {
  std::string event;  // the event the caps are for: "pull_request"
  // The stages that run on the event, each with its steps; true for an
  // author step (the only kind that proposes a change).
  std::map<std::string, std::map<std::string, bool>> stages;
  std::size_t steps = 0;
  std::size_t findingsPerStep = kMaxFindingsPerStep;
  std::size_t changes = 0;  // author steps, when changes are published as suggestions
  std::size_t bytes = 0;    // of publication.json
  Publication options;      // the base taskpack's publication
};

// Pure. The caps of `base` for a run started by `eventName` ("pull_request"):
// its stages whose `on:` names that event; per step kMaxFindingsPerStep
// findings; bytes: kRequestByteAllowance, and per step twice its
// limits.maxOutputBytes (findings.json and the bridge are each bounded by
// it) and kStepByteAllowance, or kMaxArtifactRequestBytes for an author step
// whose patch is published (a patch is as large as the change); at most
// kMaxArtifactRequestBytes.
ArtifactCaps artifactCapsOf(const Taskpack& base, const std::string& eventName);

// What the caps are checked on: the names and counts of an artifact.
struct ArtifactShape {
  using StepRef = std::pair<std::string, std::string>;  // stage, step
  struct Stage {
    std::string name;
    std::map<std::string, std::size_t, std::less<>> findingsPerStep;  // by the step each names
  };
  std::vector<Stage> stages;
  std::vector<StepRef> steps;    // the step rows
  std::vector<StepRef> changes;  // whose change each proposed change is
  std::size_t bytes = 0;         // of publication.json
};

// Pure. The shape of a request read from `bytes` of publication.json.
ArtifactShape shapeOf(const PublicationRequest& request, std::size_t bytes);
// Pure. The shape of publication.json's document as publicationFromJson
// reads it, so that the caps are checked before a request is built; a
// member of a type it refuses counts as absent (the request is refused).
ArtifactShape shapeOf(const boost::json::value& artifact, std::size_t bytes);

// One cap an artifact exceeds: which ("stages", "steps", "findings",
// "changes", "bytes") and what it holds against what the cap allows.
struct CapExceeded {
  std::string cap;
  std::string detail;
};

// Pure. Every cap `shape` exceeds, in the order above; empty when it is
// within them. A name the base taskpack does not have (stage, step row,
// finding's step, change's step) exceeds the cap of its kind.
std::vector<CapExceeded> capsExceeded(const ArtifactShape& shape, const ArtifactCaps& caps);

// Pure. Fails with PUBLICATION_FAILED naming each cap `shape` exceeds with
// its numbers.
Status checkCaps(const ArtifactShape& shape, const ArtifactCaps& caps);

// Pure. The artifact's request (read from `bytes` of publication.json) as it
// may be published: within `caps` (checkCaps), with the base taskpack's
// publication options and its conclusion judged under them
// (github/publish/conclusion.h), not the artifact's.
Result<PublicationRequest> boundByBaseTaskpack(PublicationRequest request, std::size_t bytes, const ArtifactCaps& caps);

}  // namespace lw::github
