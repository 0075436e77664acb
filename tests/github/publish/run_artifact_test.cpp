#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "core/json_text.h"
#include "github/publish/run_artifact.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::github;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr const char* kHead = "0123456789abcdef0123456789abcdef01234567";

PublicationRequest prRequest() {
  PublicationRequest r;
  r.id = "1-1-review-99";
  r.repo = {"octo", "hello"};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = kHead;
  r.conclusion = lw::github::Conclusion::Success;
  r.stages.push_back({"review", {}});
  return r;
}

WorkflowRun forkRun() {
  WorkflowRun w;
  w.repository = {"octo", "hello"};
  w.id = 4242;
  w.attempt = 2;
  w.event = "pull_request";
  w.headSha = kHead;
  w.headRepository = "forker/hello";
  return w;
}

PullInfo pullNow() { return {kHead, std::string(40, 'b'), true, "forker/hello"}; }

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// What the publishing job reads from an artifact directory.
Result<PublicationRequest> readArtifactRequest(const std::string& dir) {
  auto doc = readArtifactDocument(dir);
  if (!doc) return doc.error();
  return artifactRequestOf(*doc);
}

// The artifact's publication.json with `edit` applied to its JSON.
std::string edited(const std::function<void(json::object&)>& edit) {
  json::value v = toJson(prRequest());
  edit(v.as_object());
  return json::serialize(v);
}

}  // namespace

TEST_CASE("run artifact: what run --publish none writes reads back as the same request") {
  test::TempDir dir;
  REQUIRE(writeArtifactRequest(dir.root.string(), prRequest()).ok());
  auto r = readArtifactRequest(dir.root.string());
  REQUIRE(r.ok());
  CHECK(r->headSha == kHead);
  CHECK(r->number == 7);
  CHECK(r->repo.fullName() == "octo/hello");
  auto doc = readArtifactDocument(dir.root.string());
  REQUIRE(doc.ok());
  CHECK(doc->number == 7);
  CHECK(doc->bytes == fs::file_size(dir.root / kArtifactRequestFile));
}

TEST_CASE("run artifact: a malformed artifact is a PUBLICATION_FAILED naming the file and field") {
  test::TempDir dir;
  const fs::path file = dir.root / kArtifactRequestFile;
  struct Case {
    const char* name;
    std::string text;
    const char* says;
    const char* path;
  };
  const Case cases[] = {
      {"not JSON", "{\"id\": ", "not JSON", ""},
      {"not an object", "[1,2]", "", ""},
      {"an issue's publication", edited([](json::object& o) { o["isPullRequest"] = false; }),
       "not a pull request's publication", "number"},
      {"a short head", edited([](json::object& o) { o["headSha"] = "abc"; }), "40-hex", "headSha"},
      {"an upper-case head", edited([](json::object& o) { o["headSha"] = std::string(40, 'A'); }), "40-hex", "headSha"},
      {"an unknown conclusion", edited([](json::object& o) { o["conclusion"] = "approved"; }), "'approved'",
       "conclusion"},
      // The Checks API knows "cancelled", but no loopwright run concludes so.
      {"a conclusion no run decides", edited([](json::object& o) { o["conclusion"] = "cancelled"; }), "'cancelled'",
       "conclusion"},
      {"no conclusion", edited([](json::object& o) { o.erase("conclusion"); }), "no conclusion", "conclusion"},
      {"a mistyped number", edited([](json::object& o) { o["number"] = "7"; }), "not a pull request's publication",
       "number"},
      {"a number past an int", edited([](json::object& o) { o["number"] = std::int64_t(1) << 32 | 7; }),
       "not a pull request's publication", "number"},
      {"triage results", edited([](json::object& o) {
         o["triage"] = json::array{json::object{{"step", "t"}, {"labels", json::array{"approved"}}}};
       }),
       "never taken from an artifact", "triage"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    write(file, c.text);
    auto r = readArtifactRequest(dir.root.string());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::PublicationFailed);
    CHECK(r.error().message.find("artifact '" + file.string() + "' is invalid") != std::string::npos);
    CHECK(r.error().message.find(c.says) != std::string::npos);
    CHECK(r.error().hint.find("docs/fork-pull-requests.md") != std::string::npos);
    REQUIRE(r.error().location);
    if (*c.path) CHECK(r.error().location->path == c.path);
  }
}

