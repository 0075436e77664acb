#include <doctest/doctest.h>

#include "sandbox/docker/container_plan.h"
#include "sandbox/docker_golden.h"

using namespace lw::sandbox;
using namespace lw::sandbox::docker;
using lw::ErrorCode;
using lw::NetworkMode;

namespace {

const std::string kImageId = "sha256:0a709705be1a8ae76f7092d34a0b5fe8140d13b0dea666a492e7e5d708f06f5a";

PathFact dir(const std::string& real) { return {PathKind::Directory, false, real}; }
PathFact file(const std::string& real) { return {PathKind::File, false, real}; }
PathFact link(PathKind kind, const std::string& real) { return {kind, true, real}; }

ContainerPlanInput baseInput() {
  ContainerPlanInput in;
  in.initBinary = "/usr/lib/loopwright/loopwright-container-init";
  in.filterFile = "/tmp/lw-docker-Ab12Cd/seccomp.bpf";
  in.emptyDir = "/tmp/lw-docker-Ab12Cd/empty";
  in.spec.argv = {"./.loopwright/agents/security.sh", "--format", "json"};
  in.spec.workspace = "/work/repo";
  in.spec.outDir = "/var/lib/loopwright/runs/7/security/out";
  in.spec.protectedPaths = {".github", ".loopwright/policies", "AGENTS.md", "CLAUDE.md"};
  in.spec.deniedReadPaths = {"/root/.ssh", "/root/.aws", "secrets", ".env"};
  in.spec.env = {
      {"PATH", "/usr/bin:/bin"}, {"HOME", "/tmp"}, {"LOOPWRIGHT_OUT", "/var/lib/loopwright/runs/7/security/out"}};
  in.image = parsePinnedImage(kImageId).value();
  in.user = "1000:1000";
  in.runLabel = "4242-1";
  in.stepLabel = "review/security";
  in.facts = {
      {"/work/repo", dir("/work/repo")},
      {"/var/lib/loopwright/runs/7/security/out", dir("/var/lib/loopwright/runs/7/security/out")},
      {"/work/repo/.github", dir("/work/repo/.github")},
      {"/work/repo/AGENTS.md", file("/work/repo/AGENTS.md")},
      {"/work/repo/secrets", dir("/work/repo/secrets")},
      {"/work/repo/.env", file("/work/repo/.env")},
      {"/root/.ssh", dir("/root/.ssh")},
  };
  return in;
}

}  // namespace

TEST_CASE("docker plan: a reviewer gets no network, a read-only workspace and masked secrets") {
  auto plan = planContainer(baseInput());
  REQUIRE(plan.ok());
  lw::test::checkGoldenJson("docker/plan_reviewer_none.json", plan->body);
  // Read-only workspace: protected paths need no re-bind, and say nothing.
  CHECK(plan->notes.empty());
}

TEST_CASE("docker plan: an author's protected paths are re-bound read-only after the writable binds") {
  ContainerPlanInput in = baseInput();
  in.spec.workspaceWritable = true;
  in.spec.network = NetworkMode::LoopbackOnly;
  in.spec.workdir = "src";
  in.spec.writablePaths = {"/work/cache", "src"};  // src is inside the writable workspace already
  in.spec.maxOutputBytes = 4096;
  in.facts["/work/cache"] = dir("/srv/cache");  // a symlinked tree named by the orchestrator
  in.facts["/work/repo/CLAUDE.md"] = link(PathKind::File, "/work/repo/AGENTS.md");
  in.spec.limits.memoryBytes = 512 << 20;
  in.spec.limits.pids = 64;
  in.spec.limits.tmpBytes = 16 << 20;
  in.spec.limits.cpuSeconds = 600;
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  lw::test::checkGoldenJson("docker/plan_author_loopback.json", plan->body);
  CHECK(plan->notes == std::vector<std::string>{"protected path /work/repo/CLAUDE.md is reached through a symlink: not "
                                                "re-bound, left to verify"});
  // .loopwright/policies does not exist: its first missing component is
  // masked by the empty directory, and the engine's mount point removed after.
  CHECK(plan->placeholders == std::vector<std::filesystem::path>{"/work/repo/.loopwright"});
}

