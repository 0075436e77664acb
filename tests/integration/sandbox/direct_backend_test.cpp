// direct-dedicated and linux-landlock for real: the guarantees that hold even
// without containment — tree cleanup (also when the orchestrator is
// SIGKILLed), the step's environment only, no inherited descriptors, no
// capabilities, no-new-privileges, a new session.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "integration/sandbox/host_processes.h"
#include "sandbox/direct/direct_backend.h"
#include "sandbox/landlock/landlock_backend.h"
#include "support/host_requirement.h"

using namespace lw::sandbox;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/lw-direct-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

StepSpec shell(const fs::path& dir, const std::string& script) {
  StepSpec s;
  s.argv = {"/bin/sh", "-c", script};
  s.workspace = dir;
  s.outDir = dir;
  s.workspaceWritable = true;
  s.env = {{"PATH", "/usr/bin:/bin"}, {"OUT", dir.string()}};
  return s;
}

struct Run {
  int status = -1;
  std::string out;
};

Run run(Backend& b, const StepSpec& s) {
  auto p = b.launch(s);
  if (!p.ok()) FAIL(p.error().message);
  process::ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + 30s);
  return Run{info.status(), (*p)->stdoutData().data};
}

bool waitGone(pid_t pid, std::chrono::milliseconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (kill(pid, 0) != 0) return true;
    std::this_thread::sleep_for(20ms);
  }
  return kill(pid, 0) != 0;
}

pid_t readPid(const fs::path& file, std::chrono::milliseconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream f(file);
    pid_t pid = 0;
    if (f >> pid && pid > 1) return pid;
    std::this_thread::sleep_for(20ms);
  }
  return 0;
}

// The one host process running `sleep MARKER`, or 0 when none shows up in time.
pid_t daemonRunning(const std::string& marker, std::chrono::milliseconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    auto found = lw::test::hostPidsWithArgument(marker);
    if (found.size() == 1) return found.front();
    std::this_thread::sleep_for(20ms);
  }
  return 0;
}

// An orchestrator in a forked process launches a step that leaves a setsid
// double-forked daemon behind, then is SIGKILLed: the daemon must die too.
void orchestratorKilled(const std::function<std::unique_ptr<Backend>()>& make) {
  TempDir dir;
  // Found by its argument: in a pid namespace $! is not the host's pid.
  const std::string marker = lw::test::uniqueSleepSeconds();
  pid_t orchestrator = fork();
  REQUIRE(orchestrator >= 0);
  if (orchestrator == 0) {
    auto backend = make();
    auto p =
        backend->launch(shell(dir.path, "setsid sh -c 'sleep " + marker + " & echo $! > \"$OUT/daemon\"'; sleep 300"));
    if (!p.ok()) _exit(3);
    (*p)->wait(std::nullopt);
    _exit(0);
  }
  // A failed REQUIRE must not leave the orchestrator (and its step) holding
  // the test's output open until ctest's timeout.
  struct KillOnExit {
    pid_t pid;
    ~KillOnExit() {
      if (::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
    }
  } orchestratorGuard{orchestrator};
  REQUIRE(readPid(dir.path / "daemon", 20s) > 1);
  // $! is written as soon as sh forks; the daemon shows the marker as its
  // own argument only once it has exec'd sleep.
  const pid_t daemon = daemonRunning(marker, 20s);
  REQUIRE(daemon > 1);
  CHECK(kill(daemon, 0) == 0);
  kill(orchestrator, SIGKILL);
  int st = 0;
  waitpid(orchestrator, &st, 0);
  CHECK(waitGone(daemon, 5s));
}

}  // namespace

TEST_CASE("direct backend: the step runs with only its environment, no fds, no capabilities [integration]") {
  direct::DirectBackend b;
  LW_REQUIRE_HOST(b.probe().available, "direct-dedicated unavailable: " + b.probe().unavailableReason);
  TempDir dir;
  int leaked = open("/dev/null", O_RDONLY);
  Run r = run(b, shell(dir.path,
                       "env | sort; ls /proc/self/fd | sort -n | tr '\\n' ' '; echo;"
                       "grep -E '^(Cap(Inh|Prm|Eff|Amb|Bnd)|NoNewPrivs):' /proc/self/status;"
                       "ps -o sid= -o pid= -p $$"));
  close(leaked);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("HOME=") == std::string::npos);
  CHECK(r.out.find("OUT=" + dir.path.string()) != std::string::npos);
  CHECK(r.out.find("0 1 2 3 \n") != std::string::npos);
  std::istringstream lines(r.out.substr(r.out.find("Cap")));
  std::string key, value;
  for (int i = 0; i < 6 && lines >> key >> value; ++i) {
    CAPTURE(key);
    if (key == "NoNewPrivs:")
      CHECK(value == "1");
    else if (key == "CapBnd:" && geteuid() != 0)
      continue;  // not droppable without CAP_SETPCAP
    else
      CHECK(value == "0000000000000000");
  }
  long sid = 0, pid = 0;
  lines >> sid >> pid;
  CHECK(sid == pid);  // a session leader: a new session
}

TEST_CASE("direct backend: a setsid double-forked daemon is gone when the step returns [integration]") {
  direct::DirectBackend b;
  LW_REQUIRE_HOST(b.probe().available, "direct-dedicated unavailable: " + b.probe().unavailableReason);
  TempDir dir;
  Run r = run(b, shell(dir.path, "setsid sh -c 'sleep 300 & echo $! > \"$OUT/pid\"'; sleep 0.2; cat \"$OUT/pid\""));
  REQUIRE(r.status == 0);
  pid_t daemon = std::atoi(r.out.c_str());
  REQUIRE(daemon > 1);
  CHECK(kill(daemon, 0) != 0);
}

TEST_CASE("direct backend: the daemon dies when the orchestrator is SIGKILLed [integration]") {
  direct::DirectBackend b;
  LW_REQUIRE_HOST(b.probe().available, "direct-dedicated unavailable: " + b.probe().unavailableReason);
  orchestratorKilled([] { return direct::makeDirectBackend(); });
}

TEST_CASE("landlock backend: the daemon dies when the orchestrator is SIGKILLed [integration]") {
  landlock::LandlockBackend b;
  LW_REQUIRE_HOST(b.probe().available, "linux-landlock unavailable: " + b.probe().unavailableReason);
  orchestratorKilled([] { return landlock::makeLandlockBackend(); });
}
