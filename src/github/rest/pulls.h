// What an issue_comment event on a pull request lacks: the PR's head and
// base commits and whether it comes from a fork, fetched from the API.
#pragma once

#include <string>

#include "core/result.h"
#include "github/rest/repo_ref.h"
#include "github/rest/rest_client.h"

namespace lw::github {

struct PullInfo {
  std::string headSha;
  std::string baseSha;
  bool fromFork = false;  // head repository differs from the base, or was deleted
  std::string headRepo;   // head.repo.full_name; empty when the fork was deleted
};

// GET /repos/{owner}/{repo}/pulls/{number}. Fails with PUBLICATION_FAILED on
// a non-2xx answer or a body without head.sha.
Result<PullInfo> fetchPull(RestClient& api, const RepoRef& repo, int number);

}  // namespace lw::github