TEST_CASE("docker plan: the directories above a protected path are pinned, so it cannot be renamed away") {
  ContainerPlanInput in = baseInput();
  in.spec.workspaceWritable = true;
  in.spec.protectedPaths = {".loopwright/policies"};
  in.facts["/work/repo/.loopwright"] = dir("/work/repo/.loopwright");
  in.facts["/work/repo/.loopwright/policies"] = dir("/work/repo/.loopwright/policies");
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  std::vector<std::string> binds;
  for (const auto& m : plan->body.at("HostConfig").at("Mounts").as_array())
    if (std::string_view(m.at("Target").as_string()).starts_with("/work/repo/.loopwright"))
      binds.push_back(std::string(m.at("Target").as_string()) + (m.at("ReadOnly").as_bool() ? " ro" : " rw"));
  CHECK(binds == std::vector<std::string>{"/work/repo/.loopwright rw", "/work/repo/.loopwright/policies ro"});
  CHECK(plan->placeholders.empty());
}

TEST_CASE("docker plan: allow-outbound is the bridge network, everything else stays closed") {
  ContainerPlanInput in = baseInput();
  in.spec.network = NetworkMode::AllowOutbound;
  in.spec.argv = {"/bin/true"};
  in.spec.protectedPaths.clear();
  in.spec.deniedReadPaths.clear();
  in.spec.env.clear();
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  lw::test::checkGoldenJson("docker/plan_allow_outbound.json", plan->body);
}

TEST_CASE("docker plan: allow-list is NetworkMode none with the egress relay first, outside the filter") {
  ContainerPlanInput in = baseInput();
  in.spec.network = NetworkMode::AllowList;
  in.spec.egressSocket = "/var/lib/loopwright/runs/7/security/egress/proxy.sock";
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  const auto& host = plan->body.at("HostConfig").as_object();
  CHECK(host.at("NetworkMode").as_string() == "none");
  std::vector<std::string> entrypoint;
  for (const auto& a : plan->body.at("Entrypoint").as_array()) entrypoint.emplace_back(a.as_string());
  CHECK(entrypoint == std::vector<std::string>{"/.loopwright/init", "--egress-relay",
                                               "/var/lib/loopwright/runs/7/security/egress/proxy.sock", "--",
                                               "/.loopwright/init", "/.loopwright/seccomp.bpf", "--",
                                               "./.loopwright/agents/security.sh", "--format", "json"});
  bool bound = false;
  for (const auto& m : host.at("Mounts").as_array())
    if (m.at("Target").as_string() == "/var/lib/loopwright/runs/7/security/egress")
      bound = m.at("Source").as_string() == "/var/lib/loopwright/runs/7/security/egress" && m.at("ReadOnly").as_bool();
  CHECK(bound);
}

TEST_CASE("docker plan: a symlink planted in the workspace never becomes a bind source") {
  ContainerPlanInput in = baseInput();
  in.spec.workspaceWritable = true;
  // .github -> /etc: binding it would show (and for a writable path, open) the host's /etc.
  in.facts["/work/repo/.github"] = link(PathKind::Directory, "/etc");
  // secrets reached through an intermediate symlink.
  in.facts["/work/repo/secrets"] = dir("/home/runner/.ssh");
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  const std::string body = boost::json::serialize(plan->body);
  CHECK(body.find("\"/etc\"") == std::string::npos);
  CHECK(body.find("/home/runner/.ssh") == std::string::npos);
  CHECK(plan->notes.size() == 2);  // the .github symlink, the secrets symlink

  in.spec.writablePaths = {"build"};
  in.spec.workspaceWritable = false;
  in.facts["/work/repo/build"] = link(PathKind::Directory, "/etc");
  auto refused = planContainer(in);
  REQUIRE(!refused.ok());
  CHECK(refused.error().code == ErrorCode::SandboxLaunchFailed);
  CHECK(refused.error().message == "writable path /work/repo/build is reached through a symlink");
}

