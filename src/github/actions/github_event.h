// The GitHub Actions event that started a run, parsed from its webhook
// payload into one typed value whatever the event name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/environment.h"
#include "core/result.h"
#include "github/rest/repo_ref.h"

namespace lw::github {

struct GithubEvent {
  std::string name;    // "pull_request", "pull_request_target", "issues", …
  std::string action;  // "opened", "synchronize"; empty for workflow_dispatch
  RepoRef repository;
  int number = 0;              // PR or issue number; 0 for workflow_dispatch
  bool isPullRequest = false;  // also true for an issue_comment on a PR
  std::string headSha;         // PR head from the payload (GITHUB_SHA is the merge commit)
  std::string baseSha;
  std::string headRef;  // branch names; for workflow_dispatch the ref dispatched
  std::string baseRef;
  std::string authorAssociation;         // of the PR or issue author ("OWNER", "NONE", …)
  std::string commentAuthorAssociation;  // issue_comment only: of the commenter
  std::string commentAuthor;             // issue_comment only: the commenter's login
  std::string commentBody;               // issue_comment only: what was written
  std::string sender;                    // login of who triggered the event
  std::vector<std::string> labels;       // on the PR or issue
  bool fromFork = false;                 // head repository differs from the base (or was deleted)
};

// The event names this module understands.
bool isSupportedEvent(std::string_view eventName);

// Parses a webhook payload. Fails with EVENT_INVALID when the text is not
// JSON, the event name is unsupported, or a field is missing or mistyped; the
// error's location carries the JSON path ("pull_request.head.sha") and
// `source` as its file.
Result<GithubEvent> parseEvent(std::string_view eventName, std::string_view jsonText,
                               const std::string& source = "event payload");

// Reads the payload at `path`; fails with EVENT_INVALID when it is unreadable.
Result<GithubEvent> loadEventFromPath(std::string_view eventName, const std::string& path);

// The thin shell: GITHUB_EVENT_NAME and GITHUB_EVENT_PATH from `env`.
Result<GithubEvent> loadEvent(const Environment& env);

}  // namespace lw::github
