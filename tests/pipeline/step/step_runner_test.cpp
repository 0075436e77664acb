// runStep with a fake backend, process and bridge: the effects between
// planStep and settleStep happen in order and reach the record.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "pipeline/step/step_runner.h"
#include "pipeline/step_fakes.h"

using namespace lw;
using namespace lw::test;

TEST_CASE("step runner: the wall-time stop is recorded at the time the step was stopped") {
  FakeRun run;
  FakeStepScript script;
  script.runsPastDeadline = true;
  FakeBackend backend(run.clock, {}, script);
  FakeBridgeFactory bridges;
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Blocked);
  CHECK(rec.timedOut);
  REQUIRE(rec.guardrails.size() == 1);
  CHECK(rec.guardrails[0].code == "BUDGET_EXCEEDED");
  // The fake step was stopped exactly at its wall time of 1500 ms.
  CHECK(rec.guardrails[0].atMs == 1500);
  CHECK(rec.durationMs == 1500);
}

TEST_CASE("step runner: a descriptor backend is handed the bridge's fd, and the event stays the run's") {
  FakeRun run;
  FakeBackend backend(run.clock, {}, FakeStepScript{});
  FakeBridgeFactory bridges;
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Passed);
  REQUIRE(bridges.socketPath.has_value());
  CHECK(bridges.socketPath->empty());
  REQUIRE(backend.launched.has_value());
  CHECK(backend.launched->passFd == std::optional<int>(42));
  CHECK(backend.launched->env.at("LOOPWRIGHT_EVENT") == run.ctx.eventFile.string());
  // The planner's notes of the launched process reach the record.
  CHECK(rec.sandboxNotes == std::vector<std::string>{"protected path .git/hooks reached through a symlink: not bound"});
}

TEST_CASE("step runner: a socket backend gets its bridge on a socket in its private out dir, and a copy of the event") {
  FakeRun run;
  sandbox::BackendTraits traits;
  traits.bridge = sandbox::BackendTraits::BridgeTransport::SocketPath;
  traits.hostFilesVisible = false;
  FakeBackend backend(run.clock, traits, FakeStepScript{});
  FakeBridgeFactory bridges;
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Passed);
  const auto outDir = run.ctx.outRoot / "steps/review/check/out";
  CHECK(bridges.socketPath == std::optional<std::string>((outDir / "bridge.sock").string()));
  REQUIRE(backend.launched.has_value());
  CHECK_FALSE(backend.launched->passFd.has_value());
  CHECK(std::filesystem::is_regular_file(outDir / "event.json"));
  CHECK((std::filesystem::status(outDir).permissions() & std::filesystem::perms::all) ==
        std::filesystem::perms::owner_all);
}

TEST_CASE("step runner: the bridge's calls are written, masked, to bridge-calls.log beside the logs") {
  FakeRun run;
  FakeStepScript script;
  script.stdoutText = "token s3cr3t-value\n";
  FakeBackend backend(run.clock, {}, script);
  FakeBridgeFactory bridges;
  bridges.outcome.callLog = {"findings.report ok 3 ms", "s3cr3t-value unknown 0 ms"};
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Passed);
  const auto stepDir = run.ctx.outRoot / "steps/review/check";
  std::ifstream calls(stepDir / "bridge-calls.log");
  std::string text((std::istreambuf_iterator<char>(calls)), std::istreambuf_iterator<char>());
  CHECK(text == "findings.report ok 3 ms\n*** unknown 0 ms\n");
  std::ifstream out(stepDir / "stdout.log");
  std::string outText((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  CHECK(outText == "token ***\n");
  CHECK(rec.secretsMasked == 2);
}

TEST_CASE("step runner: a reviewer that writes the repository is quarantined and the tree restored") {
  FakeRun run;
  FakeStepScript script;
  script.repoWrites = {{"src/a.txt", "changed\n"}};
  script.outFiles = {{"findings.json", R"({"findings":[{"ruleId":"r","severity":"notice","message":"m"}]})"}};
  FakeBackend backend(run.clock, {}, script);
  FakeBridgeFactory bridges;
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Quarantined);
  CHECK(rec.verification == verify::Verification::Violation);
  CHECK(rec.findings.empty());
  std::ifstream a(run.ctx.repo / "src/a.txt");
  std::string text((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
  CHECK(text == "a\n");
}

TEST_CASE("step runner: a failed launch is an error, after the bridge was finished") {
  FakeRun run;
  FakeBackend backend(run.clock, {}, FakeStepScript{});
  backend.launchError = makeError(ErrorCode::SandboxLaunchFailed, "no bwrap");
  FakeBridgeFactory bridges;
  auto rec = run.run(backend, bridges);
  CHECK(rec.outcome == pipeline::StepOutcome::Error);
  CHECK(rec.message == "launch: no bwrap");
  CHECK(rec.backend == "linux-bwrap");
  CHECK(rec.limits.is_array());
}

TEST_CASE("step runner: a refused negotiation runs nothing and says why") {
  FakeRun run;
  FakeBackend backend(run.clock, {}, FakeStepScript{});
  FakeBridgeFactory bridges;
  Error refusal = makeError(ErrorCode::SandboxCapabilityInsufficient, "no backend gives networkIsolation");
  refusal.diagnostics.push_back({{}, "linux-bwrap: no user namespaces", ""});
  auto rec = run.run(backend, bridges, Result<sandbox::Negotiated>(refusal));
  CHECK(rec.outcome == pipeline::StepOutcome::Refused);
  CHECK(rec.message == "SANDBOX_CAPABILITY_INSUFFICIENT: no backend gives networkIsolation");
  CHECK(rec.refusals == std::vector<std::string>{"linux-bwrap: no user namespaces"});
  CHECK(rec.blocker.rfind("BLOCKER: ", 0) == 0);
  CHECK_FALSE(backend.launched.has_value());
  CHECK_FALSE(bridges.socketPath.has_value());
}
