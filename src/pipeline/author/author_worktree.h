// An author step's own worktree (docs/author-steps.md): a linked worktree of
// the orchestrator's checkout, detached at the run's head commit, under
// <stateDir>/worktrees/, held under a lease (lease/owned_resource.h) from
// before it exists until after it is gone. The plan is pure; AuthorWorktree
// and reclaimExpiredWorktrees carry it out.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "lease/lease.h"
#include "lease/renewer.h"
#include "policy/model/effective_policy.h"
#include "verify/git/worktree.h"

namespace lw::pipeline {

// Where one author step's worktree goes and how it is leased.
struct WorktreePlan {
  std::string name;              // "<run>-<stage>-<step>": the directory and git's name for it
  std::string resource;          // "worktree.<run>.<stage>.<step>": the lease
  std::filesystem::path path;    // <stateDir>/worktrees/<name>
  std::filesystem::path record;  // <stateDir>/worktrees/<name>.json: what a reclaim needs
  std::string holder;            // "run <run> step <stage>/<step> pid <pid>"
  lease::Ttl ttl{0};             // renewed every third of it while the worktree exists
};

// The plan for `step` of run `runId`, in process `pid`. Characters outside
// [A-Za-z0-9._-] become '_' (a name is a file name, a ref component and a
// lease resource); the lease resource is cut at 128 characters.
WorktreePlan planWorktree(const std::filesystem::path& stateDir, const std::string& runId, const EffectiveStep& step,
                          long pid);

// A claimed, created worktree, its lease renewed on a thread of its own
// until the teardown. Torn down (marker, remove and prune, release) by
// teardown(), or at the latest when destroyed.
class AuthorWorktree {
 public:
  // Claims the plan's lease, records the worktree for a later reclaim, and
  // adds it to `repo` at `commit`. LEASE_UNAVAILABLE when another holder has
  // it; IO_ERROR when it cannot be made (nothing is left behind then).
  static Result<std::unique_ptr<AuthorWorktree>> open(lease::Store& store, const WorktreePlan& plan,
                                                      const std::filesystem::path& repo, const std::string& commit);
  ~AuthorWorktree();
  AuthorWorktree(const AuthorWorktree&) = delete;
  AuthorWorktree& operator=(const AuthorWorktree&) = delete;

  const verify::LinkedWorktree& tree() const { return tree_; }
  const std::filesystem::path& repo() const { return repo_; }
  // Succeeds while this run still holds the lease (LEASE_LOST otherwise):
  // checked before anything is written for the worktree.
  Status checkFence();
  // Irreversible; idempotent. Marker, remove, prune, release.
  Status teardown();

 private:
  AuthorWorktree(lease::Store& store, const lease::Lease& held, lease::Ttl ttl, std::filesystem::path repo,
                 verify::LinkedWorktree tree, std::filesystem::path record);
  lease::Store& store_;
  lease::Renewer renewer_;  // from the claim until the teardown begins
  std::filesystem::path repo_;
  verify::LinkedWorktree tree_;
  std::filesystem::path record_;
  bool tornDown_ = false;
};

// Worktrees under <stateDir>/worktrees/ whose lease is free or expired (a
// run that crashed, or was killed, before its teardown): each is claimed,
// then torn down under the lease like any other. One still held, or being
// torn down, is left alone. Returns a line per worktree reclaimed or that
// could not be.
std::vector<std::string> reclaimExpiredWorktrees(lease::Store& store, const std::filesystem::path& stateDir,
                                                 const std::string& holder);

}  // namespace lw::pipeline
