// Escalation end to end (docs/taskpack.md, "Isolation and escalation"):
// `loopwright run` with a step that asks for L2 where no Docker engine is
// reachable (refused, exit 3, nothing ran), and a step whose model lane
// fails until its breaker opens escalateAfterCycles times: re-run once at
// L2 on the local Docker engine, never a second time.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_model.h"

using namespace lw::test;

namespace {

// A host config pinning `image` as the runtime profile `busybox`.
std::string pinnedProfileHost(const std::string& image) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nruntimeProfiles:\n  busybox: {image: \"" + image +
         "\"}\n";
}

// A step that calls model.complete over its bridge (fd 3) until it is
// stopped: once, then again after the breaker's 1 s cooldown, and so on.
// Only sh built-ins and sleep: the same script runs under bwrap and in busybox.
const std::string kModelCaller =
    "#!/bin/sh\n"
    "call='{\"jsonrpc\":\"2.0\",\"id\":ID,\"method\":\"tools/call\",\"params\":{\"name\":\"model.complete\","
    "\"arguments\":{\"messages\":[{\"role\":\"user\",\"content\":\"review this\"}]}}}'\n"
    "for id in 1 2 3 4; do\n"
    "  printf '%s\\n' \"$call\" | sed \"s/ID/$id/\" >&3\n"
    "  read -r answer <&3 || exit 0\n"
    "  echo \"$answer\" >> \"$LOOPWRIGHT_OUT/answers.log\"\n"
    "  sleep 2\n"
    "done\n";

}  // namespace

TEST_CASE(
    "escalation run: L2 asked on a host without a Docker engine exits 3 with ISOLATION_UNAVAILABLE, nothing ran "
    "[integration]") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: boxed\n          isolation: L2\n"
                            "          run: [sh, -c, 'echo ran > \"$LOOPWRIGHT_OUT/ran\"']\n",
                            "  sandbox: {preferredBackends: [linux-bwrap, docker], runtimeProfile: busybox}\n")}});
  writeFile(s.root / "host.yaml", pinnedProfileHost("sha256:" + std::string(64, 'a')));
  auto r = runDispatch(s, repo,
                       {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()},
                        {"DOCKER_HOST", "unix://" + (s.root / "no-engine.sock").string()}});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(s.root / "out"), "boxed");
  CHECK(step.at("outcome").as_string() == "refused");
  CHECK(step.at("backend").is_null());
  CHECK(step.at("exitStatus").as_int64() == -1);
  CHECK(step.at("message").as_string().rfind("ISOLATION_UNAVAILABLE: the step asks for isolation L2 (container", 0) ==
        0);
  const std::string blocker(step.at("blocker").as_string());
  CHECK(blocker.rfind("BLOCKER: no sandbox backend gives step s/boxed what its policy requires (ISOLATION_UNAVAILABLE)",
                      0) == 0);
  CHECK(blocker.find("no backend here gives L2: docker: unavailable: ") != std::string::npos);
  CHECK(blocker.find("never run at a lower level") != std::string::npos);
  CHECK(step.at("backendsRefused").at(0).as_string() ==
        "linux-bwrap: provides isolation L1, the policy requires at least L2");
  CHECK_FALSE(fs::exists(s.root / "out" / "steps" / "s" / "boxed" / "out" / "ran"));
  CHECK_FALSE(fs::exists(repo / "ran"));
}

