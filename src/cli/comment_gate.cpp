#include "cli/comment_gate.h"

#include "github/rest/live_rest_client.h"

namespace lw::cli {

namespace {

std::string commandText(github::CommentCommand c) { return "`/loopwright " + std::string(toString(c)) + "`"; }

}  // namespace

std::optional<github::CommentCommand> commandOf(const pipeline::EventInput& event) {
  if (event.name != "issue_comment" || !event.typed) return std::nullopt;
  return github::parseCommentCommand(event.typed->commentBody);
}

StageSelection selectStages(const pipeline::EventInput& event, std::optional<github::CommentCommand> command,
                            const std::string& permission) {
  if (!command || !event.typed) return {event.name, event.action, ""};
  const github::GithubEvent& ev = *event.typed;
  const std::string where = ev.repository.fullName() + "#" + std::to_string(ev.number);
  if (*command == github::CommentCommand::Review && !ev.isPullRequest)
    return {event.name, event.action,
            commandText(*command) + " was not run: " + where + " is an issue, and a review needs a pull request"};
  if (!github::permissionMayCommand(permission))
    return {event.name, event.action,
            commandText(*command) + " from @" + ev.commentAuthor + " was not run: their permission on " +
                ev.repository.fullName() + " is '" + permission + "' (write, maintain or admin may run commands)"};
  if (*command == github::CommentCommand::Review) return {"pull_request", "", ""};
  return {"issues", "", ""};
}

Result<StageSelection> gateStages(const pipeline::EventInput& event, const Environment& env, std::ostream& log) {
  auto command = commandOf(event);
  if (!command) return selectStages(event, command, "");
  github::RestConfig config = github::restConfigFromEnvironment(env);
  if (config.token.empty())
    return makeError(ErrorCode::UsageError,
                     commandText(*command) + " needs the commenter's permission, read from the API",
                     "set GITHUB_TOKEN (the action passes its github-token input)");
  github::LiveRestClient client(config, &log);
  github::RestClient& api = client.api();
  auto permission = github::fetchPermission(api, event.typed->repository, event.typed->commentAuthor);
  if (!permission) return std::move(permission).error();
  return selectStages(event, command, *permission);
}

}  // namespace lw::cli
