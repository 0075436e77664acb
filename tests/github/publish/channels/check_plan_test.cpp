#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/channels/check_plan.h"

using namespace lw;
using namespace lw::github;

namespace {

Finding f(Severity s, std::string path, int line, int endLine = 0) {
  Finding x;
  x.step = "lint";
  x.ruleId = "r1";
  x.severity = s;
  x.path = std::move(path);
  x.line = line;
  x.endLine = endLine;
  x.message = "m|x\ny";
  return x;
}

}  // namespace

TEST_CASE("check plan: annotations in batches of 50, levels, lines, and the conclusion from the fail level") {
  StageResult stage{"lint", {}};
  for (int i = 0; i < 101; ++i) stage.findings.push_back(f(Severity::Warning, "a.c", i + 1));
  CheckRunPlan p = planCheckRun(stage, {}, "abcdef0123456789", FailOn::Error);
  REQUIRE(p.batches.size() == 3);
  CHECK(p.batches[0].size() == 50);
  CHECK(p.batches[1].size() == 50);
  CHECK(p.batches[2].size() == 1);
  CHECK(p.annotated == 101);
  CHECK(p.conclusion == "success");
  CHECK(p.name == "loopwright / lint");
  CHECK(p.title == "0 error(s), 101 warning(s), 0 notice(s)");
  CHECK(p.batches[0][0].at("annotation_level") == "warning");
  CHECK(planCheckRun(stage, {}, "abcdef0123456789", FailOn::Warning).conclusion == "failure");
  CHECK(planCheckRun(stage, {}, "abcdef0123456789", FailOn::Never).conclusion == "success");
}

TEST_CASE("check plan: whole-file and whole-change findings, blocked steps, stable external id") {
  StageResult stage{"review",
                    {f(Severity::Error, "a.c", 0), f(Severity::Notice, "", 0), f(Severity::Notice, "b.c", 4, 6)}};
  std::vector<StepRow> steps = {StepRow{.stage = "review",
                                        .step = "sec",
                                        .backend = {},
                                        .capabilities = {},
                                        .durationMs = 0,
                                        .exitCode = 4,
                                        .guardrailEvents = {},
                                        .blocked = true,
                                        .blocker = "BLOCKER: loop detected.\nLast safe state: x."},
                                StepRow{.stage = "other",
                                        .step = "x",
                                        .backend = {},
                                        .capabilities = {},
                                        .durationMs = 0,
                                        .exitCode = 0,
                                        .guardrailEvents = {},
                                        .blocked = true,
                                        .blocker = "not ours"}};
  CheckRunPlan p = planCheckRun(stage, steps, "abcdef0123456789", FailOn::Never);
  CHECK(p.conclusion == "failure");  // a blocked step fails its stage
  REQUIRE(p.batches.size() == 1);
  REQUIRE(p.batches[0].size() == 2);
  CHECK(p.batches[0][0].at("start_line") == 1);  // line 0: the file as a whole, shown at line 1
  CHECK(p.batches[0][0].at("annotation_level") == "failure");
  CHECK(p.batches[0][1].at("start_line") == 4);
  CHECK(p.batches[0][1].at("end_line") == 6);
  CHECK(p.summary.find("- `sec`: BLOCKER: loop detected. Last safe state: x.") != std::string::npos);
  CHECK(p.summary.find("not ours") == std::string::npos);
  CHECK(p.summary.find("| error | `a.c` | `r1` | lint | m\\|x y |") != std::string::npos);
  CHECK(p.externalId == planCheckRun(stage, steps, "abcdef0123456789", FailOn::Never).externalId);
  stage.findings.pop_back();
  CHECK(p.externalId != planCheckRun(stage, steps, "abcdef0123456789", FailOn::Never).externalId);
}

TEST_CASE("check plan: truncation keeps the note and UTF-8 intact") {
  CHECK(truncateWithNote("short", 10, "!") == "short");
  CHECK(truncateWithNote("0123456789abc", 10, "[cut]") == "01234[cut]");
  std::string s = "aé";  // 'é' is two bytes
  CHECK(truncateWithNote(s + "xyz", 3, "!") == "a!");
}
