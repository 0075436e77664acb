#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/actions/github_event.h"

using namespace lw;
using namespace lw::github;

namespace {

std::string payloadPath(const std::string& name) {
  return std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/github/webhooks/" + name;
}

std::string readPayload(const std::string& name) {
  std::ifstream in(payloadPath(name));
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("event: pull_request opened gives the head SHA from the payload, base, labels") {
  auto ev = parseEvent("pull_request", readPayload("pull_request.opened.json"));
  REQUIRE(ev.ok());
  CHECK(ev->name == "pull_request");
  CHECK(ev->action == "opened");
  CHECK(ev->repository.fullName() == "Codertocat/Hello-World");
  CHECK(ev->number == 2);
  CHECK(ev->isPullRequest);
  CHECK(ev->headSha == "ec26c3e57ca3a959ca5aad62de7213c562f8c821");
  CHECK(ev->baseSha == "f95f852bd8fca8fcc58a9a2d6c842781e32a215e");
  CHECK(ev->headRef == "changes");
  CHECK(ev->baseRef == "master");
  CHECK(ev->authorAssociation == "OWNER");
  CHECK(ev->sender == "Codertocat");
  CHECK(ev->labels == std::vector<std::string>{"bug"});
  CHECK_FALSE(ev->fromFork);
}

TEST_CASE("event: pull_request_target has the pull_request shape") {
  auto ev = parseEvent("pull_request_target", readPayload("pull_request.synchronize.json"));
  REQUIRE(ev.ok());
  CHECK(ev->name == "pull_request_target");
  CHECK(ev->action == "synchronize");
  CHECK(ev->headSha == "ec26c3e57ca3a959ca5aad62de7213c562f8c821");
}

TEST_CASE("event: a fork is a head repository other than the base, or a deleted one") {
  // The examples package has no fork PR; derive one from the recorded payload.
  boost::json::value doc = boost::json::parse(readPayload("pull_request.opened.json"));
  auto& head = doc.at("pull_request").at("head").as_object();
  SUBCASE("other repository") {
    head["repo"].as_object()["full_name"] = "mallory/Hello-World";
    auto ev = parseEvent("pull_request", boost::json::serialize(doc));
    REQUIRE(ev.ok());
    CHECK(ev->fromFork);
  }
  SUBCASE("deleted fork: head.repo is null") {
    head["repo"] = nullptr;
    auto ev = parseEvent("pull_request_target", boost::json::serialize(doc));
    REQUIRE(ev.ok());
    CHECK(ev->fromFork);
  }
}

TEST_CASE("event: issues opened") {
  auto ev = parseEvent("issues", readPayload("issues.opened.json"));
  REQUIRE(ev.ok());
  CHECK(ev->number == 1);
  CHECK_FALSE(ev->isPullRequest);
  CHECK(ev->headSha.empty());
  CHECK(ev->labels == std::vector<std::string>{"bug"});
  CHECK(ev->authorAssociation == "OWNER");
}

TEST_CASE("event: issue_comment carries the commenter's association") {
  auto ev = parseEvent("issue_comment", readPayload("issue_comment.created.json"));
  REQUIRE(ev.ok());
  CHECK(ev->action == "created");
  CHECK(ev->number == 1);
  CHECK_FALSE(ev->isPullRequest);
  CHECK(ev->commentAuthorAssociation == "OWNER");
  boost::json::value doc = boost::json::parse(readPayload("issue_comment.created.json"));
  doc.at("issue").as_object()["pull_request"] = boost::json::object{{"url", "x"}};
  auto onPr = parseEvent("issue_comment", boost::json::serialize(doc));
  REQUIRE(onPr.ok());
  CHECK(onPr->isPullRequest);
}

TEST_CASE("event: workflow_dispatch has a ref and no number") {
  auto ev = parseEvent("workflow_dispatch", readPayload("workflow_dispatch.json"));
  REQUIRE(ev.ok());
  CHECK(ev->repository.fullName() == "octo-org/octo-repo");
  CHECK(ev->headRef == "refs/heads/main");
  CHECK(ev->number == 0);
  CHECK(ev->action.empty());
}

TEST_CASE("event: bad payloads name the JSON path") {
  boost::json::value doc = boost::json::parse(readPayload("pull_request.opened.json"));
  SUBCASE("missing head sha") {
    doc.at("pull_request").at("head").as_object().erase("sha");
    auto ev = parseEvent("pull_request", boost::json::serialize(doc), "event.json");
    REQUIRE_FALSE(ev.ok());
    CHECK(ev.error().code == ErrorCode::EventInvalid);
    REQUIRE(ev.error().location);
    CHECK(ev.error().location->path == "pull_request.head.sha");
    CHECK(ev.error().location->file == "event.json");
    CHECK(ev.error().message == "pull_request payload: pull_request.head.sha: required field is missing");
  }
  SUBCASE("mistyped number") {
    doc.at("pull_request").as_object()["number"] = "2";
    auto ev = parseEvent("pull_request", boost::json::serialize(doc));
    REQUIRE_FALSE(ev.ok());
    CHECK(ev.error().location->path == "pull_request.number");
    CHECK(ev.error().message == "pull_request payload: pull_request.number: expected an integer, found a string");
  }
  SUBCASE("label without a name") {
    doc.at("pull_request").at("labels").as_array()[0].as_object().erase("name");
    auto ev = parseEvent("pull_request", boost::json::serialize(doc));
    REQUIRE_FALSE(ev.ok());
    CHECK(ev.error().location->path == "pull_request.labels[0].name");
  }
  SUBCASE("payload of another event") {
    auto ev = parseEvent("pull_request", readPayload("issues.opened.json"));
    REQUIRE_FALSE(ev.ok());
    CHECK(ev.error().location->path == "pull_request");
  }
}

TEST_CASE("event: not JSON, unsupported names and missing files are EVENT_INVALID") {
  CHECK(parseEvent("pull_request", "{\"action\":").error().code == ErrorCode::EventInvalid);
  CHECK(parseEvent("pull_request", "[]").error().location->path == "$");
  auto push = parseEvent("push", "{}");
  REQUIRE_FALSE(push.ok());
  CHECK(push.error().message == "unsupported event 'push'");
  auto missing = loadEventFromPath("issues", "/nonexistent/event.json");
  CHECK(missing.error().code == ErrorCode::EventInvalid);
  CHECK(loadEvent(Environment{}).error().code == ErrorCode::EventInvalid);
  Environment env({{"GITHUB_EVENT_NAME", "issues"}, {"GITHUB_EVENT_PATH", payloadPath("issues.opened.json")}});
  auto ev = loadEvent(env);
  REQUIRE(ev.ok());
  CHECK(ev->number == 1);
}
