#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sandbox/bwrap/bwrap_plan.h"

using namespace lw::sandbox;
using namespace lw::sandbox::bwrap;
namespace fs = std::filesystem;

namespace {

PathInfo dirInfo(bool othersMayRead = true) { return {PathKind::Directory, {}, PathKind::Directory, othersMayRead}; }
PathInfo fileInfo(bool othersMayRead = true) { return {PathKind::File, {}, PathKind::File, othersMayRead}; }
PathInfo linkInfo(const std::string& target, PathKind leadsTo = PathKind::Missing) {
  return {PathKind::Symlink, target, leadsTo, leadsTo != PathKind::Missing};
}

struct FakeHost {
  std::map<std::string, PathInfo> paths = {
      {"/usr", dirInfo()},
      {"/bin", linkInfo("usr/bin")},
      {"/lib", linkInfo("usr/lib")},
      {"/lib64", linkInfo("usr/lib64")},
      {"/etc", dirInfo()},
      {"/etc/shadow", fileInfo(false)},
      {"/etc/passwd", fileInfo()},
      {"/etc/resolv.conf", linkInfo("../run/resolv.conf", PathKind::File)},
      {"/etc/ssl", dirInfo()},
      {"/etc/ssl/certs", dirInfo()},
      {"/etc/ssl/private", dirInfo(false)},
      {"/etc/docker", dirInfo(false)},
      {"/etc/docker/key.json", fileInfo(false)},
      {"/ws", dirInfo()},
      {"/out", dirInfo()},
  };
  PathLookup lookup() {
    return [this](const fs::path& p) {
      auto it = paths.find(p.string());
      return it == paths.end() ? PathInfo{} : it->second;
    };
  }
  void dir(const std::string& p) { paths[p] = dirInfo(); }
  void file(const std::string& p) { paths[p] = fileInfo(); }
  void link(const std::string& p, const std::string& t) { paths[p] = linkInfo(t); }
};

StepSpec step() {
  StepSpec s;
  s.argv = {"/bin/true"};
  s.workspace = "/ws";
  s.outDir = "/out";
  return s;
}

BwrapOptions options() {
  BwrapOptions o;
  o.bwrapPath = "bwrap";
  return o;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::size_t indexOf(const BwrapPlan& p, const std::string& a, const std::string& b) {
  for (std::size_t i = 0; i + 1 < p.argv.size(); ++i) {
    if (p.argv[i] == a && p.argv[i + 1] == b) return i;
  }
  return std::string::npos;
}

// The options after the fixed prefix (system view) and before the root is
// made read-only (then --chdir).
std::string mounts(const BwrapPlan& p) {
  auto begin = std::find(p.argv.begin(), p.argv.end(), "/tmp");
  auto end = p.argv.begin() + static_cast<std::ptrdiff_t>(indexOf(p, "--remount-ro", "/"));
  return joined(std::vector<std::string>(begin + 1, end));
}

}  // namespace

TEST_CASE("bwrap plan: golden argv of a reviewer step with network none and seccomp") {
  FakeHost host;
  BwrapOptions o = options();
  o.seccompFd = 4;
  auto plan = planBwrap(step(), o, host.lookup());
  REQUIRE(plan.ok());
  CHECK(joined(plan->argv) ==
        "bwrap --unshare-all --unshare-user --disable-userns --die-with-parent --new-session "
        "--cap-drop ALL --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib "
        "--symlink usr/lib64 /lib64 --perms 0444 --file 5 /etc/passwd "
        "--perms 0444 --file 6 /etc/resolv.conf --ro-bind /etc/ssl/certs /etc/ssl/certs "
        "--proc /proc --dev /dev --size 1073741824 --tmpfs /tmp --ro-bind /ws /ws --bind /out /out --remount-ro / "
        "--chdir /ws "
        "--seccomp 4 -- /bin/true");
  CHECK(plan->placeholders.empty());
}

TEST_CASE("bwrap plan: network modes") {
  FakeHost host;
  StepSpec s = step();
  SUBCASE("none and loopback-only keep the private network namespace") {
    s.network = lw::NetworkMode::LoopbackOnly;
    auto plan = planBwrap(s, options(), host.lookup());
    CHECK(std::count(plan->argv.begin(), plan->argv.end(), "--share-net") == 0);
  }
  SUBCASE("allow-outbound shares the host network") {
    s.network = lw::NetworkMode::AllowOutbound;
    auto plan = planBwrap(s, options(), host.lookup());
    CHECK(std::count(plan->argv.begin(), plan->argv.end(), "--share-net") == 1);
  }
}

TEST_CASE("bwrap plan: protected path re-bound read-only after writable binds") {
  FakeHost host;
  host.dir("/ws/.github");
  host.file("/ws/AGENTS.md");
  host.dir("/ws/src");
  StepSpec s = step();
  s.workspaceWritable = true;
  s.writablePaths = {"src"};
  s.protectedPaths = {".github", "AGENTS.md"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(mounts(*plan) ==
        "--bind /ws /ws --bind /ws/src /ws/src --bind /out /out --ro-bind /ws/.github /ws/.github "
        "--ro-bind /ws/AGENTS.md /ws/AGENTS.md");
}

TEST_CASE("bwrap plan: a read-only workspace needs no protective mounts") {
  FakeHost host;
  host.dir("/ws/.github");
  StepSpec s = step();
  s.protectedPaths = {".github", "CLAUDE.md"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(mounts(*plan) == "--ro-bind /ws /ws --bind /out /out");
}

TEST_CASE("bwrap plan: writable ancestors of a protected path are pinned so they cannot be renamed") {
  FakeHost host;
  host.dir("/ws/.loopwright");
  host.dir("/ws/.loopwright/policies");
  StepSpec s = step();
  s.workspaceWritable = true;
  s.protectedPaths = {".loopwright/policies"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  std::size_t pin = indexOf(*plan, "--bind", "/ws/.loopwright");
  std::size_t ro = indexOf(*plan, "--ro-bind", "/ws/.loopwright/policies");
  REQUIRE(pin != std::string::npos);
  REQUIRE(ro != std::string::npos);
  CHECK(pin < ro);
}

TEST_CASE("bwrap plan: a missing protected path gets a read-only placeholder at its first missing component") {
  FakeHost host;
  StepSpec s = step();
  s.workspaceWritable = true;
  s.protectedPaths = {".loopwright/policies", "AGENTS.md"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(mounts(*plan) ==
        "--bind /ws /ws --bind /out /out --tmpfs /ws/.loopwright --remount-ro /ws/.loopwright "
        "--tmpfs /ws/AGENTS.md --remount-ro /ws/AGENTS.md");
  CHECK(plan->placeholders == std::vector<fs::path>{"/ws/.loopwright", "/ws/AGENTS.md"});
}

TEST_CASE("bwrap plan: a protected symlink makes its directory read-only, writable paths below stay writable") {
  FakeHost host;
  host.link("/ws/.github", "/elsewhere");
  host.dir("/ws/src");
  StepSpec s = step();
  s.workspaceWritable = true;
  s.writablePaths = {"/ws/src"};
  s.protectedPaths = {".github"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(mounts(*plan) ==
        "--bind /ws /ws --bind /ws/src /ws/src --bind /out /out --ro-bind /ws /ws "
        "--bind /ws/src /ws/src");
  REQUIRE(plan->notes.size() == 1);
  CHECK(plan->notes[0] ==
        "protected path /ws/.github goes through the symlink /ws/.github: /ws is read-only for this step");
}

TEST_CASE("bwrap plan: a symlinked parent of a protected path is handled like the path itself") {
  FakeHost host;
  host.dir("/ws/sub");
  host.link("/ws/sub/.loopwright", "../x");
  StepSpec s = step();
  s.workspaceWritable = true;
  s.protectedPaths = {"sub/.loopwright/policies"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(indexOf(*plan, "--ro-bind", "/ws/sub") != std::string::npos);
  CHECK(plan->placeholders.empty());
}

TEST_CASE("bwrap plan: writable paths inside a protected path stay read-only") {
  FakeHost host;
  host.dir("/ws/.github");
  host.dir("/ws/.github/workflows");
  StepSpec s = step();
  s.writablePaths = {".github/workflows"};
  s.protectedPaths = {".github"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(indexOf(*plan, "--ro-bind", "/ws/.github") > indexOf(*plan, "--bind", "/ws/.github/workflows"));
}

TEST_CASE("bwrap plan: denied read paths are masked only where the view shows them") {
  FakeHost host;
  host.dir("/ws/.ssh");
  host.file("/ws/.netrc");
  StepSpec s = step();
  s.deniedReadPaths = {"/ws/.ssh", "/ws/.netrc", "/root/.aws", "/ws/.kube"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  std::string m = mounts(*plan);
  CHECK(m.find("--tmpfs /ws/.ssh --remount-ro /ws/.ssh") != std::string::npos);
  CHECK(m.find("--ro-bind /dev/null /ws/.netrc") != std::string::npos);
  CHECK(m.find("/root/.aws") == std::string::npos);
  CHECK(m.find(".kube") == std::string::npos);
}

TEST_CASE("bwrap plan: refusals") {
  FakeHost host;
  StepSpec s = step();
  SUBCASE("relative workspace") {
    s.workspace = "ws";
    CHECK(planBwrap(s, options(), host.lookup()).error().message == "workspace ws is not an absolute path");
  }
  SUBCASE("missing writable path") {
    s.writablePaths = {"gone"};
    auto plan = planBwrap(s, options(), host.lookup());
    CHECK(plan.error().code == lw::ErrorCode::SandboxLaunchFailed);
    CHECK(plan.error().subject == "/ws/gone");
  }
  SUBCASE("denied path that is a symlink in the view") {
    host.link("/ws/.aws", "/root/.aws");
    s.deniedReadPaths = {"/ws/.aws"};
    CHECK(planBwrap(s, options(), host.lookup()).error().hint == "deny the symlink's target (/root/.aws) instead");
  }
}

TEST_CASE("bwrap plan: extra read-only paths are bound read-only before the workspace") {
  FakeHost host;
  host.file("/opt/lw/loopwright");
  host.file("/run/lw/event.json");
  StepSpec s = step();
  s.readOnlyPaths = {"/opt/lw/loopwright", "/run/lw/event.json"};
  auto p = planBwrap(s, options(), host.lookup());
  REQUIRE(p.ok());
  CHECK(mounts(*p).rfind("--ro-bind /opt/lw/loopwright /opt/lw/loopwright --ro-bind "
                         "/run/lw/event.json /run/lw/event.json --ro-bind /ws /ws",
                         0) == 0);
  s.readOnlyPaths = {"/missing"};
  auto missing = planBwrap(s, options(), host.lookup());
  REQUIRE(!missing.ok());
  CHECK(missing.error().message == "read-only path /missing does not exist or is a symlink");
}

TEST_CASE("bwrap plan: /etc is an allow-list, and root-only files beside it are not in the view") {
  FakeHost host;
  auto plan = planBwrap(step(), options(), host.lookup());
  REQUIRE(plan.ok());
  auto shows = [&](const std::string& path) { return std::count(plan->argv.begin(), plan->argv.end(), path) > 0; };
  // Files are copied into bwrap's root, on the descriptors the launcher
  // opens in copiedFiles' order; a symlink is copied as what it leads to.
  CHECK(indexOf(*plan, "5", "/etc/passwd") != std::string::npos);
  CHECK(indexOf(*plan, "6", "/etc/resolv.conf") != std::string::npos);
  CHECK(plan->copiedFiles == std::vector<fs::path>{"/etc/passwd", "/etc/resolv.conf"});
  CHECK(indexOf(*plan, "--ro-bind", "/etc/ssl/certs") != std::string::npos);
  for (const char* hidden :
       {"/etc", "/etc/ssl", "/etc/ssl/private", "/etc/docker", "/etc/docker/key.json", "/etc/shadow"}) {
    CAPTURE(hidden);
    CHECK_FALSE(shows(hidden));
  }
}

TEST_CASE("bwrap plan: an /etc entry others may not read, or that leads nowhere, is left out") {
  FakeHost host;
  host.paths["/etc/gitconfig"] = fileInfo(false);  // a token in root's 0600 gitconfig
  host.paths["/etc/terminfo"] = dirInfo(false);
  host.paths["/etc/localtime"] = linkInfo("/usr/share/zoneinfo/Gone");  // dangling
  host.paths["/etc/alternatives"] = linkInfo("/var/lib/alternatives", PathKind::Directory);
  auto plan = planBwrap(step(), options(), host.lookup());
  REQUIRE(plan.ok());
  for (const char* hidden : {"/etc/gitconfig", "/etc/terminfo", "/etc/localtime"}) {
    CAPTURE(hidden);
    CHECK(std::count(plan->argv.begin(), plan->argv.end(), hidden) == 0);
  }
  CHECK(std::find(plan->notes.begin(), plan->notes.end(),
                  "/etc/gitconfig is not readable by others on this host: left out of the view") != plan->notes.end());
  // A symlink to a directory is bound as what it leads to.
  CHECK(indexOf(*plan, "--ro-bind", "/etc/alternatives") != std::string::npos);
}

TEST_CASE("bwrap plan: a read-only path that brings in /etc keeps its secrets masked") {
  FakeHost host;
  StepSpec s = step();
  s.readOnlyPaths = {"/etc"};
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  CHECK(indexOf(*plan, "/dev/null", "/etc/shadow") != std::string::npos);
  CHECK(mounts(*plan) ==
        "--ro-bind /etc /etc --ro-bind /ws /ws --bind /out /out --ro-bind /dev/null /etc/shadow "
        "--tmpfs /etc/ssl/private --remount-ro /etc/ssl/private --tmpfs /etc/docker --remount-ro /etc/docker");
}

TEST_CASE("bwrap plan: the root holding the mount points is read-only after every mount") {
  FakeHost host;
  StepSpec s = step();
  s.protectedPaths = {"missing/deep"};
  s.workspaceWritable = true;
  auto plan = planBwrap(s, options(), host.lookup());
  REQUIRE(plan.ok());
  std::size_t rootRo = indexOf(*plan, "--remount-ro", "/");
  REQUIRE(rootRo != std::string::npos);
  CHECK(plan->argv[rootRo + 2] == "--chdir");
  for (std::size_t i = 0; i < rootRo; ++i) {
    CAPTURE(plan->argv[i]);
    CHECK(plan->argv[i] != "--chdir");
  }
}