TEST_CASE("run artifact: a missing file, a symlink, a FIFO or an oversized file is refused, not followed or read") {
  test::TempDir dir;
  const fs::path file = dir.root / kArtifactRequestFile;
  CHECK(readArtifactRequest(dir.root.string()).error().code == ErrorCode::PublicationFailed);

  write(dir.root / "secret", json::serialize(toJson(prRequest())));
  fs::create_symlink(dir.root / "secret", file);
  auto link = readArtifactRequest(dir.root.string());
  REQUIRE_FALSE(link.ok());
  CHECK(link.error().message.find("not a regular file") != std::string::npos);
  fs::remove(file);

  REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
  CHECK(readArtifactRequest(dir.root.string()).error().message.find("not a regular file") != std::string::npos);
  fs::remove(file);

  write(file, std::string(kMaxArtifactRequestBytes + 1, ' '));
  auto big = readArtifactRequest(dir.root.string());
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().message.find("the limit is " + std::to_string(kMaxArtifactRequestBytes)) != std::string::npos);
}

TEST_CASE("run artifact: admitted only when the workflow_run event and the pull request agree with it") {
  auto ok = admitArtifact(prRequest(), forkRun(), pullNow());
  REQUIRE(ok.ok());
  CHECK(ok->id == "workflow-run-4242-2");  // the event's, not the artifact's
  CHECK(ok->repo.fullName() == "octo/hello");

  struct Case {
    const char* name;
    std::function<void(PublicationRequest&, WorkflowRun&, PullInfo&)> change;
    const char* says;
  };
  const Case cases[] = {
      {"a run of another event", [](auto&, auto& w, auto&) { w.event = "push"; }, "ran on 'push', not pull_request"},
      {"another repository",
       [](auto& r, auto&, auto&) {
         r.repo = {"other", "place"};
       },
       "it names other/place, but the workflow run is octo/hello's"},
      {"another commit than the run's", [](auto&, auto& w, auto&) { w.headSha = std::string(40, 'c'); },
       "but the workflow run ran on cccc"},
      {"a pull request the run was not for",
       [](auto&, auto& w, auto&) {
         w.pullNumbers = {8, 9};
       },
       "pull request #7 is not one the workflow run was for"},
      {"a pull request from another head repository", [](auto&, auto&, auto& p) { p.headRepo = "mallory/hello"; },
       "comes from mallory/hello, but the workflow run ran on forker/hello"},
      {"a deleted fork", [](auto&, auto&, auto& p) { p.headRepo.clear(); }, "comes from a deleted repository"},
      {"a head that moved on", [](auto&, auto&, auto& p) { p.headSha = std::string(40, 'd'); },
       "has moved on: its head is now dddd"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    PublicationRequest r = prRequest();
    WorkflowRun w = forkRun();
    PullInfo p = pullNow();
    c.change(r, w, p);
    auto refused = admitArtifact(r, w, p);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::PublicationFailed);
    CHECK(refused.error().message.find("the artifact was not published") != std::string::npos);
    CHECK(refused.error().message.find(c.says) != std::string::npos);
  }
  WorkflowRun listed = forkRun();
  listed.pullNumbers = {3, 7};
  CHECK(admitArtifact(prRequest(), listed, pullNow()).ok());
}

TEST_CASE("workflow_run: the payload's run, head and pull requests of this repository") {
  const char* payload = R"({"action":"completed","repository":{"name":"hello","owner":{"login":"octo"}},
    "workflow_run":{"id":99,"run_attempt":3,"event":"pull_request","head_sha":"abc",
      "head_repository":{"full_name":"octo/hello"},
      "pull_requests":[{"number":5,"base":{"repo":{"name":"hello"}}},{"number":6,"base":{"repo":{"name":"elsewhere"}}}]}})";
  auto w = parseWorkflowRun(payload, "event.json");
  REQUIRE(w.ok());
  CHECK(w->repository.fullName() == "octo/hello");
  CHECK(w->id == 99);
  CHECK(w->attempt == 3);
  CHECK(w->headSha == "abc");
  CHECK(w->headRepository == "octo/hello");
  CHECK(w->pullNumbers == std::vector<int>{5});

  auto bad = parseWorkflowRun(R"({"repository":{"name":"hello","owner":{"login":"octo"}},"workflow_run":{"id":"x"}})",
                              "event.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::EventInvalid);
  REQUIRE(bad.error().location);
  CHECK(bad.error().location->path == "workflow_run.id");
  CHECK(bad.error().location->file == "event.json");
  CHECK(parseWorkflowRun("{", "event.json").error().code == ErrorCode::EventInvalid);
}
