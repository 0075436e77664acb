// Publication of one run to GitHub: the PR review, a check run per stage,
// triage labels and the sticky comment, then the step summary and outputs.
// Each channel's progress is saved in the outbox as it lands; a write GitHub
// refuses (403/404, e.g. a fork's read-only token) or that keeps failing
// leaves its findings as workflow-command annotations and in the step
// summary. Nothing is dropped silently.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "github/publish/channel_outcome.h"
#include "github/publish/outbox.h"
#include "github/publish/publication.h"
#include "github/rest/own_login.h"
#include "github/rest/rest_client.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::github {

class BranchPusher;  // channels/patch_branch_channel.h

// The unified diff of a pull request from the local clone (libgit2), for
// when the API refuses a large diff with 406. The integrator provides it.
struct PublisherConfig {
  std::string stepSummaryPath;  // GITHUB_STEP_SUMMARY; empty: none
  std::string outputPath;       // GITHUB_OUTPUT; empty: none
  // Whose comments count as ours when GET /user is refused.
  std::string fallbackLogin = kActionsBotLogin;
  // Pushes author changes as branches (publication.patches: branch); null
  // in a process without the repository, which then leaves them pending.
  BranchPusher* branchPusher = nullptr;
  // The run's secret values: masked in every text published, after it was
  // made inert (token shapes are masked without them).
  std::vector<std::string> secrets;
};

class Publisher {
 public:
  // `log` receives workflow commands and progress lines (the step's stdout).
  Publisher(RestClient& api, Outbox& outbox, PublisherConfig config, std::ostream& log,
            DiffSource* diffSource = nullptr);

  // Writes the request to the outbox, then publishes it. Returns the outcome
  // when every finding is on GitHub or, after a permission refusal, in
  // annotations and the summary (the outbox entry is then finished). Fails
  // with PUBLICATION_FAILED when a channel kept failing: the entry stays
  // pending for --resume, and the summary and annotations were written.
  Result<PublicationOutcome> publish(const PublicationRequest& request);

  // Publishes every pending outbox entry (of repository `only`, when given:
  // a job's token is its own repository's); fails on the first entry that
  // fails, after trying all of them. Entries another process is publishing
  // are left to it.
  Result<std::vector<PublicationOutcome>> resumeAll(const std::optional<RepoRef>& only = std::nullopt);

 private:
  Result<PublicationOutcome> run(OutboxEntry& entry);
  // Saves a failed publication's reason and keeps it pending, or parks it
  // after kMaxPublishAttempts; returns the error to report.
  Error keepFailed(OutboxEntry& entry, const PublicationOutcome& outcome);

  RestClient& api_;
  Outbox& outbox_;
  PublisherConfig config_;
  verify::SecretScanner secrets_;
  std::ostream& log_;
  DiffSource* diffSource_;
};

}  // namespace lw::github
