// What the pipeline hands to publication: one run's results on one pull
// request or issue. It is plain data so that it can be written to the outbox
// and resumed by another process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"
#include "core/result.h"
#include "core/step_coverage.h"
#include "github/publish/markers.h"
#include "github/publish/proposed_change.h"
#include "github/publish/step_outcome.h"
#include "github/rest/repo_ref.h"
#include "policy/model/taskpack.h"

namespace lw::github {

// One row of the step table in the step summary.
struct StepRow {
  std::string stage;
  std::string step;
  std::string backend;                    // "linux-bwrap"
  std::vector<std::string> capabilities;  // enforced capabilities
  std::int64_t durationMs = 0;
  int exitCode = 0;
  std::vector<std::string> guardrailEvents;  // "loop warn: github.issues.search x3"
  bool blocked = false;
  std::string blocker;                      // the BLOCKER text when blocked
  std::optional<StepOutcome> outcome = {};  // nullopt in entries of older versions
  std::optional<Coverage> coverage = {};    // what a reviewing step covered (coverage.json)
  std::int64_t tokensUsed = 0;              // its model calls' tokens
};

// A finding an earlier trusted review of this pull request posted that this
// run did not report again (github/publish/carry_forward.h): it still counts toward
// the conclusion while its comment stays on the diff, unresolved, and no
// full review of its step dropped it.
struct CarriedFinding {
  std::string fingerprint;  // 16 hex digits, from its marker
  Severity severity = Severity::Error;
  std::string step;
  std::string path;            // where GitHub shows its comment now
  int line = 0;                // the comment's line at the new head
  std::int64_t commentId = 0;  // the review comment that carries it
  // Why it no longer counts ("its lines changed", "a person resolved its
  // thread", "a full review no longer reports it"); empty: it counts.
  std::string stoppedBecause = {};
};

// The findings one stage produced; each stage gets its own check run.
struct StageResult {
  std::string name;
  std::vector<Finding> findings;
  std::vector<CarriedFinding> carried = {};  // earlier reviews' findings of its steps
};

// The check-run conclusions loopwright sets, as the Checks API spells them
// (the names only at the JSON boundary; github/publish/conclusion.h decides).
enum class Conclusion { Success, Neutral, Failure };
std::string_view toString(Conclusion c);
std::optional<Conclusion> conclusionNamed(std::string_view name);

struct PublicationRequest {
  // Unique per run (e.g. "<run id>-<attempt>"): names the outbox entry and
  // the hidden marker of the review, so a resumed run recognises its own work.
  std::string id;
  RepoRef repo;
  int number = 0;  // pull request or issue number
  bool isPullRequest = false;
  std::string headSha;  // the PR head (from the payload), not GITHUB_SHA
  std::vector<StageResult> stages;
  std::vector<TriageResult> triage;
  std::vector<StepRow> steps;
  // Unset until the run is judged, once (concludeRun, github/publish/conclusion.h).
  std::optional<Conclusion> conclusion;
  Publication options;
  // The files this run reviewed whole: an earlier finding of ours that is
  // gone is resolved only in these (a file not looked at says nothing).
  // nullopt: every file of the pull request was reviewed.
  std::optional<std::vector<std::string>> reviewedFiles;
  // Author steps' accepted changes, published as options.patches says.
  std::vector<ProposedChange> changes = {};
  // Who made the findings: this repository's own run, or a fork's job whose
  // artifact is published (github/publish/run_artifact.h sets it, whatever the
  // artifact says). The markers carry it.
  Origin origin = Origin::Trusted;
};

// Every finding of every stage, in stage order.
std::vector<Finding> allFindings(const PublicationRequest& request);

// The carried findings of a stage that still count.
std::vector<CarriedFinding> stillCounting(const StageResult& stage);

// "1 error carried from an earlier review, at `src/app.c:2`": one line per
// severity that still counts, none when none does.
std::vector<std::string> carriedSummary(const std::vector<CarriedFinding>& carried);

boost::json::value toJson(const PublicationRequest& request);
// Fails with PUBLICATION_FAILED naming the JSON path of the first bad field.
Result<PublicationRequest> publicationFromJson(const boost::json::value& json);

// True when a finding of severity `s` makes a check fail under `failOn`.
bool failsAt(Severity s, FailOn failOn);

}  // namespace lw::github
