// The runner job hooks and the floor end to end, for real: job-completed
// after a step that left a daemon, a container and qualification scratch
// behind; job-started failing the job below the floor; install-hooks;
// sandbox exec and explain refusing what the floor forbids. [integration]
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <sstream>
#include <thread>

#include "core/environment.h"
#include "host/job_cleanup.h"
#include "integration/host/host_cli.h"
#include "sandbox/docker/engine_client.h"
#include "sandbox/docker/http_transport.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "support/host_requirement.h"

using namespace lw;
using namespace lw::hosttest;
using namespace std::chrono_literals;

namespace {

std::uintmax_t sizeOf(const fs::path& p) {
  std::error_code ec;
  auto n = fs::file_size(p, ec);
  return ec ? 0 : n;
}

bool growing(const fs::path& p) {
  auto a = sizeOf(p);
  std::this_thread::sleep_for(200ms);
  return sizeOf(p) > a;
}

template <class F>
bool waitFor(F done, std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return done();
}

// Every descendant of `pid`, deepest last (from /proc/<pid>/task/*/children).
void descendants(pid_t pid, std::vector<pid_t>& out) {
  std::error_code ec;
  for (const auto& t : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::istringstream in(slurp(t.path() / "children"));
    for (pid_t c; in >> c;) {
      out.push_back(c);
      descendants(c, out);
    }
  }
}

// What a runner does to a cancelled job's tree: everything under loopwright
// SIGKILLed at once — its watchdogs included — then loopwright itself.
void killWholeTree(pid_t pid) {
  std::vector<pid_t> all;
  descendants(pid, all);
  for (pid_t p : all) ::kill(p, SIGSTOP);
  for (pid_t p : all) ::kill(p, SIGKILL);
  ::kill(-pid, SIGKILL);
}

// The test's own cleanup when a check fails before the hook has run: what
// it leaves on purpose (a daemon, a container) must not outlive the test.
struct HookOnExit {
  const std::map<std::string, std::string>& env;
  const fs::path& root;
  bool ran = false;
  ~HookOnExit() {
    if (!ran) (void)run({"runner", "hook", "job-completed"}, env, root);
  }
};

std::vector<fs::path> scratchIn(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind("lw-qualify-", 0) == 0) out.push_back(e.path());
  return out;
}

}  // namespace

