#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

TEST_CASE("publish limits: 100 findings on the diff give one review, 50 inline and the rest in its body") {
  Harness h;
  std::vector<Finding> findings;
  for (int i = 0; i < 100; ++i)
    findings.push_back(finding(Severity::Warning, i % 2 ? "src/app.c" : "docs/guide.md",
                               i % 2 ? 1 + (i % 12) : 1 + (i % 5), "finding number " + std::to_string(i)));
  auto request = prRequest({StageResult{"review", findings}});
  request.options.checks = false;
  auto out = h.publisher().publish(request);
  REQUIRE_MESSAGE(out.ok(), h.log.str());
  REQUIRE(h.gh.reviews(7).size() == 1);
  CHECK(h.gh.count("POST", "/pulls/7/reviews") == 1);
  CHECK(h.gh.reviewComments(7).size() == 50);
  std::string body(h.gh.reviews(7)[0].at("body").as_string());
  CHECK(body.find("100 new findings: 50 inline, 50 below") != std::string::npos);
  CHECK(body.find("#### Over the limit of 50 inline comments") != std::string::npos);
  // Every finding is visible: inline or in the body.
  std::string all = body;
  for (const auto& c : h.gh.reviewComments(7)) all += std::string(c.at("body").as_string());
  for (int i = 0; i < 100; ++i) {
    std::string m = "finding number " + std::to_string(i);
    bool shown = all.find(m + "\n") != std::string::npos || all.find(m + " <!--") != std::string::npos;
    CHECK_MESSAGE(shown, m);
  }
}

TEST_CASE("publish limits: 101 annotations go in PATCHes of 50, 50 and 1, the last completing the check run") {
  Harness h;
  std::vector<Finding> findings;
  for (int i = 0; i < 101; ++i)
    findings.push_back(finding(Severity::Notice, "lib/file" + std::to_string(i) + ".c", 1, "n"));
  auto request = prRequest({StageResult{"lint", findings}});
  request.options.review = ReviewMode::None;
  REQUIRE_MESSAGE(h.publisher().publish(request).ok(), h.log.str());
  std::vector<std::size_t> sizes;
  std::vector<bool> completes;
  for (const auto& r : h.gh.requests()) {
    if (r.method != "PATCH" || r.path.find("/check-runs/") == std::string::npos) continue;
    json::value b = json::parse(r.body);
    sizes.push_back(b.at("output").at("annotations").as_array().size());
    completes.push_back(b.as_object().contains("status"));
  }
  CHECK(sizes == std::vector<std::size_t>{50, 50, 1});
  CHECK(completes == std::vector<bool>{false, false, true});
  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("conclusion") == "success");
  CHECK(h.gh.annotations(runs[0].at("id").as_int64()).size() == 101);
}

TEST_CASE("publish limits: a check summary over 65,535 characters is truncated with a note") {
  Harness h;
  std::vector<Finding> findings;
  std::string longText(700, 'x');
  for (int i = 0; i < 120; ++i) findings.push_back(finding(Severity::Error, "", 0, longText + std::to_string(i)));
  auto request = prRequest({StageResult{"review", findings}});
  request.options.review = ReviewMode::None;
  REQUIRE_MESSAGE(h.publisher().publish(request).ok(), h.log.str());
  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 1);
  std::string summary(runs[0].at("output").at("summary").as_string());
  CHECK(summary.size() <= 65535);
  CHECK(summary.find("_Truncated: the summary is limited to 65,535 characters") != std::string::npos);
  // The findings that did not fit are still in the step summary.
  std::string step = readFile(h.publisherConfig.stepSummaryPath);
  CHECK(step.find(longText + "119") != std::string::npos);
}
