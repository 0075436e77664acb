#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/channels/channels.h"
#include "github/publish/fingerprint.h"
#include "github/rest/pulls.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

PublicationRequest issueRequest(std::string comment, std::string id) {
  PublicationRequest r;
  r.id = std::move(id);
  r.repo = {FakeGithub::kOwner, FakeGithub::kRepo};
  r.number = 12;
  r.isPullRequest = false;
  r.conclusion = lw::github::Conclusion::Success;
  TriageResult t;
  t.step = "dedupe";
  t.labels = {"bug", "needs-repro"};
  t.duplicates = {{.number = 3, .reason = "same stack trace"}};
  t.complete = true;
  t.reproducible = false;
  t.comment = std::move(comment);
  r.triage.push_back(t);
  return r;
}

}  // namespace

TEST_CASE("triage: labels created with a colour and added, one sticky comment edited in place") {
  Harness h;
  h.gh.setInstallationToken(true);  // GITHUB_TOKEN: GET /user is refused, the writer is the Actions bot
  // A comment by someone else carrying our marker is not ours to edit.
  h.gh.addIssueComment(12, "mallory", triageMarker() + " fake");
  auto first = h.publisher().publish(issueRequest("Looks like #3.", "t-1"));
  REQUIRE_MESSAGE(first.ok(), h.log.str());
  CHECK(h.gh.issueLabels(12) == std::vector<std::string>{"bug", "needs-repro"});
  auto labels = h.gh.repoLabels();
  REQUIRE(labels.count("needs-repro"));
  CHECK(labels["needs-repro"] == labelColour("needs-repro"));
  CHECK(h.gh.count("POST", "/repos/octo/hello/labels") == 1);  // "bug" existed already

  json::array comments = h.gh.issueComments(12);
  REQUIRE(comments.size() == 2);
  CHECK(comments[1].at("user").at("login") == "github-actions[bot]");
  std::string body(comments[1].at("body").as_string());
  CHECK(body.find("**Possible duplicates:**\n\n- #3: same stack trace\n") != std::string::npos);
  CHECK(body.find("**Reproducible:** no") != std::string::npos);

  // Same result again: nothing is written.
  h.gh.clearRequests();
  REQUIRE(h.publisher().publish(issueRequest("Looks like #3.", "t-2")).ok());
  CHECK(h.writes() == 0);

  // A different comment: the same comment is edited, no new one.
  REQUIRE(h.publisher().publish(issueRequest("Now confirmed a duplicate of #3.", "t-3")).ok());
  comments = h.gh.issueComments(12);
  REQUIRE(comments.size() == 2);
  CHECK(std::string(comments[1].at("body").as_string()).find("Now confirmed") != std::string::npos);
  CHECK(std::string(comments[0].at("body").as_string()) == triageMarker() + " fake");
  CHECK(h.gh.count("PATCH", "/issues/comments/") == 1);
}

TEST_CASE("triage: a read-only token leaves the triage in the step summary") {
  Harness h;
  h.gh.setReadOnly(true);
  auto out = h.publisher().publish(issueRequest("c", "t-1"));
  REQUIRE(out.ok());
  CHECK(out->permissionDenied);
  std::string summary = readFile(h.publisherConfig.stepSummaryPath);
  CHECK(summary.find("Labels: bug, needs-repro") != std::string::npos);
  CHECK(summary.find("possible duplicate of #3: same stack trace") != std::string::npos);
  CHECK(h.log.str().find("loopwright: labels: permission denied") != std::string::npos);
}

TEST_CASE("pulls: an issue_comment on a PR learns the head commit from the API") {
  Harness h;
  auto info = fetchPull(*h.client, {FakeGithub::kOwner, FakeGithub::kRepo}, 7);
  REQUIRE_MESSAGE(info.ok(), info.error().message);
  CHECK(info->headSha == kHeadSha);
  CHECK_FALSE(info->fromFork);
  auto missing = fetchPull(*h.client, {FakeGithub::kOwner, FakeGithub::kRepo}, 99);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "GET /repos/octo/hello/pulls/99: HTTP 404 (Not Found)");
}
