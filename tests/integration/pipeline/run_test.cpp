#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "integration/pipeline/pipeline_fixture.h"

using namespace lw::test;

namespace {

const std::string kExampleDir = std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/review";

bool bwrapWorks() { return sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0; }

// True while any process's command line contains `marker`.
bool processWithMarker(const std::string& marker) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = readFile(e.path() / "cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(marker) != std::string::npos && cmdline.find("grep") == std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("run: the example review pipeline — findings, a bridge tool call, a loop stopped with a BLOCKER") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  Scratch s;
  REQUIRE(sh(kExampleDir + "/make-repo.sh " + (s.root / "repo").string()) == 0);
  auto r = runCli({"run", "--repo", (s.root / "repo").string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "repo.event.json").string(), "--out", (s.root / "out").string()},
                  hostEnv(s.root));
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  auto run = runJson(s.root / "out");
  CHECK(run.at("event").at("action").as_string() == "opened");
  // The taskpack came from the base commit, not the pull request's tree.
  CHECK(run.at("taskpack").as_string().ends_with(":.loopwright/taskpack.yaml"));

  auto lint = stepOf(run, "lint");
  CHECK(lint.at("outcome").as_string() == "passed");
  CHECK(lint.at("verification").at("result").as_string() == "passed");
  CHECK(lint.at("outputsAccepted").as_bool());
  REQUIRE(lint.at("findings").as_array().size() == 2);
  CHECK(lint.at("findings").as_array()[1].at("path").as_string() == "src/greet.py");
  CHECK(lint.at("findings").as_array()[1].at("line").as_int64() == 3);

  auto bridge = stepOf(run, "bridge-demo");
  CHECK(bridge.at("outcome").as_string() == "passed");
  CHECK(bridge.at("toolCalls").as_int64() == 2);
  REQUIRE(bridge.at("findings").as_array().size() == 1);
  CHECK(bridge.at("findings").as_array()[0].at("ruleId").as_string() == "docs/readme");

  auto looper = stepOf(run, "looper");
  CHECK(looper.at("outcome").as_string() == "blocked");
  CHECK(looper.at("toolCalls").as_int64() == 5);
  const auto& events = looper.at("guardrailEvents").as_array();
  REQUIRE(events.size() == 3);
  CHECK(events[0].at("kind").as_string() == "warn");
  CHECK(events[2].at("kind").as_string() == "stop");
  CHECK(events[2].at("code").as_string() == "LOOP_DETECTED");
  CHECK(looper.at("blocker").as_string().rfind("BLOCKER: step review/looper was stopped by LOOP_DETECTED", 0) == 0);
  CHECK(r.out.find("BLOCKER: step review/looper") != std::string::npos);
  CHECK(r.out.find("lint/todo src/greet.py:2") != std::string::npos);
}

TEST_CASE("run: a reviewer that writes is quarantined and the working tree restored") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: review\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - {name: sneaky, run: [sh, -c, 'echo pwned > README && echo x >> kept.txt']}\n",
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")},
                  {"kept.txt", "original\n"}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  CHECK(r.status == 5);
  auto step = stepOf(runJson(s.root / "out"), "sneaky");
  CHECK(step.at("outcome").as_string() == "quarantined");
  CHECK(step.at("verification").at("violation").as_string() == "READ_ONLY_VIOLATION");
  CHECK_FALSE(step.at("outputsAccepted").as_bool());
  std::string ref = std::string(step.at("verification").at("quarantineRef").as_string());
  CHECK(ref.rfind("refs/loopwright/quarantine/", 0) == 0);
  CHECK(!fs::exists(repo / "README"));
  CHECK(readFile(repo / "kept.txt") == "original\n");
  CHECK(sh("cd '" + repo.string() + "' && git rev-parse -q --verify '" + ref + "' >/dev/null") == 0);
}

