// linux-gvisor for real: runsc runs the step on gVisor's kernel. As root and
// as the unprivileged lwtest (runsc --rootless), where the host has them.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "sandbox/gvisor/gvisor_backend.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/probe_report_json.h"
#include "support/host_requirement.h"

using namespace lw::sandbox;
using namespace lw::sandbox::gvisor;
namespace fs = std::filesystem;

namespace {

struct TestDir {
  fs::path dir;
  TestDir() {
    char t[] = "/tmp/lw-gvisor-test-XXXXXX";
    dir = ::mkdtemp(t);
    fs::create_directories(dir / "ws");
    fs::create_directories(dir / "out");
    fs::create_directories(dir / "tmp");
  }
  ~TestDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

GvisorConfig config(const TestDir& d) {
  GvisorConfig c = gvisorConfigFor(lw::Environment::fromProcess());
  c.cacheFile.reset();
  c.tempRoot = d.dir / "tmp";  // where the sandbox's scratch goes, to see it removed
  c.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  return c;
}

StepSpec step(const TestDir& d, std::vector<std::string> argv) {
  StepSpec spec;
  spec.argv = std::move(argv);
  spec.workspace = d.dir / "ws";
  spec.workspaceWritable = true;
  spec.outDir = d.dir / "out";
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  return spec;
}

struct Ran {
  process::ExitInfo info;
  std::string out, err;
};

Ran run(GvisorBackend& b, const StepSpec& spec, std::chrono::seconds limit = std::chrono::seconds(60)) {
  auto p = b.launch(spec);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  Ran r;
  r.info = (*p)->wait(std::chrono::steady_clock::now() + limit);
  r.out = (*p)->stdoutData().data;
  r.err = (*p)->stderrData().data;
  return r;
}

std::string hostRelease() {
  struct utsname u {};
  ::uname(&u);
  return u.release;
}

bool runscInstalled() { return !gvisorConfigFor(lw::Environment::fromProcess()).runscPath.empty(); }

// The processes whose command line names `needle` (runsc's of one scratch).
int processesNaming(const std::string& needle) {
  int n = 0;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
    // A process may end while it is read (ESRCH): it is not counted.
    try {
      std::ifstream in(e.path() / "cmdline");
      std::string cmd((std::istreambuf_iterator<char>(in)), {});
      if (cmd.find(needle) != std::string::npos) ++n;
    } catch (const std::exception&) {}
  }
  return n;
}

// Every process and thread of the host (the pids a fork bomb would take).
int hostProcesses() {
  int n = 0;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    for (const fs::directory_entry& t : fs::directory_iterator(e.path() / "task", ec)) {
      (void)t;
      ++n;
    }
  }
  return n;
}

bool noScratchLeft(const TestDir& d) {
  std::error_code ec;
  return fs::is_empty(d.dir / "tmp", ec);
}

// Once `b` has removed what its finished steps left (their trash).
bool noScratchLeft(GvisorBackend& b, const TestDir& d) {
  b.awaitRemovals();
  return noScratchLeft(d);
}

}  // namespace

TEST_CASE("gvisor backend: the probe sees the step on gVisor's kernel and every capability enforced" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  GvisorBackend b(config(d));
  const ProbeReport& r = b.probe();
  INFO(boost::json::serialize(toJson(r)));
  REQUIRE(r.available);
  CHECK(r.kernelSeparation.find("the step saw kernel 4.4.0") != std::string::npos);
  CHECK(observedIsolation(r) == lw::Isolation::L3);
  for (lw::Capability c : lw::kAllCapabilities)
    CHECK_MESSAGE(r.capabilities.at(c).support == Support::Enforced, std::string(toString(c)));
  CHECK(r.networkModes.at(lw::NetworkMode::None).support == Support::Enforced);
  CHECK(r.networkModes.at(lw::NetworkMode::LoopbackOnly).support == Support::Enforced);
  CHECK(r.version.starts_with("runsc version"));
  CHECK(noScratchLeft(b, d));
}

TEST_CASE("gvisor backend: without runsc on the PATH it is unavailable and not L3" *
          doctest::test_suite("integration")) {
  TestDir d;
  GvisorConfig c = gvisorConfigFor(lw::Environment({{"PATH", (d.dir / "empty").string()}}));
  CHECK(c.runscPath.empty());
  c.cacheFile.reset();
  GvisorBackend b(c);
  const ProbeReport& r = b.probe();
  CHECK_FALSE(r.available);
  CHECK(r.unavailableReason == "gVisor (runsc) is not installed");
  CHECK(r.kernelSeparation.empty());
  CHECK(observedIsolation(r) == lw::Isolation::L1);
  auto launched = b.launch(step(d, {"/bin/true"}));
  REQUIRE_FALSE(launched.ok());
  CHECK(launched.error().code == lw::ErrorCode::SandboxLaunchFailed);
}

