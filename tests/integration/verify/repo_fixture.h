// Real git repositories for the verify integration tests. The git CLI plays
// the step (the attacker); loopwright itself only uses libgit2.
#pragma once

#include <map>
#include <string>

#include "core/result.h"
#include "verify/baseline/baseline.h"

namespace lw::test {

// True when the git CLI is on PATH.
bool haveGit();

// A fresh repository in a temporary directory, removed on destruction:
// two commits, packed and loose refs, a tracked executable, a tracked
// symlink, nested directories, an untracked file and ignored files
// (ignored/ and *.log).
class TempRepo {
 public:
  TempRepo();
  ~TempRepo();
  TempRepo(const TempRepo&) = delete;
  TempRepo& operator=(const TempRepo&) = delete;

  const std::string& dir() const { return dir_; }
  // A scratch directory outside the repository (for baseline stores).
  const std::string& scratch() const { return scratch_; }
  // Runs `script` with sh in the repository; returns its exit status.
  int sh(const std::string& script) const;

 private:
  std::string root_, dir_, scratch_;
};

// The baseline of `repo` with default options, its store in the scratch
// directory.
lw::Result<lw::verify::Baseline> baselineOf(const TempRepo& repo);

struct NodeState {
  char type = 'f';  // f file, d dir, l symlink
  unsigned perm = 0;
  std::string content;  // file bytes or link target
  bool operator==(const NodeState&) const = default;
};

// Every entry of the working tree and of .git except objects/ and the
// quarantine refs, with its type, permissions and bytes.
std::map<std::string, NodeState> snapshotBytes(const std::string& repoDir);

// The first difference between two snapshots, "" when equal.
std::string firstDifference(const std::map<std::string, NodeState>& a, const std::map<std::string, NodeState>& b);

}  // namespace lw::test