TEST_CASE("run: a violation that cannot be undone stops the run, no later stage runs on that tree") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: first\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - {name: sneaky, run: [sh, -c, 'rm pipe']}\n"
                            "    - name: second\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - {name: later, run: [true]}\n",
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")}});
  // A named pipe: detected when it goes, but nothing a restore can recreate.
  REQUIRE(sh("mkfifo '" + (repo / "pipe").string() + "'") == 0);
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  CHECK(r.status == 5);
  auto run = runJson(s.root / "out");
  auto sneaky = stepOf(run, "sneaky");
  CHECK(sneaky.at("outcome").as_string() == "quarantined");
  CHECK_FALSE(sneaky.at("verification").at("repositoryIntact").as_bool());
  CHECK(stepOf(run, "later").at("outcome").as_string() == "skipped");
  CHECK(run.at("stages").as_array()[1].at("skippedBecause").as_string() ==
        "step 'sneaky' of stage 'first' changed the repository and the change could not be undone");
}

TEST_CASE("run: steps of a stage run in parallel and share nothing of their out dirs") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  std::string steps;
  for (const char* n : {"a", "b", "c"})
    steps += std::string("        - {name: ") + n + ", run: [sh, -c, 'echo " + n +
             " > \"$LOOPWRIGHT_OUT/result.txt\"; sleep 1']}\n";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n" + steps,
                            "  sandbox: {preferredBackends: [linux-bwrap]}\n  maxConcurrency: 3\n")}});
  auto t0 = std::chrono::steady_clock::now();
  auto r = runDispatch(s, repo);
  auto elapsed = std::chrono::steady_clock::now() - t0;
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  for (const char* n : {"a", "b", "c"})
    CHECK(readFile(s.root / "out/steps/s" / n / "out/result.txt") == std::string(n) + "\n");
  // Side by side: the stage takes at least its longest step and less than
  // the sum of its steps, each as long as it took in this same run (a loaded
  // machine slows both alike).
  auto run = runJson(s.root / "out");
  double stageMs = run.at("stages").at(0).at("durationMs").to_number<double>();
  double longestMs = 0;
  double sumMs = 0;
  for (const char* n : {"a", "b", "c"}) {
    double stepMs = stepOf(run, n).at("durationMs").to_number<double>();
    longestMs = std::max(longestMs, stepMs);
    sumMs += stepMs;
  }
  INFO("stage " << stageMs << " ms, steps " << sumMs << " ms in all, process "
                << std::chrono::duration<double, std::milli>(elapsed).count() << " ms");
  CHECK(longestMs >= 1000);
  CHECK(stageMs >= longestMs);
  CHECK(stageMs < sumMs);
  CHECK(r.out.find("stage s (") != std::string::npos);
}

TEST_CASE("run: a step past its wall time is killed with its tree and yields a BLOCKER") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(
      repo,
      {{".loopwright/taskpack.yaml",
        taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                 "        - {name: slow, run: [sh, -c, 'sleep 4242.5 & sleep 4242.5'], limits: {wallTimeMs: 1000}}\n",
                 "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  auto step = stepOf(runJson(s.root / "out"), "slow");
  CHECK(step.at("outcome").as_string() == "blocked");
  CHECK(step.at("timedOut").as_bool());
  CHECK(step.at("blocker").as_string().find("wall time of 1000 ms") != std::string::npos);
  CHECK_FALSE(processWithMarker("4242.5"));
}

TEST_CASE("run: no backend gives the policy: the step is refused, fail closed, exit 3") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                                                         "        - {name: mac, run: [true]}\n",
                                                         "  sandbox: {preferredBackends: [macos-seatbelt]}\n")}});
  auto r = runDispatch(s, repo);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(s.root / "out"), "mac");
  CHECK(step.at("outcome").as_string() == "refused");
  CHECK(step.at("message").as_string().rfind("SANDBOX_BACKEND_UNAVAILABLE", 0) == 0);
  CHECK(step.at("blocker").as_string().rfind("BLOCKER: no sandbox backend", 0) == 0);
}