TEST_CASE("gvisor backend: a step sees another kernel, the workspace writable, the host's files absent" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  std::ofstream(d.dir / "outside") << "secret\n";
  std::ofstream(d.dir / "ws" / "denied") << "secret\n";
  GvisorBackend b(config(d));
  StepSpec spec =
      step(d, {"/bin/sh", "-c",
               "uname -r; echo hi > " + (d.dir / "ws" / "made").string() + "; cat " + (d.dir / "outside").string() +
                   " 2>/dev/null || echo outside-absent;"
                   " grep -q secret denied || echo denied-masked;"
                   " (echo x > /usr/lw-x) 2>/dev/null || echo usr-read-only;"
                   " cat /etc/shadow 2>/dev/null || echo shadow-absent; exit 7"});
  spec.deniedReadPaths = {d.dir / "ws" / "denied"};
  Ran r = run(b, spec);
  INFO(r.out, r.err);
  CHECK(r.info.exitCode == 7);
  CHECK(r.out.starts_with("4.4.0\n"));
  CHECK(r.out.find(hostRelease()) == std::string::npos);
  for (const char* seen : {"outside-absent", "denied-masked", "usr-read-only", "shadow-absent"})
    CHECK_MESSAGE(r.out.find(seen) != std::string::npos, seen);
  std::ifstream made(d.dir / "ws" / "made");
  std::string line;
  CHECK((std::getline(made, line) && line == "hi"));
  CHECK(noScratchLeft(b, d));
}

TEST_CASE("gvisor backend: at the wall time the sandbox is killed and deleted, nothing left" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  GvisorBackend b(config(d));
  const auto start = std::chrono::steady_clock::now();
  Ran r = run(b, step(d, {"/bin/sh", "-c", "sleep 300 & sleep 300"}), std::chrono::seconds(2));
  CHECK(r.info.timedOut);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  CHECK(processesNaming((d.dir / "tmp").string()) == 0);
  CHECK(noScratchLeft(b, d));
}

TEST_CASE("gvisor backend: a fork bomb is contained by the pids limit and the host stays usable" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  GvisorBackend b(config(d));
  StepSpec spec = step(d, {"/bin/sh", "-c", "echo started; f() { f | f & }; f; sleep 5; echo bomb-done"});
  spec.limits.pids = 128;
  const int before = hostProcesses();
  auto p = b.launch(spec);
  REQUIRE(p.ok());
  std::this_thread::sleep_for(std::chrono::seconds(6));
  // The bomb's host processes (the Sentry's threads, one per guest address
  // space under ptrace) are bounded by the pids cgroup around runsc.
  CHECK(hostProcesses() - before <= 32 * 128 + 256 + 16);
  const auto start = std::chrono::steady_clock::now();
  process::ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  // It ends at its wall time at the latest, nothing of it left behind.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  // The step ran: gVisor itself started under the limit.
  CHECK((*p)->stdoutData().data.starts_with("started\n"));
  p->reset();
  CHECK(processesNaming((d.dir / "tmp").string()) == 0);
  CHECK(noScratchLeft(b, d));
  // The host still forks.
  Ran after = run(b, step(d, {"/bin/echo", "alive"}));
  CHECK(after.out == "alive\n");
}

TEST_CASE("gvisor backend: a memory bomb is stopped by the memory limit" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  GvisorBackend b(config(d));
  // tail keeps a line until its end: a 2 GiB line is 2 GiB of memory.
  StepSpec spec = step(d, {"/bin/sh", "-c", "head -c 2147483648 /dev/zero | tail -n 1 >/dev/null && echo survived"});
  spec.limits.memoryBytes = std::int64_t{256} << 20;
  Ran r = run(b, spec, std::chrono::seconds(60));
  INFO(r.out, r.err);
  CHECK(r.out.find("survived") == std::string::npos);
  CHECK(noScratchLeft(b, d));
}

