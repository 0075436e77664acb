#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <map>
#include <string>
#include <vector>

#include "sandbox/gvisor/gvisor_plan.h"
#include "sandbox/gvisor/gvisor_probe.h"

using namespace lw::sandbox;
using namespace lw::sandbox::gvisor;
using bwrap::PathInfo;
using bwrap::PathKind;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

PathInfo dirInfo() { return {PathKind::Directory, {}, PathKind::Directory, true}; }
PathInfo fileInfo(bool othersMayRead = true) { return {PathKind::File, {}, PathKind::File, othersMayRead}; }
PathInfo linkInfo(const std::string& target) { return {PathKind::Symlink, target, PathKind::Missing, false}; }

std::map<std::string, PathInfo> host() {
  return {{"/usr", dirInfo()},           {"/bin", linkInfo("usr/bin")},
          {"/etc/passwd", fileInfo()},   {"/etc/shadow", fileInfo(false)},
          {"/etc/ssl/certs", dirInfo()}, {"/ws", dirInfo()},
          {"/ws/.git", dirInfo()},       {"/ws/.git/config", fileInfo()},
          {"/ws/secret", fileInfo()},    {"/out", dirInfo()}};
}

bwrap::PathLookup lookupIn(const std::map<std::string, PathInfo>& paths) {
  return [paths](const fs::path& p) {
    auto it = paths.find(p.string());
    return it == paths.end() ? PathInfo{} : it->second;
  };
}

StepSpec step() {
  StepSpec s;
  s.argv = {"/bin/sh", "-c", "true"};
  s.workspace = "/ws";
  s.workspaceWritable = true;
  s.protectedPaths = {"/ws/.git/config"};
  s.deniedReadPaths = {"/ws/secret"};
  s.outDir = "/out";
  s.env = {{"PATH", "/usr/bin:/bin"}, {"LOOPWRIGHT_OUT", "/out"}};
  s.limits.openFiles = 1024;
  s.limits.tmpBytes = 1 << 20;
  return s;
}

// "type source -> destination (options)" per mount, in order.
std::vector<std::string> mounts(const json::object& config) {
  std::vector<std::string> out;
  for (const json::value& v : config.at("mounts").as_array()) {
    const json::object& m = v.as_object();
    std::string opts;
    for (const json::value& o : m.at("options").as_array())
      opts += (opts.empty() ? "" : ",") + std::string(o.as_string());
    out.push_back(std::string(m.at("type").as_string()) + " " + std::string(m.at("source").as_string()) + " -> " +
                  std::string(m.at("destination").as_string()) + " (" + opts + ")");
  }
  return out;
}

}  // namespace

TEST_CASE("gvisor plan: the mounts are linux-bwrap's view, in its order") {
  auto plan = planGvisor(step(), {"/scratch/rootfs", false, {}}, lookupIn(host()));
  REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? "" : plan.error().message));
  const std::vector<std::string> golden = {
      "bind /usr -> /usr (rbind,ro)",
      "bind /etc/passwd -> /etc/passwd (rbind,ro)",
      "bind /etc/ssl/certs -> /etc/ssl/certs (rbind,ro)",
      "proc proc -> /proc ()",
      "tmpfs tmpfs -> /dev (nosuid,mode=755)",
      "tmpfs tmpfs -> /tmp (nosuid,nodev,mode=1777,size=1048576)",
      "bind /ws -> /ws (rbind,rw)",
      "bind /out -> /out (rbind,rw)",
      "bind /ws/.git -> /ws/.git (rbind,rw)",
      "bind /ws/.git/config -> /ws/.git/config (rbind,ro)",
      "bind /dev/null -> /ws/secret (rbind,ro)",
  };
  CHECK(mounts(plan->config) == golden);
  REQUIRE(plan->rootSymlinks.size() == 1);
  CHECK(plan->rootSymlinks[0].first == "/bin");
  CHECK(plan->rootSymlinks[0].second == "usr/bin");
  CHECK(plan->config.at("root").at("path").as_string() == "/scratch/rootfs");
  CHECK(plan->config.at("root").at("readonly").as_bool());
}

