// The bridge's GitHub read tools (github.pull, github.pulls.diff,
// github.pulls.files, github.file, github.issue, github.issues.search,
// github.labels): strict argument schemas and the JSON the step reads, over a
// GithubReader the orchestrator supplies. The step never holds a token; each
// session offers only the tools its grants name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "bridge/tool_registry.h"
#include "core/github_reads.h"

namespace lw::bridge {

// The seven tools, each calling `reader` (shared by the run's steps, so it
// must be thread-safe).
std::vector<Tool> githubReadTools(std::shared_ptr<GithubReader> reader);

// The names githubReadTools() registers, in the order it returns them.
std::vector<std::string> githubReadToolNames();

// The answers' JSON, as the tools return them (docs/github-read-tools.md).
boost::json::object toJson(const PullSummary& p);
boost::json::object toJson(const PullDiff& d);
boost::json::object toJson(const PullFiles& f);
boost::json::object toJson(const FileAtRef& f);
boost::json::object toJson(const IssueThread& t);
boost::json::object toJson(const IssueSearch& s);
boost::json::object toJson(const std::vector<RepoLabel>& labels);

// github.file's path rule: relative, '/'-separated, no '.' or '..' part, no
// NUL or backslash. Returns why a path breaks it, or "" when it does not.
std::string filePathProblem(const std::string& path);

}  // namespace lw::bridge