TEST_CASE(
    "escalation run: breaker cycles re-run the step once at L2 on the local Docker engine, never a second time "
    "[integration]") {
  const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  const char* dockerHost = std::getenv("DOCKER_HOST");
  if (image == nullptr || dockerHost == nullptr)
    MESSAGE("skipped: no Docker engine reachable (scripts/docker-test-env.sh start; eval its env)");
  LW_REQUIRE_HOST(image != nullptr && dockerHost != nullptr,
                  "no test Docker engine (scripts/docker-test-env.sh start; eval its env)");
  FakeModel model;
  model.script(FakeModel::Reply::withStatus(503), 100);  // the lane never answers
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: flaky\n          run: [sh, .loopwright/agents/caller.sh]\n"
                            "          lane: fake\n          tools: [model.complete]\n"
                            "          idempotent: true\n          escalate: {to: L2}\n",
                            "  sandbox: {preferredBackends: [linux-bwrap, docker], runtimeProfile: busybox}\n"
                            "  guardrails:\n    breaker: {failures: 1, cooldownSeconds: 1, escalateAfterCycles: 2}\n"
                            "  lanes:\n    - {name: fake, api: openai-chat, baseUrl: \"" +
                                model.url() + "\", model: m, apiKeyEnv: LW_TEST_MODEL_KEY, timeoutMs: 2000}\n")},
                  {".loopwright/agents/caller.sh", kModelCaller}});
  writeFile(s.root / "host.yaml", pinnedProfileHost(image));
  auto r = runDispatch(s, repo,
                       {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()},
                        {"DOCKER_HOST", dockerHost},
                        {"LW_TEST_MODEL_KEY", "sk-test-not-a-secret"}});
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  auto step = stepOf(runJson(s.root / "out"), "flaky");
  INFO(boost::json::serialize(step));
  // Exactly two attempts: L1 on bwrap, stopped by the breaker; L2 on docker, stopped the same way.
  CHECK(step.at("outcome").as_string() == "blocked");
  CHECK(step.at("backend").as_string() == "docker");
  const auto& esc = step.at("escalation");
  CHECK(esc.at("from").as_string() == "L1");
  CHECK(esc.at("to").as_string() == "L2");
  CHECK(esc.at("trigger").as_string() == "BREAKER_OPEN");
  CHECK(esc.at("rerun").as_bool());
  CHECK(esc.at("firstAttempt").at("backend").as_string() == "linux-bwrap");
  CHECK(esc.at("firstAttempt").at("outcome").as_string() == "blocked");
  CHECK(std::string(esc.at("firstAttempt").at("blocker").as_string()).find("BREAKER_OPEN") != std::string::npos);
  bool secondStoppedByBreaker = false;
  for (const auto& e : step.at("guardrailEvents").as_array())
    secondStoppedByBreaker = secondStoppedByBreaker || (e.at("kind") == "stop" && e.at("code") == "BREAKER_OPEN");
  CHECK(secondStoppedByBreaker);
  CHECK(std::string(step.at("blocker").as_string())
            .find("This was the one re-run at L2 after BREAKER_OPEN; there is never a second.") != std::string::npos);
  // Both attempts' directories are kept; no third.
  const fs::path steps = s.root / "out" / "steps" / "s";
  CHECK(fs::exists(steps / "flaky.first-attempt" / "stdout.log"));
  CHECK(fs::exists(steps / "flaky" / "stdout.log"));
  CHECK_FALSE(fs::exists(steps / "flaky.first-attempt.first-attempt"));
  // Two failed calls opened the breaker twice on the first attempt; the re-run's call was refused without a request.
  CHECK(model.count() == 2);
  CHECK(r.out.find("flaky: blocked by BREAKER_OPEN; re-run once at L2") != std::string::npos);
  CHECK(r.out.find("escalation L1 -> L2 on BREAKER_OPEN: re-run once; the first attempt was blocked on linux-bwrap") !=
        std::string::npos);
}

TEST_CASE("escalation run: breaker cycles re-run the step once at L3 under gVisor, its bridge at fd 3 [integration]") {
  LW_REQUIRE_HOST(::access("/usr/bin/runsc", X_OK) == 0, "gVisor (runsc) is not installed");
  FakeModel model;
  model.script(FakeModel::Reply::withStatus(503), 100);  // the lane never answers
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: flaky\n          run: [sh, .loopwright/agents/caller.sh]\n"
                            "          lane: fake\n          tools: [model.complete]\n"
                            "          idempotent: true\n          escalate: {to: L3}\n",
                            "  sandbox: {preferredBackends: [linux-bwrap, linux-gvisor]}\n"
                            "  guardrails:\n    breaker: {failures: 1, cooldownSeconds: 1, escalateAfterCycles: 2}\n"
                            "  lanes:\n    - {name: fake, api: openai-chat, baseUrl: \"" +
                                model.url() + "\", model: m, apiKeyEnv: LW_TEST_MODEL_KEY, timeoutMs: 2000}\n")},
                  {".loopwright/agents/caller.sh", kModelCaller}});
  auto r = runDispatch(s, repo, {{"LW_TEST_MODEL_KEY", "sk-test-not-a-secret"}});
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  auto step = stepOf(runJson(s.root / "out"), "flaky");
  INFO(boost::json::serialize(step));
  // Two attempts: L1 on bwrap, stopped by the breaker; L3 on gVisor, stopped the same way.
  CHECK(step.at("outcome").as_string() == "blocked");
  CHECK(step.at("backend").as_string() == "linux-gvisor");
  const auto& esc = step.at("escalation");
  CHECK(esc.at("from").as_string() == "L1");
  CHECK(esc.at("to").as_string() == "L3");
  CHECK(esc.at("rerun").as_bool());
  CHECK(esc.at("firstAttempt").at("backend").as_string() == "linux-bwrap");
  CHECK(std::string(step.at("blocker").as_string())
            .find("This was the one re-run at L3 after BREAKER_OPEN; there is never a second.") != std::string::npos);
  // The re-run called over its bridge (fd 3 inside gVisor), and the open breaker stopped it.
  bool secondStoppedByBreaker = false;
  for (const auto& e : step.at("guardrailEvents").as_array())
    secondStoppedByBreaker = secondStoppedByBreaker || (e.at("kind") == "stop" && e.at("code") == "BREAKER_OPEN");
  CHECK(secondStoppedByBreaker);
  CHECK(model.count() == 2);
}

