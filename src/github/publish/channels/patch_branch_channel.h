// Publishing an author's change as a commit on a branch (publication.patches:
// branch; docs/author-steps.md, "Publishing the change"): the orchestrator
// pushes loopwright/<run>/<step> and links it from the pull request with one
// comment per change, found again by its hidden marker and edited in place.
// The git work is behind BranchPusher (pipeline/author/patch_branch.h does it with
// libgit2); a push that fails fails the channel, and the publication stays
// in the outbox for the next run or `loopwright publish --resume`.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "github/publish/channel_outcome.h"
#include "github/publish/proposed_change.h"
#include "github/publish/publication.h"

namespace lw::github {

struct PushedBranch {
  std::string branch;         // "loopwright/<run>/<step>"
  std::string commit;         // the commit the branch points at
  bool alreadyThere = false;  // an earlier attempt pushed this very commit
};

class BranchPusher {
 public:
  virtual ~BranchPusher() = default;
  // Commits `change` onto its base commit and pushes it to `branch` on the
  // repository's remote. Never overwrites a branch that points elsewhere.
  // Fails with PUBLICATION_FAILED.
  virtual Result<PushedBranch> push(const PublicationRequest& request, const ProposedChange& change,
                                    const std::string& branch) = 0;
};

// "loopwright/<run>/<step>" (or <stage>-<step> when another change of the
// request has the same step name), each part reduced to characters a ref
// name may hold.
std::string branchNameFor(const PublicationRequest& request, const ProposedChange& change);

// "<!-- loopwright:patch-branch:<run>:<stage>/<step> -->"
std::string patchBranchMarker(const std::string& runId, const ProposedChange& change);

// The linking comment: the marker, the branch, the commit and the compare
// link on `webHost` (github.com, or a GitHub Enterprise host).
std::string patchBranchComment(const PublicationRequest& request, const ProposedChange& change,
                               const PushedBranch& pushed, const std::string& webHost);

struct PublishContext;
// One outcome per change when options.patches is branch (none otherwise).
// `pusher` null (a process without the repository): each change fails, so
// the publication stays pending for a process that has it.
std::vector<ChannelOutcome> publishPatchBranches(PublishContext& ctx, BranchPusher* pusher);

}  // namespace lw::github
