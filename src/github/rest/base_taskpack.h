// The taskpack of a pull request's base commit, read through the REST API,
// for the one job that checks nothing out: the fork split's publishing half
// (docs/fork-pull-requests.md), whose caps and publication options are the
// base repository's, never the artifact's.
#pragma once

#include <string>

#include "core/result.h"
#include "github/rest/repo_ref.h"
#include "github/rest/rest_client.h"
#include "policy/load/taskpack_loader.h"

namespace lw::github {

// GET /repos/{owner}/{repo}/contents/{path}?ref={commit}, parsed with the
// taskpack loader. Fails with PUBLICATION_FAILED (nothing may be published
// without it) when the file is missing at that commit, is over 64 KiB or
// binary, cannot be read, or is not a valid taskpack; the loader's
// diagnostics are kept.
Result<Taskpack> fetchBaseTaskpack(RestClient& api, const RepoRef& repo, const std::string& commit,
                                   const std::string& path, const TaskpackLoadOptions& options);

}  // namespace lw::github
