// A commit pushed to a new ref of a remote, through libgit2: the only push
// loopwright makes (publication.patches: branch), never a forced one.
#pragma once

#include <string>

#include "verify/git/libgit2.h"

namespace lw::verify {

// What the remote had at the ref a push was asked to create.
struct NewRefPush {
  enum class Outcome { Pushed, AlreadyThere, TakenByAnother };
  Outcome outcome = Outcome::Pushed;
  std::string existing;  // the remote's commit, for TakenByAnother
};

// Pushes commit `commit` of `repo` to `ref` of the remote at `url` when the
// remote has no such ref; leaves the remote as it is when the ref is there
// (at this commit or another). A non-empty `token` is offered once, as the
// password of user x-access-token, to a remote that asks for one: the caller
// decides which URLs may see it. IO_ERROR when the remote cannot be reached,
// refuses the update or the push fails.
Result<NewRefPush> pushNewRef(git_repository* repo, const std::string& url, const std::string& ref,
                              const git_oid& commit, const std::string& token);

}  // namespace lw::verify
