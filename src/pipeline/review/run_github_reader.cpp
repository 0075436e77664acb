#include "pipeline/review/run_github_reader.h"

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "github/rest/read_shapes.h"
#include "policy/model/tool_names.h"

namespace lw::pipeline {

namespace json = boost::json;

namespace {

// The REST side with everything RestReads refers to.
struct RestStack {
  RestStack(github::RestConfig config, github::RepoRef repo)
      : client(transport, clock, sleeper, std::move(config)), reads(client, clock, sleeper, limiter, std::move(repo)) {}
  http::CurlTransport transport{github::httpPolicy()};
  github::SystemClock clock;
  github::ThreadSleeper sleeper;
  github::SearchLimiter limiter;
  github::RestClient client;
  github::RestReads reads;
};

// Both answers in one error when neither side could read.
Error bothFailed(const Error& local, const Error& rest) {
  Error e = rest;
  e.message = rest.message + " (and from the local clone: " + local.message + ")";
  return e;
}

}  // namespace

RunGithubReader::RunGithubReader(RunReadFacts facts, github::RestReads* rest, std::shared_ptr<void> keepAlive,
                                 ReadLimits limits)
    : facts_(std::move(facts)),
      local_(facts_.repoDir.string(), limits),
      rest_(rest),
      keepAlive_(std::move(keepAlive)) {}

Error RunGithubReader::needsApi(const std::string& tool) const {
  return makeError(
      ErrorCode::IoError,
      tool + " needs the GitHub API: loopwright has no GITHUB_TOKEN (or no event payload naming the repository)",
      "give the loopwright step env: GITHUB_TOKEN: ${{ github.token }}");
}

Result<PullSummary> RunGithubReader::pullLocked() {
  // The payload of a pull_request event is the REST object, at the run's head.
  if (const json::object* o = facts_.payload.if_object())
    if (const json::value* pr = o->if_contains("pull_request");
        pr && pr->is_object() && pr->as_object().contains("head"))
      return github::pullFromJson(*pr);
  if (!facts_.event || !facts_.event->isPullRequest || number() <= 0)
    return makeError(ErrorCode::UsageError, "this run is not on a pull request",
                     "github.pull answers on pull_request events and comments on pull requests");
  if (!rest_) return needsApi(tools::kGithubPull);
  std::lock_guard<std::mutex> lock(restMu_);
  return rest_->pull(number());
}

Result<PullSummary> RunGithubReader::pull() { return pullLocked(); }

Result<DiffScope> RunGithubReader::scope(bool full) {
  std::string base = facts_.event ? facts_.event->baseSha : "";
  std::string head = facts_.event ? facts_.event->headSha : "";
  if (base.empty() || head.empty()) {
    // A comment on a pull request carries neither: ask for the pull request.
    auto p = pullLocked();
    if (!p) return p.error();
    base = p->baseSha;
    head = p->headSha;
  }
  bool synchronize = facts_.event && facts_.event->action == "synchronize";
  if (!full && synchronize && !facts_.lastReviewedHead.empty()) return DiffScope{facts_.lastReviewedHead, head, true};
  return DiffScope{base, head, false};
}

Result<PullDiff> RunGithubReader::diff(bool full) {
  auto s = scope(full);
  if (!s) return s.error();
  auto local = local_.diff(*s);
  if (local || !rest_) return local;
  std::lock_guard<std::mutex> lock(restMu_);
  auto remote = rest_->diff(number(), *s);
  if (!remote) return bothFailed(local.error(), remote.error());
  return remote;
}

Result<PullFiles> RunGithubReader::files(bool full) {
  auto s = scope(full);
  if (!s) return s.error();
  auto local = local_.files(*s);
  if (local || !rest_) return local;
  std::lock_guard<std::mutex> lock(restMu_);
  auto remote = rest_->files(number(), *s);
  if (!remote) return bothFailed(local.error(), remote.error());
  return remote;
}

Result<std::string> RunGithubReader::commitFor(TreeSide side) {
  // Off a pull request (an issue, a dispatch) base and head are both the
  // commit the run checked out: the default branch for issue events.
  if (!facts_.event || !facts_.event->isPullRequest) {
    auto head = local_.headCommit();
    if (head || !rest_) return head;
    return std::string();  // the REST read's default branch
  }
  auto s = scope(true);
  if (!s) return s.error();
  return side == TreeSide::Base ? s->base : s->head;
}

Result<FileAtRef> RunGithubReader::file(const std::string& path, TreeSide side) {
  auto c = commitFor(side);
  if (!c) return c.error();
  const std::string& commit = *c;
  auto local = commit.empty() ? Result<FileAtRef>(makeError(ErrorCode::IoError, "the clone has no commit checked out"))
                              : local_.file(commit, path, side);
  // The clone had the commit: its answer stands, "not found" included.
  if (local || isNotFound(local.error()) || !rest_) return local;
  std::lock_guard<std::mutex> lock(restMu_);
  auto remote = rest_->file(commit, path, side);
  if (!remote && !isNotFound(remote.error())) return bothFailed(local.error(), remote.error());
  return remote;
}

Result<IssueThread> RunGithubReader::issue(std::optional<int> n) {
  int which = n.value_or(number());
  if (which <= 0)
    return makeError(ErrorCode::UsageError, "this run's event is about no issue", "give github.issue a number");
  if (!rest_) return needsApi(tools::kGithubIssue);
  std::lock_guard<std::mutex> lock(restMu_);
  return rest_->issue(which);
}

Result<IssueSearch> RunGithubReader::searchIssues(const std::string& words, int maxResults) {
  if (!rest_) return needsApi(tools::kGithubIssuesSearch);
  std::lock_guard<std::mutex> lock(restMu_);
  return rest_->search(words, maxResults);
}

Result<std::vector<RepoLabel>> RunGithubReader::labels() {
  if (!rest_) return needsApi(tools::kGithubLabels);
  std::lock_guard<std::mutex> lock(restMu_);
  return rest_->labels();
}

std::shared_ptr<GithubReader> makeRunGithubReader(const RunContext& ctx) {
  RunReadFacts facts{ctx.repo, ctx.githubEvent, ctx.event, ctx.lastReviewedHead};
  github::RestConfig config;
  if (ctx.env) config = github::restConfigFromEnvironment(*ctx.env);
  bool haveRepo = ctx.githubEvent && !ctx.githubEvent->repository.owner.empty();
  if (config.token.empty() || !haveRepo) return std::make_shared<RunGithubReader>(std::move(facts), nullptr, nullptr);
  auto stack = std::make_shared<RestStack>(std::move(config), ctx.githubEvent->repository);
  github::RestReads* rest = &stack->reads;
  return std::make_shared<RunGithubReader>(std::move(facts), rest, std::move(stack));
}

}  // namespace lw::pipeline