namespace {

// `loopwright run` of one step calling a lane that always fails, on bwrap
// first, where no Docker engine is reachable.
CliRun runFlakyWithoutEngine(const Scratch& s, FakeModel& model, const std::string& stepKeys) {
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: flaky\n          run: [sh, .loopwright/agents/caller.sh]\n"
                            "          lane: fake\n          tools: [model.complete]\n" +
                                stepKeys,
                            "  sandbox: {preferredBackends: [linux-bwrap, docker], runtimeProfile: busybox}\n"
                            "  guardrails:\n    breaker: {failures: 1, cooldownSeconds: 1, escalateAfterCycles: 2}\n"
                            "  lanes:\n    - {name: fake, api: openai-chat, baseUrl: \"" +
                                model.url() + "\", model: m, apiKeyEnv: LW_TEST_MODEL_KEY, timeoutMs: 2000}\n")},
                  {".loopwright/agents/caller.sh", kModelCaller}});
  writeFile(s.root / "host.yaml", pinnedProfileHost("sha256:" + std::string(64, 'a')));
  return runDispatch(s, repo,
                     {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()},
                      {"DOCKER_HOST", "unix://" + (s.root / "no-engine.sock").string()},
                      {"LW_TEST_MODEL_KEY", "sk-test-not-a-secret"}});
}

}  // namespace

TEST_CASE(
    "escalation run: the re-run's level has no backend here: refused ISOLATION_UNAVAILABLE, exit 3, never run lower "
    "[integration]") {
  FakeModel model;
  model.script(FakeModel::Reply::withStatus(500), 100);
  Scratch s;
  auto r = runFlakyWithoutEngine(s, model, "          idempotent: true\n          escalate: {}\n");
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto flaky = stepOf(runJson(s.root / "out"), "flaky");
  INFO(boost::json::serialize(flaky));
  CHECK(flaky.at("outcome").as_string() == "refused");
  CHECK(flaky.at("backend").is_null());
  CHECK(flaky.at("message").as_string().rfind("ISOLATION_UNAVAILABLE: the step asks for isolation L2", 0) == 0);
  CHECK(flaky.at("escalation").at("rerun").as_bool());
  CHECK(flaky.at("escalation").at("firstAttempt").at("backend").as_string() == "linux-bwrap");
  CHECK(flaky.at("escalation").at("firstAttempt").at("outcome").as_string() == "blocked");
}

TEST_CASE("escalation run: a step that is not idempotent is not re-run, and its BLOCKER says why [integration]") {
  FakeModel model;
  model.script(FakeModel::Reply::withStatus(500), 100);
  Scratch s;
  auto r = runFlakyWithoutEngine(s, model, "          escalate: {to: L2}\n");
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  auto flaky = stepOf(runJson(s.root / "out"), "flaky");
  CHECK(flaky.at("outcome").as_string() == "blocked");
  CHECK(flaky.at("backend").as_string() == "linux-bwrap");
  CHECK_FALSE(flaky.at("escalation").at("rerun").as_bool());
  CHECK(std::string(flaky.at("blocker").as_string())
            .ends_with(" Not re-run at L2: the step is not idempotent (idempotent: true allows one re-run)."));
  CHECK(model.count() == 2);
}