TEST_CASE("gvisor backend: killed with loopwright (SIGKILL), runsc dies, and removeSandbox clears the rest" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    GvisorBackend b(config(d));
    auto p = b.launch(step(d, {"/bin/sleep", "300"}));
    if (!p) ::_exit(3);
    ::sleep(300);
    ::_exit(0);
  }
  // Until the sandbox runs.
  const std::string needle = (d.dir / "tmp").string();
  for (int i = 0; i < 100 && processesNaming("runsc-sandbox --root=" + needle) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(processesNaming(needle) > 0);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  for (int i = 0; i < 50 && processesNaming(needle) > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(processesNaming(needle) == 0);
  // What is left is the scratch with runsc's state; the sweep's removal.
  std::vector<fs::path> left;
  for (const fs::directory_entry& e : fs::directory_iterator(d.dir / "tmp")) left.push_back(e.path());
  REQUIRE(left.size() == 1);
  CHECK(left[0].filename().string().starts_with(kScratchPrefix));
  std::string container;
  std::ifstream(left[0] / "container") >> container;
  CHECK(container.starts_with(kContainerPrefix));
  removeSandbox(config(d).runscPath, {left[0], left[0] / "bundle", left[0] / "bundle/rootfs", left[0] / "state",
                                      left[0] / "runsc.log", container});
  CHECK(noScratchLeft(d));
}

namespace {

// `loopwright ARGS` as the unprivileged lwtest, its output.
std::string runAsLwtest(const std::vector<std::string>& args, const fs::path& tmp, int* status) {
  std::string cmd = "cd / && TMPDIR='" + tmp.string() + "' HOME='" + (tmp.parent_path() / "home").string() +
                    "' setpriv --reuid=lwtest --regid=lwtest --clear-groups '" + std::string(LOOPWRIGHT_BIN) + "'";
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  *status = WEXITSTATUS(::pclose(p));
  return out;
}

}  // namespace

TEST_CASE("gvisor backend: as the unprivileged lwtest, runsc --rootless runs the step on gVisor's kernel, L3" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  LW_REQUIRE_HOST(::getuid() == 0 && ::getpwnam("lwtest") != nullptr,
                  "no unprivileged user lwtest (run as root where it exists)");
  TestDir d;
  fs::create_directories(d.dir / "ws" / "w");
  fs::create_directories(d.dir / "home");
  REQUIRE(std::system(("chown -R lwtest:lwtest '" + d.dir.string() + "'").c_str()) == 0);
  int status = -1;
  std::string backends = runAsLwtest({"sandbox", "backends", "--json"}, d.dir / "tmp", &status);
  INFO(backends);
  REQUIRE(status == 0);
  const auto all = boost::json::parse(backends).at("backends").as_array();
  const boost::json::object* gvisor = nullptr;
  for (const auto& b : all)
    if (b.at("backend").as_string() == "linux-gvisor") gvisor = &b.as_object();
  REQUIRE(gvisor != nullptr);
  CHECK(gvisor->at("available").as_bool());
  CHECK(gvisor->at("isolation").as_string() == "L3");
  CHECK(gvisor->at("kernelSeparation").as_string().starts_with("the step saw kernel 4.4.0"));

  std::string out = runAsLwtest({"sandbox", "exec", "--backend", "linux-gvisor", "--workspace", (d.dir / "ws").string(),
                                 "--writable", (d.dir / "ws" / "w").string(), "--", "/bin/sh", "-c",
                                 "uname -r; echo hi > " + (d.dir / "ws" / "w" / "made").string() + "; (echo x > " +
                                     (d.dir / "ws" / "ro").string() + ") 2>/dev/null || echo ws-read-only"},
                                d.dir / "tmp", &status);
  INFO(out);
  CHECK(status == 0);
  CHECK(out.find("4.4.0\n") != std::string::npos);
  CHECK(out.find("ws-read-only") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat((d.dir / "ws" / "w" / "made").c_str(), &st) == 0);
  CHECK(st.st_uid == ::getpwnam("lwtest")->pw_uid);  // written as the calling user on the host
  CHECK(noScratchLeft(d));
}

TEST_CASE("gvisor backend: a runsc that cannot start a sandbox makes it unavailable, naming runsc's cause" *
          doctest::test_suite("integration")) {
  TestDir d;
  // A runsc that fails as the real one does where it may not write cgroups.
  const fs::path fake = d.dir / "runsc";
  std::ofstream(fake) << "#!/bin/sh\n"
                         "test \"$1\" = --version && { echo 'runsc version fake'; exit 0; }\n"
                         "echo 'running container: creating container: cannot set up cgroup for root: configuring "
                         "cgroup: mkdir /sys/fs/cgroup/memory/x: permission denied' >&2\n"
                         "exit 128\n";
  fs::permissions(fake, fs::perms::owner_all);
  GvisorConfig c = config(d);
  c.runscPath = fake.string();
  GvisorBackend b(c);
  const ProbeReport& r = b.probe();
  CHECK_FALSE(r.available);
  CHECK(
      r.unavailableReason.starts_with("runsc could not start a sandbox with the production flags: runsc could not "
                                      "set up cgroups"));
  CHECK(r.kernelSeparation.empty());
  CHECK(observedIsolation(r) == lw::Isolation::L1);
  CHECK(noScratchLeft(b, d));
}

TEST_CASE(
    "gvisor backend: a runsc that fails at launch is SANDBOX_LAUNCH_FAILED naming runsc's cause, not a step's exit" *
    doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  // The real runsc, made to fail as it does where its platform cannot start.
  const fs::path wrapper = d.dir / "runsc";
  std::ofstream(wrapper) << "#!/bin/sh\nexec '" << gvisorConfigFor(lw::Environment::fromProcess()).runscPath
                         << "' --platform=no-such-platform \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  GvisorConfig c = config(d);
  c.runscPath = wrapper.string();
  GvisorBackend b(c);
  Ran r = run(b, step(d, {"/bin/sh", "-c", "echo ran"}));
  INFO(r.err);
  REQUIRE(r.info.launchFailure.has_value());
  CHECK(r.info.launchFailure->code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(r.info.launchFailure->message ==
        "runsc could not start the step's gVisor sandbox: unknown platform: no-such-platform");
  CHECK(r.out.find("ran") == std::string::npos);
  CHECK(noScratchLeft(b, d));

  // A step that prints runsc's words and exits as runsc does is its own exit.
  GvisorBackend real(config(d));
  Ran own = run(real, step(d, {"/bin/sh", "-c", "echo 'FATAL ERROR: unknown platform: x' >&2; exit 128"}));
  CHECK_FALSE(own.info.launchFailure.has_value());
  CHECK(own.info.exitCode == 128);
}

TEST_CASE(
    "gvisor backend: allow-outbound reaches the host's network stack (a host loopback service), and none does not" *
    doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  const std::string connect = "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected";
  TestDir d;
  GvisorBackend b(config(d));
  StepSpec spec = step(d, {"/bin/bash", "-c", connect});
  spec.network = lw::NetworkMode::AllowOutbound;
  Ran outbound = run(b, spec);
  INFO(outbound.err);
  CHECK(outbound.out == "connected\n");
  spec.network = lw::NetworkMode::None;
  Ran none = run(b, spec);
  CHECK(none.out.empty());
  CHECK(none.info.exitCode != 0);
  ::close(listener);
}

namespace {

// This process's step cgroups around runsc (loopwright-lw-<pid>-<n>), under
// each controller (v1) or the root (v2).
std::vector<fs::path> ownStepCgroups() {
  const std::string prefix = "loopwright-" + std::string(kContainerPrefix) + std::to_string(::getpid()) + "-";
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::directory_entry& top : fs::directory_iterator("/sys/fs/cgroup", ec)) {
    if (top.path().filename().string().starts_with(prefix)) out.push_back(top.path());
    for (const fs::directory_entry& e : fs::directory_iterator(top.path(), ec))
      if (e.path().filename().string().starts_with(prefix)) out.push_back(e.path());
  }
  return out;
}

// What is under the temp root: scratch (lw-gvisor-XXXXXX) and trash apart.
struct TempRootEntries {
  int scratch = 0, trash = 0, other = 0;
};

TempRootEntries entriesIn(const fs::path& root) {
  TempRootEntries n;
  const std::string trash = std::string(kScratchPrefix) + kTrashInfix;
  for (const fs::directory_entry& e : fs::directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(trash))
      ++n.trash;
    else if (name.starts_with(kScratchPrefix))
      ++n.scratch;
    else
      ++n.other;
  }
  return n;
}

}  // namespace

TEST_CASE(
    "gvisor backend: a step's scratch is trash when its result returns, and nothing is left once the backend "
    "is gone" *
    doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(runscInstalled(), "gVisor (runsc) is not installed");
  TestDir d;
  std::vector<fs::path> cgroupsWhileRunning;
  {
    GvisorBackend b(config(d));
    for (int i = 0; i < 3; ++i) {
      auto p = b.launch(step(d, {"/bin/sleep", "0.3"}));
      REQUIRE(p.ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (i == 0) cgroupsWhileRunning = ownStepCgroups();
      process::ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
      CHECK(info.exitCode == 0);
      // No live scratch once the result is back: only renamed trash, if its removal has not run yet.
      const TempRootEntries now = entriesIn(d.dir / "tmp");
      CHECK(now.scratch == 0);
      CHECK(now.other == 0);
      CHECK(processesNaming((d.dir / "tmp").string()) == 0);
    }
  }
  // The backend's removals are joined with it: no trash, no cgroup.
  CHECK(noScratchLeft(d));
  if (::geteuid() == 0) CHECK_FALSE(cgroupsWhileRunning.empty());  // root writes cgroups here: runsc ran in them
  CHECK(ownStepCgroups().empty());
}
