// The git half of publication.patches: branch. The orchestrator (never a
// step) applies an accepted patch to its base commit's tree in memory, commits
// it and pushes the commit to refs/heads/loopwright/<run>/<step> of the
// repository's remote. The commit is written to a scratch repository that
// borrows the checkout's objects (an alternate), so the orchestrator's
// checkout, its refs and its object store are left byte-for-byte as they were.
#pragma once

#include <string>

#include "github/publish/channels/patch_branch_channel.h"
#include "github/rest/rest_client.h"

namespace lw::pipeline {

struct PatchBranchConfig {
  std::string checkout;                // the orchestrator's repository (its origin, its objects)
  std::string webHost = "github.com";  // for https://<web host>/<owner>/<repo>.git
  std::string scratchDir;              // where the scratch repository is made and removed (the state dir)
  // The job's token, given to libgit2 only through the credentials callback
  // for an https URL (or http to loopback), as user x-access-token: never in
  // a URL, a config file or a step's environment.
  std::string token;
};

// The configuration `loopwright run` (and `publish --resume`, in the job's
// workspace) gives its pusher: the token and web host of the REST client,
// scratch space in the state directory.
PatchBranchConfig patchBranchConfigFor(const std::string& checkout, const std::string& stateDir,
                                       const github::RestConfig& rest);

// Where a change of `repo` is pushed: the checkout's origin when it names that
// repository (its path ends in <owner>/<repo>, .git optional), else
// https://<web host>/<owner>/<repo>.git, the repository's clone URL. A
// publication resumed in another repository's checkout never goes to its origin.
std::string pushUrlFor(const std::string& origin, const github::RepoRef& repo, const std::string& webHost);

// Whether a remote URL may be sent the token: https, or http to a loopback host.
bool mayCarryToken(const std::string& url);

// The URL without user information ("https://user:pw@host/x" -> "https://host/x"):
// credentials come from the callback alone.
std::string withoutUserInfo(const std::string& url);

class GitBranchPusher final : public github::BranchPusher {
 public:
  explicit GitBranchPusher(PatchBranchConfig config) : config_(std::move(config)) {}
  Result<github::PushedBranch> push(const github::PublicationRequest& request, const github::ProposedChange& change,
                                    const std::string& branch) override;

 private:
  PatchBranchConfig config_;
};

}  // namespace lw::pipeline
