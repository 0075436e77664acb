// GitHub's REST (and webhook) JSON turned into the bridge's read values of
// core/github_reads.h. Pure: no HTTP here. A missing or mistyped field fails
// with IO_ERROR naming its JSON path.
#pragma once

#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include "core/github_reads.h"

namespace lw::github {

// A pull request object (GET pulls/{n}, or a webhook's "pull_request").
Result<PullSummary> pullFromJson(const boost::json::value& pr);

// The entries of GET pulls/{n}/files or of compare's "files". GitHub sends
// no `patch` for a binary file (nor for a diff too large to show, which
// still counts its lines), so a file without one and without counted lines
// is flagged binary.
Result<std::vector<ChangedFile>> filesFromJson(const boost::json::array& files);

// An issue (GET issues/{n}) and its comments (GET issues/{n}/comments).
Result<IssueThread> issueFromJson(const boost::json::value& issue, const boost::json::array& comments);

// GET search/issues.
Result<IssueSearch> searchFromJson(const boost::json::value& body);

// GET labels.
Result<std::vector<RepoLabel>> labelsFromJson(const boost::json::array& labels);

}  // namespace lw::github
