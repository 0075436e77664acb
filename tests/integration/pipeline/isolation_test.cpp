// `loopwright run` at L3: a step under gVisor end to end where runsc is
// installed; refused before anything runs, exit 3, with a BLOCKER naming the
// level and what is missing where it is not; and the loud warning when GitHub Actions'
// default runs steps unsandboxed on a runner that is not GitHub-hosted.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <set>
#include <thread>

#include "integration/pipeline/pipeline_fixture.h"
#include "sandbox/gvisor/gvisor_container.h"

using namespace lw::test;

namespace {

const std::string kOneStep =
    "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
    "        - {name: review, run: [sh, -c, 'touch \"$LOOPWRIGHT_OUT/ran\"']}\n";

}  // namespace

TEST_CASE("run: a taskpack asking for isolation L3 runs its step under gVisor: findings out, verification passed") {
  LW_REQUIRE_HOST(::access("/usr/bin/runsc", X_OK) == 0, "gVisor (runsc) is not installed");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: boxed\n"
                            "          run: [sh, -c, 'uname -r > \"$LOOPWRIGHT_OUT/kernel\" && test "
                            "\"$LOOPWRIGHT_BRIDGE\" = fd:3 && test -S /proc/self/fd/3 && "
                            "echo "
                            "\"{\\\"findings\\\":[{\\\"ruleId\\\":\\\"x/"
                            "y\\\",\\\"severity\\\":\\\"notice\\\",\\\"message\\\":\\\"m\\\"}]}\" "
                            "> \"$LOOPWRIGHT_OUT/findings.json\"']\n",
                            "  isolation: L3\n")}});
  auto r = runDispatch(s, repo, {});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto step = stepOf(runJson(s.root / "out"), "boxed");
  CHECK(step.at("backend").as_string() == "linux-gvisor");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("verification").at("result").as_string() == "passed");
  REQUIRE(step.at("findings").as_array().size() == 1);
  CHECK(step.at("findings").as_array()[0].at("ruleId").as_string() == "x/y");
  CHECK(readFile(s.root / "out/steps/s/boxed/out/kernel") == "4.4.0\n");
}

namespace {

// The containers (lw-<loopwright's pid>-<n>) of the gVisor scratch under `tmp` now.
void noteContainers(const fs::path& tmp, std::set<std::string>& seen) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(tmp, ec)) {
    std::string container;
    std::ifstream(e.path() / "container") >> container;
    if (container.starts_with(lw::sandbox::gvisor::kContainerPrefix)) seen.insert(container);
  }
}

// The step cgroups around runsc for `container` (loopwright-<container>), under each controller or the root.
std::vector<fs::path> cgroupsOf(const std::string& container) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::directory_entry& top : fs::directory_iterator("/sys/fs/cgroup", ec)) {
    if (top.path().filename() == "loopwright-" + container) out.push_back(top.path());
    if (fs::exists(top.path() / ("loopwright-" + container), ec))
      out.push_back(top.path() / ("loopwright-" + container));
  }
  return out;
}

}  // namespace

