#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "pipeline/step/coverage_output.h"

using namespace lw;
using namespace lw::pipeline;
namespace json = boost::json;

TEST_CASE("coverage output: a review's coverage.json is read") {
  auto c = parseCoverage(R"({"files":[{"path":"src/a.c","status":"reviewed","reason":""},
                                     {"path":"src/big.c","status":"clipped","reason":"over the budget"},
                                     {"path":"yarn.lock","status":"skipped","reason":"lock file"}],
                            "complete":false,"reason":"token budget reached","tokensUsed":9000,
                            "head":"2222222222222222222222222222222222222222",
                            "incrementalFrom":"1111111111111111111111111111111111111111"})");
  REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
  REQUIRE(c->files.size() == 3);
  CHECK(c->files[1].path == "src/big.c");
  CHECK(c->files[1].status == FileReview::Clipped);
  CHECK(c->files[1].reason == "over the budget");
  CHECK_FALSE(c->complete);
  CHECK(c->reason == "token budget reached");
  CHECK(c->tokensUsed == 9000);
  CHECK(c->incrementalFrom == "1111111111111111111111111111111111111111");
  CHECK(reviewedPaths(*c) == std::vector<std::string>{"src/a.c"});
  auto minimal = parseCoverage(R"({"files":[],"complete":true,"incrementalFrom":null})");
  REQUIRE(minimal.ok());
  CHECK(minimal->complete);
  CHECK(minimal->incrementalFrom.empty());
}

TEST_CASE("coverage output: invalid files are refused with OUTPUT_INVALID and the JSON path") {
  struct Case {
    const char* text;
    const char* path;
  };
  for (const Case& k :
       {Case{"not json", "$"}, Case{R"({"files":[]})", "$"},
        Case{R"({"files":[{"path":"a","status":"read"}],"complete":true})", "$.files[0].status"},
        Case{R"({"files":[{"path":"../etc/passwd","status":"reviewed"}],"complete":true})", "$.files[0].path"},
        Case{R"({"files":[{"path":"/abs","status":"reviewed"}],"complete":true})", "$.files[0].path"},
        Case{R"({"files":[],"complete":true,"extra":1})", "$"},
        Case{R"({"files":[],"complete":true,"tokensUsed":-1})", "$.tokensUsed"}}) {
    CAPTURE(k.text);
    auto c = parseCoverage(k.text);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().code == ErrorCode::OutputInvalid);
    REQUIRE(c.error().location);
    CHECK(c.error().location->path.rfind(k.path, 0) == 0);
    CHECK(c.error().hint.find("schemas/coverage.schema.json") != std::string::npos);
  }
}

TEST_CASE("coverage output: bounded in size and in files, and a refused file reads as incomplete") {
  std::string big = R"({"files":[],"complete":true,"reason":")" + std::string(kMaxCoverageBytes, 'x') + "\"}";
  auto tooBig = parseCoverage(big);
  REQUIRE_FALSE(tooBig.ok());
  CHECK(tooBig.error().message.find("larger than") != std::string::npos);

  std::string many = R"({"complete":true,"files":[)";
  for (int i = 0; i <= 5000; ++i) many += std::string(i ? "," : "") + R"({"path":"f","status":"reviewed"})";
  many += "]}";
  auto tooMany = parseCoverage(many);
  REQUIRE_FALSE(tooMany.ok());
  CHECK(tooMany.error().location->path == "$.files");

  Coverage refused = invalidCoverage(tooMany.error());
  CHECK_FALSE(refused.complete);
  CHECK(refused.reason.rfind("coverage.json was refused (coverage.json: $.files: ", 0) == 0);
}
