#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/outbox.h"

using namespace lw;
using namespace lw::github;
namespace fs = std::filesystem;

namespace {

struct TmpDir {
  TmpDir() {
    std::string tmpl = (fs::temp_directory_path() / "lw-outbox-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TmpDir() { fs::remove_all(path); }
  std::string path;
};

PublicationRequest request(std::string id) {
  PublicationRequest r;
  r.id = std::move(id);
  r.repo = {"o", "r"};
  r.number = 3;
  r.isPullRequest = true;
  r.headSha = "abc";
  Finding f;
  f.step = "s";
  f.ruleId = "x/y";
  f.severity = Severity::Error;
  f.message = "m";
  f.path = "a.c";
  f.line = 2;
  f.endLine = 4;
  f.suggestion = "z";
  r.stages.push_back({"review", {f}});
  TriageResult t;
  t.step = "t";
  t.labels = {"bug"};
  t.duplicates = {{.number = 9, .reason = "same"}};
  t.complete = false;
  r.triage.push_back(t);
  r.steps.push_back(StepRow{.stage = "review",
                            .step = "s",
                            .backend = "linux-bwrap",
                            .capabilities = {"networkIsolation"},
                            .durationMs = 12,
                            .exitCode = 1,
                            .guardrailEvents = {"g"},
                            .blocked = true,
                            .blocker = "B"});
  r.conclusion = lw::github::Conclusion::Failure;
  r.options.failOn = FailOn::Warning;
  r.options.review = ReviewMode::RequestChanges;
  r.options.maxInlineComments = 7;
  return r;
}

}  // namespace

TEST_CASE("outbox: an entry survives a round trip with its progress, then moves to done/") {
  TmpDir dir;
  Outbox box(dir.path);
  auto e = box.enqueue(request("run/1"));
  REQUIRE(e.ok());
  CHECK(e->file == dir.path + "/outbox/run_1.json");
  e->progress.reviewDone = true;
  e->progress.checks["review"] = CheckProgress{.id = 77, .batchesDone = 2, .done = false};
  e->attempts = 2;
  REQUIRE(box.save(*e).ok());

  auto again = box.enqueue(request("run/1"));  // same id: the stored entry, not a new one
  REQUIRE(again.ok());
  CHECK(again->progress.reviewDone);
  CHECK(again->progress.checks.at("review").id == 77);
  CHECK(again->progress.checks.at("review").batchesDone == 2);
  CHECK(again->attempts == 2);
  CHECK(boost::json::serialize(toJson(again->request)) == boost::json::serialize(toJson(request("run/1"))));

  auto pending = box.pending();
  REQUIRE(pending.ok());
  CHECK(pending->size() == 1);
  REQUIRE(box.complete(*again).ok());
  CHECK(box.pending()->empty());
  CHECK(fs::exists(box.donePath(*again)));
}

TEST_CASE("outbox: a corrupt entry is reported with its file, not skipped") {
  TmpDir dir;
  Outbox box(dir.path);
  fs::create_directories(dir.path + "/outbox");
  std::ofstream(dir.path + "/outbox/bad.json")
      << R"({"request":{"id":"x","repository":"noslash","number":1,"isPullRequest":true}})";
  auto p = box.pending();
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().code == ErrorCode::PublicationFailed);
  CHECK(p.error().location->path == "request.repository");
  CHECK(p.error().subject == dir.path + "/outbox/bad.json");
  std::ofstream(dir.path + "/outbox/bad.json") << "{";
  CHECK(box.pending().error().message.find("not JSON") != std::string::npos);
}

TEST_CASE("publication json: bad fields name their path") {
  boost::json::value v = toJson(request("a"));
  v.at("stages").as_array()[0].at("findings").as_array()[0].as_object()["severity"] = "fatal";
  auto r = publicationFromJson(v);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().location->path == "stages[0].findings[0].severity");
  CHECK(r.error().message == "publication request is invalid: unknown severity 'fatal'");
  CHECK(publicationFromJson(boost::json::array{}).error().location->path == "$");
  CHECK(Outbox("/tmp").enqueue(PublicationRequest{}).error().code == ErrorCode::PublicationFailed);
}
