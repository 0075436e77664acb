// `/loopwright review` and `/loopwright triage` in an issue comment: which
// command a comment gives, and whether its author may give it. Only people
// with write access to the repository may start a run by commenting, since
// a run spends the repository's model budget and posts in its name
// (docs/comment-commands.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "github/rest/repo_ref.h"
#include "github/rest/rest_client.h"

namespace lw::github {

enum class CommentCommand { Review, Triage };
std::string_view toString(CommentCommand c);

// The command a comment body starts with (leading blank lines and spaces
// ignored; the word must end there, "/loopwright reviewed" is none), or
// nullopt for any other comment.
std::optional<CommentCommand> parseCommentCommand(std::string_view body);

// True for the permissions that may run a command: admin, maintain, write.
bool permissionMayCommand(std::string_view permission);

// GET /repos/{owner}/{repo}/collaborators/{login}/permission: the
// commenter's permission ("admin", "maintain", "write", "triage", "read",
// "none"); a 404 (not a collaborator) and a login that is no user's (an
// app's "name[bot]") are "none". Fails with
// PUBLICATION_FAILED on any other non-2xx answer or a body without
// `permission`.
Result<std::string> fetchPermission(RestClient& api, const RepoRef& repo, const std::string& login);

}  // namespace lw::github