TEST_CASE("gvisor plan: the process has no capability, no new privileges, the step's env, cwd and rlimits") {
  auto plan = planGvisor(step(), {"/scratch/rootfs", false, {}}, lookupIn(host()));
  REQUIRE(plan.ok());
  const json::object& p = plan->config.at("process").as_object();
  for (const char* set : {"bounding", "effective", "inheritable", "permitted", "ambient"})
    CHECK_MESSAGE(p.at("capabilities").at(set).as_array().empty(), set);
  CHECK(p.at("noNewPrivileges").as_bool());
  CHECK(json::serialize(p.at("args")) == R"(["/bin/sh","-c","true"])");
  CHECK(json::serialize(p.at("env")) == R"(["LOOPWRIGHT_OUT=/out","PATH=/usr/bin:/bin"])");
  CHECK(p.at("cwd").as_string() == "/ws");
  CHECK(json::serialize(p.at("rlimits").as_array().at(0)) == R"({"type":"RLIMIT_NOFILE","hard":1024,"soft":1024})");
  CHECK(json::serialize(p.at("rlimits").as_array().at(3)) == R"({"type":"RLIMIT_NPROC","hard":512,"soft":512})");
  CHECK(json::serialize(plan->config.at("linux").at("namespaces")) ==
        R"([{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"}])");
}

TEST_CASE("gvisor plan: each network mode is its runsc network and filter") {
  StepSpec s = step();
  auto none = planGvisor(s, {"/r", false, {}}, lookupIn(host()));
  REQUIRE(none.ok());
  CHECK(none->runscFlags == std::vector<std::string>{"--network=none", "--oci-seccomp"});
  const json::array& rules = none->config.at("linux").at("seccomp").at("syscalls").as_array();
  REQUIRE(rules.size() == 5);
  CHECK(
      json::serialize(rules.back()) ==
      R"({"names":["socket"],"action":"SCMP_ACT_ERRNO","errnoRet":1,"args":[{"index":0,"value":1,"op":"SCMP_CMP_NE"}]})");
  s.network = lw::NetworkMode::LoopbackOnly;
  auto loopback = planGvisor(s, {"/r", true, {}}, lookupIn(host()));
  REQUIRE(loopback.ok());
  CHECK(loopback->runscFlags == std::vector<std::string>{"--network=none", "--oci-seccomp", "--host-uds=open"});
  CHECK(loopback->config.at("linux").at("seccomp").at("syscalls").as_array().size() == 4);
  s.network = lw::NetworkMode::AllowOutbound;
  auto outbound = planGvisor(s, {"/r", false, {}}, lookupIn(host()));
  REQUIRE(outbound.ok());
  CHECK(outbound->runscFlags == std::vector<std::string>{"--network=host", "--oci-seccomp"});
  // The host's stack is the one runsc is in: a network namespace of the spec's own would be empty.
  auto hasNetworkNamespace = [](const json::object& config) {
    for (const auto& ns : config.at("linux").at("namespaces").as_array())
      if (ns.at("type") == "network") return true;
    return false;
  };
  CHECK_FALSE(hasNetworkNamespace(outbound->config));
  CHECK(hasNetworkNamespace(loopback->config));
}

TEST_CASE("gvisor plan: a chown that changes nothing is refused (gVisor would allow it on a read-only mount)") {
  auto plan = planGvisor(step(), {"/r", false, {}}, lookupIn(host()));
  REQUIRE(plan.ok());
  const json::array& rules = plan->config.at("linux").at("seccomp").at("syscalls").as_array();
  CHECK(json::serialize(rules.at(0)) ==
        R"({"names":["chown"],"action":"SCMP_ACT_ERRNO","errnoRet":1,"args":[)"
        R"({"index":1,"value":4294967295,"valueTwo":4294967295,"op":"SCMP_CMP_MASKED_EQ"},)"
        R"({"index":2,"value":4294967295,"valueTwo":4294967295,"op":"SCMP_CMP_MASKED_EQ"}]})");
  CHECK(json::serialize(rules.at(3).at("names")) == R"(["fchownat"])");
  CHECK(rules.at(3).at("args").at(0).at("index").as_int64() == 2);
}

TEST_CASE("gvisor plan: a missing protected path is a read-only tmpfs placeholder, as on linux-bwrap") {
  StepSpec s = step();
  s.protectedPaths = {"/ws/.github"};
  auto plan = planGvisor(s, {"/r", false, {}}, lookupIn(host()));
  REQUIRE(plan.ok());
  std::vector<std::string> m = mounts(plan->config);
  CHECK(std::find(m.begin(), m.end(), "tmpfs tmpfs -> /ws/.github (nosuid,nodev,mode=1777,ro)") != m.end());
  CHECK(plan->placeholders == std::vector<fs::path>{"/ws/.github"});
}