TEST_CASE("runner hook job-completed: no process, container or temp dir of the job is left [integration]") {
  Scratch s;
  const std::string job = "hosttest/" + std::to_string(::getpid()) + "-1/cleanup";
  fs::create_directories(s.root / "ws");
  fs::create_directories(s.root / "tmp");
  const fs::path beat = s.root / "ws" / "beat";
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_JOB", job},
      {"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  allowDirectDedicated: true\n").string()},
      {"TMPDIR", (s.root / "tmp").string()},
      {"GITHUB_STEP_SUMMARY", ""}};
  HookOnExit cleanup{env, s.root};

  // 1. A step that daemonizes, then loopwright and its supervisor SIGKILLed
  //    together (a cancelled job): the daemon escapes the step's cleanup.
  const std::string daemon = "setsid sh -c 'while :; do echo . >> " + beat.string() +
                             "; sleep 0.05; done' </dev/null >/dev/null 2>&1 & sleep 100";
  pid_t step = start({"sandbox", "exec", "--backend", "direct-dedicated", "--network", "allow-outbound", "--workspace",
                      (s.root / "ws").string(), "--", "/bin/sh", "-c", daemon},
                     env, s.root, "step");
  REQUIRE(waitFor([&] { return sizeOf(beat) > 0; }, 20s));
  ::kill(-step, SIGKILL);
  finish(step, s.root, "step");
  REQUIRE_MESSAGE(growing(beat), "the daemon should have outlived its killed supervisor");

  // 2. A container of the job whose orchestrator was SIGKILLed.
  Environment host = Environment::fromProcess();
  auto image = host.get("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  auto dockerHost = host.get("DOCKER_HOST");
  std::string container;
  if (image && dockerHost && dockerHost->rfind("unix://", 0) == 0) {
    pid_t c = start({"sandbox", "exec", "--backend", "docker", "--image", *image, "--workspace",
                     (s.root / "ws").string(), "--", "sleep", "100"},
                    env, s.root, "container");
    sandbox::docker::EngineClient client(sandbox::docker::engineTransport(dockerHost->substr(7)), 5s);
    REQUIRE(waitFor(
        [&] {
          auto ids = client.listLabelled("dev.loopwright.run", "local-" + std::to_string(c));
          if (ids && !ids->empty()) container = ids->front();
          return !container.empty();
        },
        30s));
    std::this_thread::sleep_for(300ms);  // let it start
    killWholeTree(c);
    finish(c, s.root, "container");
    REQUIRE(client.hostPid(container).ok());  // still there
  } else {
    LW_REQUIRE_HOST(
        false, "no local Docker engine (eval \"$(scripts/docker-test-env.sh env)\"): container leftovers untested");
  }

  // 3. Qualification scratch of the job, its qualify SIGKILLed mid-run.
  pid_t q = start({"qualify", "--fresh", "--backend", "linux-bwrap"}, env, s.root, "qualify");
  bool scratch = waitFor([&] { return !scratchIn(s.root / "tmp").empty(); }, 20s);
  ::kill(-q, SIGKILL);
  finish(q, s.root, "qualify");
  CHECK(scratch);

  Run done = run({"runner", "hook", "job-completed", "--json"}, env, s.root);
  cleanup.ran = true;
  INFO(done.describe());
  REQUIRE(done.status == 0);
  auto j = done.json();
  CHECK(j.at("job").as_string() == job);
  CHECK_FALSE(j.at("killed").as_array().empty());
  CHECK(j.at("problems").as_array().empty());
  CHECK_FALSE(growing(beat));
  if (!container.empty()) {
    bool removed = false;
    for (const auto& id : j.at("containersRemoved").as_array())
      removed = removed || container.rfind(std::string(id.as_string()), 0) == 0;
    CHECK(removed);
    sandbox::docker::EngineClient client(sandbox::docker::engineTransport(dockerHost->substr(7)), 5s);
    CHECK_FALSE(client.hostPid(container).ok());
  }
  if (scratch) CHECK(scratchIn(s.root / "tmp").empty());

  Run again = run({"runner", "hook", "job-completed"}, env, s.root);
  CHECK(again.status == 0);
  CHECK(again.out.find("0 process(es) killed, 0 container(s) removed, 0 temp dir(s) removed") != std::string::npos);
}

// The processes whose command line names `needle`.
int processesNaming(const std::string& needle) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec))
    if (slurp(e.path() / "cmdline").find(needle) != std::string::npos) ++n;
  return n;
}

TEST_CASE("runner hook job-completed: a gVisor sandbox whose loopwright was SIGKILLed is deleted [integration]") {
  LW_REQUIRE_HOST(::access("/usr/bin/runsc", X_OK) == 0, "gVisor (runsc) is not installed");
  Scratch s;
  const std::string job = "hosttest/" + std::to_string(::getpid()) + "-2/gvisor";
  fs::create_directories(s.root / "ws");
  fs::create_directories(s.root / "tmp");
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_JOB", job}, {"TMPDIR", (s.root / "tmp").string()}, {"GITHUB_STEP_SUMMARY", ""}};
  pid_t step = start({"sandbox", "exec", "--backend", "linux-gvisor", "--workspace", (s.root / "ws").string(), "--",
                      "/bin/sleep", "100"},
                     env, s.root, "step");
  const std::string tmp = (s.root / "tmp").string();
  auto gvisorScratch = [&] {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(s.root / "tmp", ec))
      if (e.path().filename().string().rfind("lw-gvisor-", 0) == 0 &&
          e.path().filename().string().rfind("lw-gvisor-probe-", 0) != 0)
        out.push_back(e.path());
    return out;
  };
  // The step's cgroups around runsc (loopwright-lw-<loopwright's pid>-<n>), where this host gives them.
  auto stepCgroups = [&] {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& controller : fs::directory_iterator("/sys/fs/cgroup", ec))
      for (const auto& e : fs::directory_iterator(controller.path(), ec))
        if (e.path().filename().string().rfind("loopwright-lw-" + std::to_string(step) + "-", 0) == 0)
          out.push_back(e.path());
    return out;
  };
  REQUIRE(waitFor([&] { return processesNaming("runsc-sandbox") > 0 && !gvisorScratch().empty(); }, 30s));
  std::this_thread::sleep_for(300ms);
  const std::vector<fs::path> cgroups = stepCgroups();
  if (::geteuid() == 0) CHECK_FALSE(cgroups.empty());  // root may write cgroups here: runsc runs in them
  ::kill(step, SIGKILL);                               // loopwright alone
  finish(step, s.root, "step");
  // runsc (the parent death signal) and its attached sandbox die with it.
  CHECK(waitFor([&] { return processesNaming(tmp) == 0; }, 5s));
  REQUIRE(gvisorScratch().size() == 1);  // the bundle and runsc's state are left

  Run done = run({"runner", "hook", "job-completed", "--json"}, env, s.root);
  INFO(done.describe());
  REQUIRE(done.status == 0);
  CHECK(done.json().at("problems").as_array().empty());
  CHECK(gvisorScratch().empty());
  CHECK(processesNaming(tmp) == 0);
  // The killed loopwright's empty cgroups are removed too.
  INFO("cgroups before the kill: " << cgroups.size());
  CHECK(stepCgroups().empty());
  CHECK(done.json().at("cgroupsRemoved").as_array().size() >= cgroups.size());
}

