#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "agents/review/coverage_summary.h"
#include "agents/review/review_params.h"
#include "core/file_io.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::agents::review;
namespace json = boost::json;

namespace {

Chunk chunkOf(std::vector<std::string> paths) {
  Chunk c;
  for (auto& p : paths) c.parts.push_back({p, "file: " + p + "\n", 3});
  return c;
}

const FileCoverage& of(const agents::review::Coverage& c, const std::string& path) {
  for (const FileCoverage& f : c.files)
    if (f.path == path) return f;
  FAIL("no coverage for " << path);
  return c.files.front();
}

}  // namespace

TEST_CASE("review coverage: everything reviewed and default skips is complete") {
  Selection s{{"a.go", "b.go"}, {{"yarn.lock", CoverageStatus::Skipped, "lock file"}}};
  ChunkPlan plan{{chunkOf({"a.go", "b.go"})}, {}};
  RunResult run;
  run.chunks = {{{"a.go", "b.go"}, true, ""}};
  agents::review::Coverage c = summarizeCoverage(s, plan, run, false);
  CHECK(c.complete);
  CHECK(c.reason.empty());
  CHECK(of(c, "a.go").status == CoverageStatus::Reviewed);
  CHECK(of(c, "yarn.lock").reason == "lock file");
}

TEST_CASE("review coverage: a budget stop leaves the rest skipped and the review incomplete") {
  Selection s{{"a.go", "big.go", "c.go"}, {}};
  ChunkPlan plan{{}, {}};
  RunResult run;
  run.budgetReached = true;
  run.chunks = {{{"a.go", "big.go"}, true, ""}, {{"big.go"}, false, "token budget"}, {{"c.go"}, false, "token budget"}};
  agents::review::Coverage c = summarizeCoverage(s, plan, run, false);
  CHECK_FALSE(c.complete);
  CHECK(c.reason == "token budget (maxTokens) reached: the review is partial");
  CHECK(of(c, "a.go").status == CoverageStatus::Reviewed);
  CHECK(of(c, "big.go").status == CoverageStatus::Clipped);
  CHECK(of(c, "big.go").reason == "part of the file not reviewed: token budget");
  CHECK(of(c, "c.go").status == CoverageStatus::Skipped);
  CHECK(of(c, "c.go").reason == "token budget");
}

TEST_CASE("review coverage: invalid output, clipped hunks, maxFiles and a truncated diff are named") {
  Selection s{{"a.go", "b.go"}, {{"z.go", CoverageStatus::Skipped, "maxFiles (2) reached"}}};
  ChunkPlan plan{{},
                 {{"b.go", CoverageStatus::Clipped,
                   "a hunk larger than chunkTokens (the one at line 1) was clipped: 9 lines not reviewed"}}};
  RunResult run;
  run.chunks = {{{"a.go"}, false, "model output invalid"}, {{"b.go"}, true, ""}};
  agents::review::Coverage c = summarizeCoverage(s, plan, run, true);
  CHECK_FALSE(c.complete);
  CHECK(c.reason ==
        "model output invalid; hunks larger than chunkTokens were clipped; maxFiles (2) reached: files not reviewed; "
        "the diff was truncated: files past the limit not reviewed");
  CHECK(of(c, "a.go").status == CoverageStatus::Skipped);
  CHECK(of(c, "b.go").status == CoverageStatus::Clipped);
}

TEST_CASE("review coverage: coverage.json has the contract's fields, reasons bounded") {
  test::TempDir dir;
  agents::review::Coverage c;
  c.files = {{"a.go", CoverageStatus::Reviewed, ""}, {"b.go", CoverageStatus::Skipped, std::string(5000, 'r')}};
  c.complete = false;
  c.reason = "token budget";
  c.tokensUsed = 1234;
  c.head = "abc";
  REQUIRE(writeCoverage(dir.root, c));
  auto text = readBoundedFile((dir.root / "coverage.json").string(), 1 << 20, ErrorCode::IoError);
  REQUIRE(text);
  json::value v = json::parse(*text);
  CHECK(v.at("complete") == false);
  CHECK(v.at("reason") == "token budget");
  CHECK(v.at("tokensUsed") == 1234);
  CHECK(v.at("head") == "abc");
  CHECK(v.at("incrementalFrom").is_null());
  CHECK(v.at("files").at(0).at("status") == "reviewed");
  CHECK(v.at("files").at(1).at("reason").as_string().size() <= 1024);
  c.incrementalFrom = "def";
  REQUIRE(writeCoverage(dir.root, c));
  CHECK(json::parse(*readBoundedFile((dir.root / "coverage.json").string(), 1 << 20, ErrorCode::IoError))
            .at("incrementalFrom") == "def");
}

TEST_CASE("review params: defaults, the step's values, and a mistyped one") {
  auto d = readReviewParams(json::object{});
  REQUIRE(d);
  CHECK(d->maxTokens == 60000);
  CHECK(d->minSeverity == Severity::Notice);
  auto p = readReviewParams(json::parse(R"({"maxFiles":3,"maxTokens":5000,"chunkTokens":900,"maxFindings":2,
    "minSeverity":"warning","minConfidence":1,"exclude":["docs/*"],"instructions":"REVIEW.md"})")
                                .as_object());
  REQUIRE(p);
  CHECK(p->maxFiles == 3);
  CHECK(p->chunkTokens == 900);
  CHECK(p->minSeverity == Severity::Warning);
  CHECK(p->minConfidence == 1.0);
  CHECK(p->exclude == std::vector<std::string>{"docs/*"});
  CHECK(p->instructions == "REVIEW.md");
  auto bad = readReviewParams(json::parse(R"({"maxTokens":"lots"})").as_object());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::TaskpackInvalid);
  CHECK(bad.error().subject == "with.maxTokens");
  CHECK_FALSE(readReviewParams(json::parse(R"({"minSeverity":"fatal"})").as_object()));
  CHECK_FALSE(readReviewParams(json::parse(R"({"maxFiles":1e300})").as_object()));
}