TEST_CASE("gvisor plan: what linux-bwrap refuses to plan is refused, and a relative root too") {
  StepSpec s = step();
  s.workspace = "ws";
  CHECK_FALSE(planGvisor(s, {"/r", false, {}}, lookupIn(host())).ok());
  auto relativeRoot = planGvisor(step(), {"rootfs", false, {}}, lookupIn(host()));
  REQUIRE_FALSE(relativeRoot.ok());
  CHECK(relativeRoot.error().code == lw::ErrorCode::SandboxLaunchFailed);
}

TEST_CASE("gvisor probe: L3 only when the release, the boot id and the modules all differ from the host's") {
  ProbeObservation o;
  o.runscFound = true;
  o.ran = true;
  o.hostRelease = "6.1.0";
  o.tokens = {"W1", "W2", "P1", "P2", "R1", "R2", "N1", "T1", "S1", "C1", "K1", "K2", "K3", "U:4.4.0"};
  ProbeReport r = interpretProbe(o);
  CHECK(r.available);
  CHECK(r.kernelSeparation ==
        "the step saw kernel 4.4.0 (the host runs 6.1.0), another boot id, and not the host's loaded modules");
  CHECK(observedIsolation(r) == lw::Isolation::L3);
  for (lw::Capability c : lw::kAllCapabilities) CHECK(r.capabilities.at(c).support == Support::Enforced);
  CHECK(r.networkModes.at(lw::NetworkMode::None).support == Support::Enforced);
  CHECK(r.networkModes.at(lw::NetworkMode::AllowOutbound).support == Support::Partial);
  for (const char* k : {"K1", "K2", "K3"}) {
    ProbeObservation same = o;
    same.tokens.erase(k);
    ProbeReport s = interpretProbe(same);
    CHECK_MESSAGE(s.kernelSeparation.empty(), k);
    CHECK(observedIsolation(s) == lw::Isolation::L1);
    CHECK(s.capabilities.at(lw::Capability::SyscallFiltering).support == Support::Absent);
  }
}

TEST_CASE("gvisor probe: runsc missing or failing is unavailable, with runsc's cause in words") {
  ProbeReport missing = interpretProbe({});
  CHECK_FALSE(missing.available);
  CHECK(missing.unavailableReason == "gVisor (runsc) is not installed");
  ProbeObservation failed;
  failed.runscFound = true;
  failed.failure =
      "running container: creating container: cannot set up cgroup for root: configuring cgroup: mkdir "
      "/sys/fs/cgroup/memory/x: permission denied";
  ProbeReport r = interpretProbe(failed);
  CHECK_FALSE(r.available);
  CHECK(
      r.unavailableReason.starts_with("runsc could not start a sandbox with the production flags: runsc could not "
                                      "set up cgroups"));
  CHECK(diagnoseRunscFailure("creating process: ptrace: operation not permitted").starts_with("gVisor's ptrace"));
  CHECK(diagnoseRunscFailure("strange\nmore") == "strange");
}

TEST_CASE("gvisor plan: through the container init, the init and the filter are visible read-only and run first") {
  std::map<std::string, PathInfo> h = host();
  h["/opt/lw/loopwright-container-init"] = fileInfo();
  h["/scratch/seccomp.bpf"] = fileInfo();
  auto plan = planGvisor(withContainerInit(step(), "/opt/lw/loopwright-container-init", "/scratch/seccomp.bpf"),
                         {"/r", true, {}}, lookupIn(h));
  REQUIRE(plan.ok());
  CHECK(json::serialize(plan->config.at("process").at("args")) ==
        R"(["/opt/lw/loopwright-container-init","/scratch/seccomp.bpf","--","/bin/sh","-c","true"])");
  std::vector<std::string> m = mounts(plan->config);
  CHECK(std::find(m.begin(), m.end(),
                  "bind /opt/lw/loopwright-container-init -> /opt/lw/loopwright-container-init (rbind,ro)") != m.end());
  CHECK(std::find(m.begin(), m.end(), "bind /scratch/seccomp.bpf -> /scratch/seccomp.bpf (rbind,ro)") != m.end());
}

TEST_CASE("gvisor plan: RLIMIT_AS inside gVisor only where no memory cgroup holds the step's memory") {
  auto withCgroup = planGvisor(step(), {"/r", false, {}}, lookupIn(host()));
  REQUIRE(withCgroup.ok());
  CHECK(json::serialize(withCgroup->config.at("process").at("rlimits")).find("RLIMIT_AS") == std::string::npos);
  auto without = planGvisor(step(), {"/r", false, std::int64_t{1} << 28}, lookupIn(host()));
  REQUIRE(without.ok());
  CHECK(json::serialize(without->config.at("process").at("rlimits").as_array().back()) ==
        R"({"type":"RLIMIT_AS","hard":268435456,"soft":268435456})");
}
