// Where a run's taskpack comes from. For pull_request events it is read from
// the base commit, never from the pull request's own tree, so that a pull
// request cannot weaken its own review (docs/taskpack.md).
#pragma once

#include <string>

#include "core/result.h"

namespace lw::cli {

struct TaskpackText {
  std::string text;
  std::string source;  // "<sha>:.loopwright/taskpack.yaml" or a file path
};

// The file `path` (repository-relative) as committed in `commitSha`. Fails
// with TASKPACK_INVALID when the commit or the file is missing, with a hint to
// fetch the base commit.
Result<TaskpackText> readTaskpackAtCommit(const std::string& repoDir, const std::string& commitSha,
                                          const std::string& path);

// True for events whose head is untrusted contributed code.
bool isPullRequestEvent(const std::string& eventName);

}  // namespace lw::cli
