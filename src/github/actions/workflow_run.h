// The `workflow_run` event that starts the publishing half of the fork
// split (docs/fork-pull-requests.md): which run produced the artifact, on
// which commit of which repository. It is GitHub's word, not the
// artifact's, so it decides where a publication may go.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/environment.h"
#include "core/result.h"
#include "github/rest/repo_ref.h"

namespace lw::github {

struct WorkflowRun {
  RepoRef repository;          // the base repository (where the workflow runs)
  std::int64_t id = 0;         // workflow_run.id: the run that made the artifact
  std::int64_t attempt = 1;    // workflow_run.run_attempt
  std::string event;           // what started that run: "pull_request"
  std::string headSha;         // the commit it ran on
  std::string headRepository;  // head_repository.full_name: a fork's for a fork
  // workflow_run.pull_requests[].number whose base is this repository.
  // GitHub leaves the list empty when the head is a fork.
  std::vector<int> pullNumbers;
};

// Parses a workflow_run payload. Fails with EVENT_INVALID naming the JSON
// path of a missing or mistyped field, and `source` as the file.
Result<WorkflowRun> parseWorkflowRun(std::string_view jsonText, const std::string& source);

// GITHUB_EVENT_NAME must be workflow_run; reads GITHUB_EVENT_PATH. Fails
// with USAGE_ERROR for another event, EVENT_INVALID for a bad payload.
Result<WorkflowRun> loadWorkflowRun(const Environment& env);

}  // namespace lw::github
