// A local fake of the GitHub REST API (and of the one GraphQL query
// loopwright sends) for the publication tests: an HTTP server on 127.0.0.1
// (support/local_http_server.h) that implements the endpoints loopwright uses, keeps their state, records every
// request, enforces GitHub's documented limits (50 annotations per request,
// 65,535-character check summaries, review comments only on diff lines,
// one pending review per user) and plays scripted failures (rate limits,
// 5xx, 406, 403, hangs).
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include "support/local_http_server.h"

namespace lw::test {

struct ReadModel;

class FakeGithub {
 public:
  static constexpr const char* kOwner = "octo";
  static constexpr const char* kRepo = "hello";
  static constexpr const char* kToken = "test-token";
  static constexpr const char* kLogin = "loopwright-bot";

  FakeGithub();
  ~FakeGithub();
  FakeGithub(const FakeGithub&) = delete;
  FakeGithub& operator=(const FakeGithub&) = delete;

  // "http://127.0.0.1:<port>": what GITHUB_API_URL is set to.
  std::string url() const;

  void addPull(int number, const std::string& headSha, const std::string& diff);
  // The pull request comes from a fork: its head.repo.full_name is
  // `headRepo` (the base stays octo/hello).
  void setPullHeadRepo(int number, const std::string& headRepo);
  // A new push: the pull request's head moves to `headSha`.
  void movePullHead(int number, const std::string& headSha);
  // The pull request's base.sha (else one made up from the head's).
  void setPullBase(int number, const std::string& baseSha);
  // GET collaborators/{login}/permission answers `permission` ("admin",
  // "maintain", "write", "triage", "read"); a login never set is not a
  // collaborator and gets GitHub's 404.
  void setPermission(const std::string& login, const std::string& permission);
  // Every write answers 403 "Resource not accessible by integration" (a fork
  // pull request's read-only GITHUB_TOKEN).
  void setReadOnly(bool readOnly);
  // GET /user answers 403 as for an installation token; the writer is then
  // "github-actions[bot]".
  void setInstallationToken(bool installation);

  struct Script {
    std::string method;        // "" = any
    std::string pathContains;  // matched against the path without the query
    int skip = 0;              // matching requests let through before it applies
    int times = 1;             // how many requests it answers
    int status = 500;
    std::map<std::string, std::string> headers;
    std::string body = "{\"message\":\"scripted failure\"}";
    bool hang = false;  // read the request, never answer until released
    // When true the request is carried out first and only its answer is
    // replaced: the write landed but the client sees a failure.
    bool afterEffect = false;
  };
  void script(Script s);
  // Lets hung requests go (their connections are closed without an answer).
  void releaseHangs();
  // Number of requests currently hung.
  int hanging() const;

  struct Request {
    std::string method;
    std::string target;  // path and query
    std::string path;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
    int status = 0;  // what was answered; 0 for a hang
  };
  std::vector<Request> requests() const;
  // Requests whose method matches ("" any) and path contains `pathContains`.
  std::size_t count(const std::string& method, const std::string& pathContains) const;
  void clearRequests();

  // Seeding and inspecting state (as JSON, the shape GitHub returns).
  void addReviewComment(int pull, const std::string& login, const std::string& body, const std::string& path, int line);
  // A reply in the thread of review comment `inReplyTo`, as GitHub lists it
  // (in_reply_to_id, the thread's path and line); returns its id.
  // GitHub takes a review comment off the diff (`line: null`, the
  // original kept in `original_line`) when a push changes the code under
  // it; the fake does not diff commits, so a test says which ones.
  void markOutdated(int pull, std::int64_t commentId);
  std::int64_t addReviewReply(int pull, const std::string& login, const std::string& body, std::int64_t inReplyTo);
  void addIssueComment(int issue, const std::string& login, const std::string& body);
  // A person clicks "Resolve conversation" (or "Unresolve conversation") on
  // the thread of review comment `commentId`, any comment of it; GraphQL's
  // reviewThreads then says so (support/fake_github_graphql.h). Throws for
  // an id the fake does not hold.
  void resolveThread(std::int64_t commentId);
  void unresolveThread(std::int64_t commentId);
  // The most review threads one GraphQL answer holds, whatever the query's
  // `first` asks (GitHub: `first` itself), so that a test sees paging.
  void setGraphqlPageLimit(std::size_t threads);
  boost::json::array reviews(int pull) const;
  boost::json::array reviewComments(int pull) const;
  boost::json::array checkRuns() const;
  boost::json::array annotations(std::int64_t checkRunId) const;
  boost::json::array issueComments(int issue) const;
  std::vector<std::string> issueLabels(int issue) const;
  std::map<std::string, std::string> repoLabels() const;  // name -> colour
  // The read endpoints' data (support/fake_github_reads.h); seed it before
  // the requests that read it.
  ReadModel& reads();

  struct State;

 private:
  std::optional<LocalHttpServer::Response> answer(const LocalHttpServer::Request& request);
  void setThreadResolved(std::int64_t commentId, bool resolved);

  std::unique_ptr<State> state_;
  LocalHttpServer server_;  // after state_: it goes first, its handlers use state_
};

}  // namespace lw::test