TEST_CASE("run: once a run of gVisor steps ends, no scratch, trash or step cgroup of them is left") {
  LW_REQUIRE_HOST(::access("/usr/bin/runsc", X_OK) == 0, "gVisor (runsc) is not installed");
  Scratch s;
  fs::create_directories(s.root / "tmp");
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                                                         "        - {name: one, run: [sh, -c, 'sleep 1']}\n"
                                                         "        - {name: two, run: [sh, -c, 'sleep 1']}\n",
                                                         "  isolation: L3\n")}});
  // The steps' container names, read from their scratch while they run.
  std::set<std::string> containers;
  std::size_t cgroupsSeen = 0;  // the step cgroups of those containers seen while they ran
  std::atomic<bool> done{false};
  std::thread watch([&] {
    while (!done) {
      noteContainers(s.root / "tmp", containers);
      for (const std::string& c : containers) cgroupsSeen = std::max(cgroupsSeen, cgroupsOf(c).size());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  auto r = runDispatch(s, repo, {{"TMPDIR", (s.root / "tmp").string()}});
  done = true;
  watch.join();
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(stepOf(runJson(s.root / "out"), "two").at("backend").as_string() == "linux-gvisor");
  CHECK(containers.size() >= 2);  // both steps' scratch was seen under the temp root
  std::vector<std::string> left;
  for (const fs::directory_entry& e : fs::directory_iterator(s.root / "tmp")) left.push_back(e.path().filename());
  INFO("left under the temp root: " << left.size());
  CHECK(left.empty());
  if (::geteuid() == 0) CHECK(cgroupsSeen > 0);  // root writes cgroups here: runsc ran in them
  for (const std::string& c : containers) CHECK_MESSAGE(cgroupsOf(c).empty(), c);
}

TEST_CASE("run: isolation L3 where runsc is not installed is refused with exit 3 and a BLOCKER naming L3") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(kOneStep, "  isolation: L3\n")}});
  fs::create_directories(s.root / "no-runsc");
  // Nothing on this PATH: linux-gvisor finds no runsc (bwrap is still found in /usr/bin).
  auto r = runDispatch(s, repo, {{"PATH", (s.root / "no-runsc").string()}});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(s.root / "out"), "review");
  CHECK(step.at("outcome").as_string() == "refused");
  CHECK(step.at("message").as_string().rfind("ISOLATION_UNAVAILABLE", 0) == 0);
  const std::string blocker(step.at("blocker").as_string());
  CHECK(blocker.find("BLOCKER: no sandbox backend gives step s/review what its policy requires "
                     "(ISOLATION_UNAVAILABLE): the step asks for isolation L3 (remote: another kernel per "
                     "step); no backend here gives L3: linux-gvisor: unavailable: gVisor (runsc) is not installed. "
                     "Last safe state: nothing ran") == 0);
  CHECK(blocker.find("Next action: L3 needs gVisor (the runsc package)") != std::string::npos);
  CHECK(r.out.find(blocker) != std::string::npos);
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/review/out/ran"));
}

TEST_CASE("run: isolation L3 with no backend of that level listed is refused naming linux-gvisor") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo,
           {{".loopwright/taskpack.yaml", taskpack(kOneStep,
                                                   "  sandbox: {preferredBackends: [direct-dedicated, linux-bwrap], "
                                                   "networkMode: allow-outbound}\n  isolation: L3\n")}});
  writeFile(s.root / "host.yaml",
            "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n");
  auto r = runDispatch(s, repo, {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()}});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(s.root / "out"), "review");
  CHECK(step.at("outcome").as_string() == "refused");
  CHECK(std::string(step.at("blocker").as_string())
            .find("no backend here gives L3: preferredBackends lists no backend that gives it (linux-gvisor, k8s-pod "
                  "would)") != std::string::npos);
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/review/out/ran"));
}

TEST_CASE("run: a host floor asking for L3 refuses a taskpack asking for less, exit 2") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(kOneStep)}});
  writeFile(s.root / "host.yaml", "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {minIsolation: L3}\n");
  auto r = runDispatch(s, repo, {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()}});
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("POLICY_FLOOR_VIOLATION") != std::string::npos);
  CHECK(r.err.find("set spec.isolation: L3") != std::string::npos);
  CHECK_FALSE(fs::exists(s.root / "out/steps/s/review/out/ran"));
}

TEST_CASE("run: GitHub Actions' direct-dedicated default on a runner that is not GitHub-hosted warns loudly") {
  // Only without any host config does the default stand.
  LW_REQUIRE_HOST(!fs::exists("/etc/loopwright/host.yaml"), "this machine has /etc/loopwright/host.yaml");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack(kOneStep)}});
  writeFile(s.root / "summary.md", "");
  std::map<std::string, std::string> env = {{"GITHUB_ACTIONS", "true"},
                                            {"RUNNER_ENVIRONMENT", "self-hosted"},
                                            {"GITHUB_STEP_SUMMARY", (s.root / "summary.md").string()}};
  auto run = [&](const std::string& out) {
    return runCli(
        {"run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out", (s.root / out).string()}, env);
  };
  auto selfHosted = run("out1");
  INFO(selfHosted.out << selfHosted.err);
  CHECK(selfHosted.status == 0);
  CHECK(selfHosted.out.find("::warning title=loopwright%3A steps run with no sandbox::") != std::string::npos);
  CHECK(selfHosted.out.find("RUNNER_ENVIRONMENT=self-hosted") != std::string::npos);
  const std::string summary = readFile(s.root / "summary.md");
  CHECK(summary.find("> **Warning:** ") == 0);
  CHECK(summary.find("s/review") != std::string::npos);

  env["RUNNER_ENVIRONMENT"] = "github-hosted";
  writeFile(s.root / "summary.md", "");
  auto hosted = run("out2");
  CHECK(hosted.status == 0);
  CHECK(hosted.out.find("::warning") == std::string::npos);
  CHECK(readFile(s.root / "summary.md").empty());
}
