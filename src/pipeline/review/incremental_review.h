// On `pull_request.synchronize`, the head loopwright last reviewed whole on
// the pull request (from its review's hidden marker), so the steps review
// only what changed since: RunContext::lastReviewedHead.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

#include "core/environment.h"
#include "core/result.h"
#include "github/actions/github_event.h"

namespace lw::pipeline {

// Pure: a push to an open pull request (pull_request or
// pull_request_target, action synchronize), where earlier reviews exist.
bool wantsIncrementalReview(const github::GithubEvent& event);

// True when `ancestor` is `descendant` or one of its ancestors in the clone
// at `repoDir`. IO_ERROR when either commit is missing (a force-push, a
// shallow clone).
Result<bool> isAncestorCommit(const std::string& repoDir, const std::string& ancestor, const std::string& descendant);

// The last reviewed head to review from, or "" for a review of the whole
// change: not a synchronize, no token (GITHUB_TOKEN), no earlier review of
// ours, GitHub unreachable, or a head the clone does not have below the new
// one. Each "" after a look-up says why on `log`.
std::string lastReviewedHeadFor(const github::GithubEvent& event, const std::filesystem::path& repo,
                                const Environment& env, std::ostream& log);

}  // namespace lw::pipeline
