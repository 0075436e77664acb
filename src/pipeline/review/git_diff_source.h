// The pull request's unified diff from the local clone (libgit2), for when
// GitHub's API refuses a large diff with 406.
#pragma once

#include <string>

#include "github/publish/channels/publisher.h"

namespace lw::pipeline {

class GitDiffSource final : public github::DiffSource {
 public:
  GitDiffSource(std::string repoDir, std::string baseSha)
      : repoDir_(std::move(repoDir)), baseSha_(std::move(baseSha)) {}
  // base..head as `git diff` prints it. IO_ERROR when a commit is missing.
  Result<std::string> unifiedDiff(const github::PublicationRequest& request) override;

 private:
  std::string repoDir_;
  std::string baseSha_;
};

}  // namespace lw::pipeline
