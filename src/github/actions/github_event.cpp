#include "github/actions/github_event.h"

#include <fstream>
#include <sstream>

#include <boost/json/parse.hpp>

#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

namespace {

constexpr std::string_view kSupported[] = {"pull_request", "pull_request_target", "issues", "issue_comment",
                                           "workflow_dispatch"};

RepoRef readRepository(const json::object& root) {
  const json::object& repo = object(field(root, "repository", ""), "repository");
  const json::object& owner = object(field(repo, "owner", "repository"), "repository.owner");
  return {str(owner, "login", "repository.owner"), str(repo, "name", "repository")};
}

std::vector<std::string> readLabels(const json::object& o, const std::string& path) {
  std::vector<std::string> out;
  if (const json::array* labels = optArray(o, "labels", path)) {
    for (std::size_t i = 0; i < labels->size(); ++i) {
      std::string p = join(path, "labels") + "[" + std::to_string(i) + "]";
      out.push_back(str(object((*labels)[i], p), "name", p));
    }
  }
  return out;
}

void readPullRequest(const json::object& root, GithubEvent& ev) {
  const json::object& pr = object(field(root, "pull_request", ""), "pull_request");
  ev.isPullRequest = true;
  ev.number = static_cast<int>(integer(pr, "number", "pull_request"));
  const json::object& head = object(field(pr, "head", "pull_request"), "pull_request.head");
  const json::object& base = object(field(pr, "base", "pull_request"), "pull_request.base");
  ev.headSha = str(head, "sha", "pull_request.head");
  ev.baseSha = str(base, "sha", "pull_request.base");
  ev.headRef = str(head, "ref", "pull_request.head");
  ev.baseRef = str(base, "ref", "pull_request.base");
  ev.authorAssociation = str(pr, "author_association", "pull_request");
  ev.labels = readLabels(pr, "pull_request");
  // A deleted fork leaves head.repo null: treat it as a fork, the untrusted case.
  const json::object* headRepo = optObject(head, "repo", "pull_request.head");
  const json::object& baseRepo = object(field(base, "repo", "pull_request.base"), "pull_request.base.repo");
  if (!headRepo) {
    ev.fromFork = true;
  } else {
    ev.fromFork =
        str(*headRepo, "full_name", "pull_request.head.repo") != str(baseRepo, "full_name", "pull_request.base.repo");
  }
}

void readIssue(const json::object& root, GithubEvent& ev) {
  const json::object& issue = object(field(root, "issue", ""), "issue");
  ev.number = static_cast<int>(integer(issue, "number", "issue"));
  ev.authorAssociation = str(issue, "author_association", "issue");
  ev.labels = readLabels(issue, "issue");
  // An issue_comment on a pull request carries issue.pull_request, but no head
  // SHA: the caller must fetch the pull request to learn it.
  ev.isPullRequest = optObject(issue, "pull_request", "issue") != nullptr;
}

GithubEvent readEvent(std::string_view name, const json::object& root) {
  GithubEvent ev;
  ev.name = std::string(name);
  ev.action = optStr(root, "action", "").value_or("");
  ev.repository = readRepository(root);
  if (const json::object* sender = optObject(root, "sender", ""))
    ev.sender = optStr(*sender, "login", "sender").value_or("");
  if (name == "pull_request" || name == "pull_request_target") {
    readPullRequest(root, ev);
  } else if (name == "issues") {
    readIssue(root, ev);
  } else if (name == "issue_comment") {
    readIssue(root, ev);
    const json::object& comment = object(field(root, "comment", ""), "comment");
    ev.commentAuthorAssociation = str(comment, "author_association", "comment");
    ev.commentBody = optStr(comment, "body", "comment").value_or("");
    if (const json::object* user = optObject(comment, "user", "comment"))
      ev.commentAuthor = optStr(*user, "login", "comment.user").value_or("");
  } else {  // workflow_dispatch
    ev.headRef = str(root, "ref", "");
  }
  return ev;
}

Error eventError(std::string message, const std::string& source, std::string path, std::string hint) {
  Error e = makeError(ErrorCode::EventInvalid, std::move(message), std::move(hint), source);
  e.location = Location{.file = source, .line = 0, .column = 0, .path = std::move(path)};
  return e;
}

}  // namespace

bool isSupportedEvent(std::string_view eventName) {
  for (std::string_view s : kSupported)
    if (s == eventName) return true;
  return false;
}

Result<GithubEvent> parseEvent(std::string_view eventName, std::string_view jsonText, const std::string& source) {
  if (!isSupportedEvent(eventName)) {
    return eventError("unsupported event '" + std::string(eventName) + "'", source, "",
                      "loopwright runs on pull_request, pull_request_target, issues, "
                      "issue_comment and workflow_dispatch");
  }
  boost::system::error_code ec;
  json::value doc = json::parse(json::string_view(jsonText.data(), jsonText.size()), ec);
  if (ec) {
    return eventError("event payload is not JSON: " + ec.message(), source, "",
                      "GITHUB_EVENT_PATH must name the webhook payload file the runner wrote");
  }
  try {
    return readEvent(eventName, object(doc, ""));
  } catch (const FieldError& e) {
    return eventError(std::string(eventName) + " payload: " + e.path + ": " + e.what(), source, e.path,
                      "the payload does not match the '" + std::string(eventName) + "' event; check GITHUB_EVENT_NAME");
  }
}

Result<GithubEvent> loadEventFromPath(std::string_view eventName, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return eventError("cannot read the event payload '" + path + "'", path, "",
                      "GITHUB_EVENT_PATH (or --event-path) must name a readable file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseEvent(eventName, text.str(), path);
}

Result<GithubEvent> loadEvent(const Environment& env) {
  auto name = env.get("GITHUB_EVENT_NAME");
  auto path = env.get("GITHUB_EVENT_PATH");
  if (!name || name->empty() || !path || path->empty()) {
    return eventError("GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not both set", "", "",
                      "run inside GitHub Actions, or pass --event-name and --event-path");
  }
  return loadEventFromPath(*name, *path);
}

}  // namespace lw::github