TEST_CASE("docker plan: specs that cannot be carried out faithfully are refused") {
  struct Case {
    const char* name;
    void (*mutate)(ContainerPlanInput&);
    std::string message;
  };
  const Case cases[] = {
      {"no command", [](ContainerPlanInput& in) { in.spec.argv.clear(); }, "the step has no command"},
      {"no container init", [](ContainerPlanInput& in) { in.initBinary.clear(); },
       "no container init or seccomp filter to bind in"},
      {"relative workspace", [](ContainerPlanInput& in) { in.spec.workspace = "repo"; },
       "workspace 'repo' is not an absolute path"},
      {"workspace is /", [](ContainerPlanInput& in) { in.spec.workspace = "/"; }, "the workspace cannot be /"},
      {"descriptor to pass", [](ContainerPlanInput& in) { in.spec.passFd = 7; },
       "the docker backend cannot hand a descriptor to a container"},
      {"workspace missing", [](ContainerPlanInput& in) { in.facts.erase("/work/repo"); },
       "workspace /work/repo is not a directory on this host"},
      {"out dir missing", [](ContainerPlanInput& in) { in.facts.erase("/var/lib/loopwright/runs/7/security/out"); },
       "out dir /var/lib/loopwright/runs/7/security/out is not a directory on this host"},
      {"writable inside protected",
       [](ContainerPlanInput& in) {
         in.spec.writablePaths = {".github/workflows"};
         in.facts["/work/repo/.github/workflows"] = dir("/work/repo/.github/workflows");
       },
       "writable path /work/repo/.github/workflows lies inside the protected path /work/repo/.github"},
      {"workspace inside denied", [](ContainerPlanInput& in) { in.spec.deniedReadPaths = {"/work"}; },
       "/work/repo lies inside the denied path /work"},
      {"bad env name", [](ContainerPlanInput& in) { in.spec.env["A=B"] = "1"; },
       "environment variable name 'A=B' is invalid"},
      {"workspace not UTF-8", [](ContainerPlanInput& in) { in.spec.workspace = "/work/caf\xE9"; },
       "'/work/caf\xEF\xBF\xBD' is not UTF-8, which the Docker Engine API cannot carry"},
      {"argument not UTF-8", [](ContainerPlanInput& in) { in.spec.argv.push_back("\xFF"); },
       "'\xEF\xBF\xBD' is not UTF-8, which the Docker Engine API cannot carry"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    ContainerPlanInput in = baseInput();
    c.mutate(in);
    auto plan = planContainer(in);
    REQUIRE(!plan.ok());
    CHECK(plan.error().code == ErrorCode::SandboxLaunchFailed);
    CHECK(plan.error().message == c.message);
    CHECK(!plan.error().hint.empty());
  }
}

TEST_CASE("docker plan: paths the step names are found whether relative or absolute") {
  StepSpec spec;
  spec.workspace = "/w/";
  spec.outDir = "/o";
  spec.writablePaths = {"a/../b"};
  spec.protectedPaths = {".github/"};
  spec.deniedReadPaths = {"/root/.ssh"};
  CHECK(pathsToObserve(spec) == std::vector<std::filesystem::path>{"/w", "/o", "/w/b", "/w/.github", "/root/.ssh"});
}

TEST_CASE("docker plan: the workspace itself listed as writable makes its bind writable") {
  ContainerPlanInput in = baseInput();
  in.spec.writablePaths = {"/work/repo/", "."};
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  const auto& mounts = plan->body.at("HostConfig").at("Mounts").as_array();
  int workspaceBinds = 0;
  for (const auto& m : mounts)
    if (m.at("Target") == "/work/repo") {
      ++workspaceBinds;
      CHECK(m.at("ReadOnly") == false);
    }
  CHECK(workspaceBinds == 1);
  // Now writable, so the protected paths are re-bound read-only.
  CHECK(boost::json::serialize(plan->body).find(R"("Target":"/work/repo/AGENTS.md")") != std::string::npos);
}

TEST_CASE("docker plan: without an out dir (sandbox exec) nothing else is bound writable") {
  ContainerPlanInput in = baseInput();
  in.spec.outDir.clear();
  auto plan = planContainer(in);
  REQUIRE(plan.ok());
  for (const auto& m : plan->body.at("HostConfig").at("Mounts").as_array())
    if (m.at("Type") == "bind") CHECK(m.at("ReadOnly") == true);
}
