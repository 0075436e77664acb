// An issue_comment on a pull request names the pull request but not its
// commits (the payload has issue.pull_request, no head or base). They are
// read from the API before the run, so the steps' reads diff base...head
// and the review is published on the pull request's current head.
#pragma once

#include <ostream>

#include "core/environment.h"
#include "core/result.h"
#include "github/actions/github_event.h"
#include "github/rest/pulls.h"
#include "pipeline/run/run_setup.h"

namespace lw::cli {

// Pure: a pull request event without its head commit.
bool needsPullLookup(const github::GithubEvent& event);

// Pure: the event with the pull request's commits and fork status.
void applyPull(github::GithubEvent& event, const github::PullInfo& pull);

// Reads the pull request (GET pulls/{n}, with GITHUB_TOKEN) when the event
// needs it; USAGE_ERROR without a token, the API's error otherwise.
Status completePullRequestEvent(pipeline::EventInput& event, const Environment& env, std::ostream& log);

}  // namespace lw::cli
