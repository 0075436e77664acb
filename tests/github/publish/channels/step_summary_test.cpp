#include <doctest/doctest.h>

#include "github/actions/actions_files.h"
#include "github/publish/channels/channels.h"

using namespace lw;
using namespace lw::github;

namespace {

PublicationRequest request(int findings) {
  PublicationRequest r;
  r.id = "x";
  r.repo = {"o", "r"};
  r.number = 5;
  r.isPullRequest = true;
  r.headSha = "0123456789abcdef";
  r.conclusion = lw::github::Conclusion::Failure;
  r.steps.push_back(StepRow{.stage = "review",
                            .step = "sec|x",
                            .backend = "linux-landlock",
                            .capabilities = {"filesystemReadContainment"},
                            .durationMs = 250,
                            .exitCode = 4,
                            .guardrailEvents = {"loop stop: a x5", "budget"},
                            .blocked = true,
                            .blocker = "BLOCKER: loop.\nNext action: retry"});
  StageResult s{"review", {}};
  for (int i = 0; i < findings; ++i) {
    Finding f;
    f.step = "sec";
    f.ruleId = "r";
    f.severity = Severity::Warning;
    f.message = std::string(100, 'm') + " #" + std::to_string(i);
    f.path = "a.c";
    f.line = i + 1;
    s.findings.push_back(f);
  }
  r.stages.push_back(s);
  return r;
}

}  // namespace

TEST_CASE("step summary: step table with backends, capabilities, guardrail events and blockers") {
  PublicationOutcome o;
  o.channels.push_back({"review", ChannelState::PermissionDenied, "POST review: HTTP 403"});
  o.permissionDenied = true;
  std::string md = renderStepSummary(request(1), o, "/state/outbox/x.json", 0);
  CHECK(md.rfind("## loopwright: failure\n\no/r pull request #5 at `0123456789ab`\n", 0) == 0);
  CHECK(md.find(
            "| review | sec\\|x | linux-landlock | filesystemReadContainment | 250 ms | 4 | loop stop: a x5; budget | "
            "blocked: BLOCKER: loop. Next action: retry |") != std::string::npos);
  CHECK(md.find("| review | permission denied | POST review: HTTP 403 |") != std::string::npos);
  CHECK(md.find("a pull request from a fork gets a read-only token") != std::string::npos);
  CHECK(md.find("publish --resume") == std::string::npos);  // a refusal is final: nothing to resume
  CHECK(md.find("| warning | `a.c:1` | `r` | sec | " + std::string(100, 'm') + " #0 |") != std::string::npos);
}

TEST_CASE("step summary: a pending publication says the next run finishes it, a parked one says it is not retried") {
  PublicationOutcome o;
  o.channels.push_back({"review", ChannelState::Failed, "no head commit"});
  o.kept = PublicationOutcome::Kept::Pending;
  o.lastError = "review: no head commit";
  o.attempts = 1;
  std::string pending = renderStepSummary(request(1), o, "/state/outbox/x.json", 0);
  CHECK(
      pending.find("kept in `/state/outbox/x.json` and the next run, or `loopwright publish --resume`, finishes it") !=
      std::string::npos);
  o.kept = PublicationOutcome::Kept::Parked;
  o.attempts = 3;
  std::string parked = renderStepSummary(request(1), o, "/state/outbox/parked/x.json", 0);
  CHECK(parked.find("failed 3 times and is parked in `/state/outbox/parked/x.json`; it is not retried. Last error: "
                    "review: no head commit") != std::string::npos);
}

TEST_CASE("step summary: stays within 1 MiB with what is already in the file, and says where the rest is") {
  PublicationOutcome o;
  o.complete = true;
  std::string md = renderStepSummary(request(20000), o, "/state/outbox/done/x.json", 1000);
  CHECK(md.size() + 1000 <= kMaxStepSummaryBytes);
  CHECK(md.find("more finding(s) did not fit: the step summary is limited to 1 MiB; all are in "
                "`/state/outbox/done/x.json`") != std::string::npos);
  CHECK(md.find("kept in") == std::string::npos);
}