TEST_CASE(
    "runner hook job-completed: a gVisor step's trash whose loopwright was SIGKILLed before removing it is removed "
    "[integration]") {
  Scratch s;
  const std::string job = "hosttest/" + std::to_string(::getpid()) + "-3/gvisor-trash";
  fs::create_directories(s.root / "tmp");
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_JOB", job}, {"TMPDIR", (s.root / "tmp").string()}, {"GITHUB_STEP_SUMMARY", ""}};
  // A loopwright whose step has ended: its scratch moved to the trash, and
  // killed before its background removal ran.
  pid_t owner = ::fork();
  REQUIRE(owner >= 0);
  if (owner == 0) {
    auto scratch = lw::sandbox::gvisor::makeScratch(s.root / "tmp", lw::host::scratchOwnerLine(job));
    if (!scratch || !lw::sandbox::gvisor::moveToTrash(*scratch)) ::_exit(3);
    ::raise(SIGKILL);
  }
  int status = 0;
  ::waitpid(owner, &status, 0);
  REQUIRE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
  std::vector<fs::path> trash;
  for (const auto& e : fs::directory_iterator(s.root / "tmp")) trash.push_back(e.path());
  REQUIRE(trash.size() == 1);
  CHECK(trash[0].filename().string().starts_with(std::string(lw::sandbox::gvisor::kScratchPrefix) +
                                                 lw::sandbox::gvisor::kTrashInfix));

  Run done = run({"runner", "hook", "job-completed", "--json"}, env, s.root);
  INFO(done.describe());
  REQUIRE(done.status == 0);
  CHECK(done.json().at("problems").as_array().empty());
  CHECK(done.json().at("tempDirsRemoved").as_array().size() == 1);
  CHECK(fs::is_empty(s.root / "tmp"));
}

TEST_CASE("runner hook job-completed: outside a job it refuses rather than guessing [integration]") {
  Scratch s;
  Run r = run({"runner", "hook", "job-completed"}, {{"LOOPWRIGHT_JOB", ""}, {"GITHUB_RUN_ID", ""}, {"RUNNER_NAME", ""}},
              s.root);
  CHECK(r.status == 2);
  CHECK(r.err.find("error[USAGE_ERROR]: no job to clean up") != std::string::npos);
}

TEST_CASE("runner hook job-started: the job fails with ::error:: below the floor, passes above it [integration]") {
  Scratch s;
  // No Docker engine, and no runsc on the PATH: linux-gvisor (L3) would meet an L2 floor.
  fs::create_directories(s.root / "no-runsc");
  Run below =
      run({"runner", "hook", "job-started"},
          {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  minIsolation: L2\n  allowDirectDedicated: false\n").string()},
           {"DOCKER_HOST", "unix://" + (s.root / "none.sock").string()},
           {"PATH", (s.root / "no-runsc").string()},
           {"GITHUB_STEP_SUMMARY", ""}},
          s.root);
  INFO(below.describe());
  CHECK(below.status == 3);
  CHECK(below.out.find("::error title=loopwright%3A runner below the host floor::this host does not meet the floor") !=
        std::string::npos);

  Run above = run({"runner", "hook", "job-started"},
                  {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}, {"GITHUB_STEP_SUMMARY", ""}}, s.root);
  INFO(above.describe());
  CHECK(above.status == 0);
  CHECK(above.out.find("::error") == std::string::npos);
}

