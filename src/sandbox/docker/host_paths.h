// Facts about the host paths a step names, gathered before planning so that
// the container planner stays pure. A bind mount follows symlinks in its
// source on the host, so the planner must know where each path really leads.
#pragma once

#include <filesystem>
#include <map>
#include <vector>

#include "sandbox/backend.h"

namespace lw::sandbox::docker {

enum class PathKind { Missing, Directory, File, Other };

struct PathFact {
  PathKind kind = PathKind::Missing;  // of what the path leads to (symlinks followed)
  bool isSymlink = false;             // the last component itself is a symlink
  std::filesystem::path real;         // canonical path; empty when Missing
};

using PathFacts = std::map<std::filesystem::path, PathFact>;

// `p` made absolute against `workspace` when relative, then lexically
// normalised without a trailing slash (policy paths are workspace-relative).
std::filesystem::path anchoredPath(const std::filesystem::path& workspace, const std::filesystem::path& p);

// Every path of `spec` the planner looks up, anchored as above.
std::vector<std::filesystem::path> pathsToObserve(const StepSpec& spec);

// Looks each path up on this host (lstat, stat, realpath). Never fails: a
// path that cannot be looked up is Missing.
PathFacts observePaths(const std::vector<std::filesystem::path>& paths);

}  // namespace lw::sandbox::docker