TEST_CASE("run: a stage whose needs failed is skipped, stages the event does not select are listed") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: first\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - {name: fails, run: [sh, -c, 'exit 3']}\n"
                            "    - name: second\n      on: [workflow_dispatch]\n      needs: [first]\n      steps:\n"
                            "        - {name: never, run: [true]}\n"
                            "    - name: other\n      on: [issues]\n      steps:\n"
                            "        - {name: x, run: [true]}\n",
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")}});
  auto r = runDispatch(s, repo);
  CHECK(r.status == 1);
  auto run = runJson(s.root / "out");
  CHECK(stepOf(run, "fails").at("outcome").as_string() == "failed");
  CHECK(stepOf(run, "never").at("outcome").as_string() == "skipped");
  CHECK(run.at("stages").as_array()[1].at("skippedBecause").as_string() == "needs 'first', whose step 'fails' failed");
  CHECK(run.at("stagesNotSelected").as_array() == boost::json::array{"other"});
}

TEST_CASE("run: killing loopwright run mid-stage leaves no step process behind") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create namespaces here");
  for (const char* backend : {"linux-bwrap", "direct-dedicated"}) {
    CAPTURE(backend);
    Scratch s;
    fs::path repo = s.root / "repo";
    // bwrap does not enforce allow-outbound; direct-dedicated only gives that.
    std::string sandbox = std::string(backend) == "linux-bwrap"
                              ? "  sandbox: {preferredBackends: [linux-bwrap]}\n"
                              : "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n";
    makeRepo(repo, {{".loopwright/taskpack.yaml",
                     taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                              "        - {name: daemon, run: [sh, -c, 'setsid sleep 5151.5 & sleep 5151.5']}\n",
                              sandbox)}});
    std::string cfg = "LOOPWRIGHT_HOST_CONFIG=" + hostEnv(s.root).begin()->second;
    std::string out = (s.root / "out").string(), r = repo.string();
    pid_t pid = ::fork();
    if (pid == 0) {
      char* envp[] = {const_cast<char*>("PATH=/usr/bin:/bin"), const_cast<char*>("HOME=/root"), cfg.data(), nullptr};
      ::execle(LOOPWRIGHT_BIN, LOOPWRIGHT_BIN, "run", "--repo", r.c_str(), "--event-name", "workflow_dispatch", "--out",
               out.c_str(), static_cast<char*>(nullptr), envp);
      ::_exit(127);
    }
    // Wait until the step's sleepers exist, then kill the orchestrator outright.
    for (int i = 0; i < 100 && !processWithMarker("5151.5"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(processWithMarker("5151.5"));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    bool gone = false;
    for (int i = 0; i < 50 && !gone; ++i) {
      gone = !processWithMarker("5151.5");
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(gone);
  }
}

TEST_CASE(
    "run: a docker step runs the host admin's pinned image, with its bridge connected at fd 3 and the event copied") {
  const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  const char* dockerHost = std::getenv("DOCKER_HOST");
  LW_REQUIRE_HOST(image != nullptr && dockerHost != nullptr,
                  "no test Docker engine (scripts/docker-test-env.sh start; eval its env)");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: boxed\n"
                            "          run: [sh, -c, 'test \"$LOOPWRIGHT_BRIDGE\" = fd:3 && test -S /proc/self/fd/3 && "
                            "grep -q . \"$LOOPWRIGHT_EVENT\" && "
                            "echo "
                            "\"{\\\"findings\\\":[{\\\"ruleId\\\":\\\"x/"
                            "y\\\",\\\"severity\\\":\\\"notice\\\",\\\"message\\\":\\\"m\\\"}]}\" "
                            "> \"$LOOPWRIGHT_OUT/findings.json\"']\n",
                            "  sandbox: {preferredBackends: [docker], runtimeProfile: busybox}\n")}});
  writeFile(s.root / "profiles.yaml", std::string("apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                                                  "runtimeProfiles:\n  busybox: {image: \"") +
                                          image + "\"}\n");
  auto r = runDispatch(s, repo,
                       {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "profiles.yaml").string()}, {"DOCKER_HOST", dockerHost}});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto step = stepOf(runJson(s.root / "out"), "boxed");
  CHECK(step.at("backend").as_string() == "docker");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("findings").as_array().size() == 1);
}
