// The namespace setups on their own, through spawn(): the supervisor enters
// the user and pid namespaces and forks the step as their init, as
// linux-landlock does for its private view (and before Landlock ABI 6).
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>

#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/landlock/namespaces.h"
#include "sandbox/process/spawn.h"
#include "support/host_requirement.h"

using namespace lw::sandbox;
using namespace std::chrono_literals;

namespace {

bool namespacesWork() {
  static landlock::LandlockBackend b;
  const ProbeReport& r = b.probe();
  return r.available && r.networkModes.at(lw::NetworkMode::LoopbackOnly).support == Support::Enforced;
}

process::SpawnRequest inPidNamespace(const std::string& script) {
  process::SpawnRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.env = {{"PATH", "/usr/bin:/bin"}};
  r.supervisorSetup.push_back(landlock::enterNamespaces(geteuid(), getegid(), {.pid = true}));
  r.stepIsPidNamespaceInit = true;
  return r;
}

process::ExitInfo runToEnd(const process::SpawnRequest& r, std::string* out) {
  auto p = process::spawn(r);
  if (!p.ok()) FAIL(p.error().message);
  process::ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + 30s);
  *out = (*p)->stdoutData().data;
  return info;
}

}  // namespace

TEST_CASE("landlock namespaces: the step is pid 1 and keeps its uid [integration]") {
  LW_REQUIRE_HOST(namespacesWork(), "user/pid namespaces are not available here");
  std::string out;
  process::ExitInfo info = runToEnd(inPidNamespace("echo $$ $(id -u); exit 9"), &out);
  CHECK(info.exitCode == 9);
  CHECK(out == "1 " + std::to_string(geteuid()) + "\n");
}

TEST_CASE("landlock namespaces: the step's death by signal is passed on [integration]") {
  LW_REQUIRE_HOST(namespacesWork(), "user/pid namespaces are not available here");
  LW_REQUIRE_HOST(access("/usr/bin/python3", X_OK) == 0, "/usr/bin/python3 is needed to fault");
  std::string out;
  // A fault is delivered even to a pid namespace's init.
  process::ExitInfo info =
      runToEnd(inPidNamespace("exec /usr/bin/python3 -c 'import ctypes; ctypes.string_at(0)'"), &out);
  CHECK(info.signal == SIGSEGV);
}

TEST_CASE("landlock namespaces: a daemon dies with the namespace's init [integration]") {
  LW_REQUIRE_HOST(namespacesWork(), "user/pid namespaces are not available here");
  // A marker argument unique to this run finds the daemon in the host's /proc.
  const std::string marker = "300." + std::to_string(getpid());
  std::string out;
  process::ExitInfo info = runToEnd(
      // Built at run time so that no command line but the daemon's holds it.
      inPidNamespace("m=" + marker +
                     "; setsid sh -c \"sleep $m &\"; sleep 0.3; "
                     "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -o 'slee[p] " +
                     marker + "' | head -1"),
      &out);
  CHECK(info.exitCode == 0);
  CHECK(out == "sleep " + marker + "\n");  // it was running while the step ran
  std::string cmd = "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -q 'slee[p] " + marker + "'";
  CHECK(std::system(cmd.c_str()) != 0);  // and is gone now
  // The kernel ended it with the namespace; no count is claimed.
  CHECK_FALSE(info.descendantsKilled.has_value());
}