TEST_CASE("runner install-hooks: writes the hook scripts and .env entries once [integration]") {
  Scratch s;
  fs::path runner = s.root / "actions-runner";
  fs::create_directories(runner);
  std::ofstream(runner / ".runner") << "{\"agentName\":\"r1\"}";
  std::ofstream(runner / ".env") << "LANG=C.UTF-8\n";
  Run first = run({"runner", "install-hooks", "--runner-dir", runner.string()}, {}, s.root);
  INFO(first.describe());
  REQUIRE(first.status == 0);
  CHECK(first.out.rfind("installed: ", 0) == 0);
  std::string dotEnv = slurp(runner / ".env");
  CHECK(dotEnv ==
        "LANG=C.UTF-8\nACTIONS_RUNNER_HOOK_JOB_STARTED=" + (runner / "loopwright-hooks/job-started.sh").string() +
            "\nACTIONS_RUNNER_HOOK_JOB_COMPLETED=" + (runner / "loopwright-hooks/job-completed.sh").string() + "\n");
  CHECK(slurp(runner / "loopwright-hooks/job-completed.sh").find("runner hook job-completed") != std::string::npos);
  Run second = run({"runner", "install-hooks", "--runner-dir", runner.string()}, {}, s.root);
  CHECK(second.status == 0);
  CHECK(second.out.rfind("already installed: ", 0) == 0);
  CHECK(slurp(runner / ".env") == dotEnv);

  // The hook is then seen by qualify's runner facts.
  Run q = run({"qualify", "--json", "--backend", "direct-dedicated", "--runner-dir", runner.string()},
              {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}, {"GITHUB_STEP_SUMMARY", ""}}, s.root);
  INFO(q.describe());
  CHECK(q.json().at("host").at("runner").at("hooksInstalled").as_bool());
}

TEST_CASE(
    "floor: sandbox exec and explain refuse direct-dedicated where the floor forbids it, even under GITHUB_ACTIONS "
    "[integration]") {
  Scratch s;
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  allowDirectDedicated: false\n").string()}, {"GITHUB_ACTIONS", "true"}};
  Run exec = run({"sandbox", "exec", "--backend", "direct-dedicated", "--", "/bin/true"}, env, s.root);
  INFO(exec.describe());
  CHECK(exec.status == 2);
  CHECK(exec.err.find("error[POLICY_FLOOR_VIOLATION]") != std::string::npos);
  CHECK(exec.err.find("hint:") != std::string::npos);

  fs::create_directories(s.root / "repo" / ".loopwright");
  std::ofstream(s.root / "repo" / ".loopwright" / "taskpack.yaml")
      << "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata:\n  name: t\nspec:\n  stages:\n"
         "    - name: review\n      on: [pull_request]\n      steps:\n        - name: lint\n"
         "          run: [\"true\"]\n          role: reviewer\n";
  Run explain = run({"explain", "--repo", (s.root / "repo").string()}, env, s.root);
  INFO(explain.describe());
  CHECK(explain.status == 2);
  CHECK(explain.err.find("error[POLICY_FLOOR_VIOLATION]") != std::string::npos);
  CHECK(explain.err.find("direct-dedicated") != std::string::npos);

  // A floor that allows it runs the same command (direct-dedicated named
  // explicitly); a host config that says nothing forbids it.
  Run allowed =
      run({"sandbox", "exec", "--backend", "direct-dedicated", "--network", "allow-outbound", "--", "/bin/true"},
          {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  allowDirectDedicated: true\n").string()}}, s.root);
  CHECK_MESSAGE(allowed.status == 0, allowed.describe());
  Run silent =
      run({"sandbox", "exec", "--backend", "direct-dedicated", "--network", "allow-outbound", "--", "/bin/true"},
          {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}}, s.root);
  CHECK_MESSAGE(silent.status == 2, silent.describe());
  CHECK(silent.err.find("error[POLICY_FLOOR_VIOLATION]") != std::string::npos);
}
