#include <doctest/doctest.h>

#include <algorithm>

#include "sandbox/landlock/landlock_plan.h"

using namespace lw::sandbox;
using namespace lw::sandbox::landlock;
using lw::ErrorCode;
using lw::NetworkMode;

namespace {

std::string identity(const std::string& p) { return p; }

StepSpec reviewer() {
  StepSpec s;
  s.argv = {"/bin/true"};
  s.workspace = "/w/repo";
  s.outDir = "/w/out";
  s.protectedPaths = {"/w/repo/.github", "/w/repo/AGENTS.md"};
  s.deniedReadPaths = {"/home/u/.ssh", "/home/u/.aws"};
  return s;
}

const PathRule* ruleFor(const Plan& p, const std::string& path) {
  auto it = std::find_if(p.paths.begin(), p.paths.end(), [&](const PathRule& r) { return r.path == path; });
  return it == p.paths.end() ? nullptr : &*it;
}

Plan mustPlan(const StepSpec& s, ConfinementFacts f) {
  auto p = plan(s, f, identity);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  return std::move(p).value();
}

}  // namespace

TEST_CASE("landlock abi: rights grow with the ABI") {
  CHECK(fsRightsOf(0) == 0);
  CHECK(fsRightsOf(1) == 0x1FFF);
  CHECK(fsRightsOf(2) == 0x3FFF);
  CHECK(fsRightsOf(3) == 0x7FFF);
  CHECK(fsRightsOf(4) == 0x7FFF);
  CHECK(fsRightsOf(5) == 0xFFFF);
  CHECK(fsRightsOf(7) == 0xFFFF);
  CHECK(netRightsOf(3) == 0);
  CHECK(netRightsOf(4) == (kNetBindTcp | kNetConnectTcp));
  CHECK(scopesOf(5) == 0);
  CHECK(scopesOf(6) == (kScopeAbstractUnixSocket | kScopeSignal));
  CHECK(sizeof(PathBeneathAttr) == 12);  // the kernel's packed struct
  CHECK(sizeof(RulesetAttr) == 24);
  CHECK(sizeof(NetPortAttr) == 16);
}

TEST_CASE("landlock plan: reviewer step at ABI 7 — read-only workspace, writable out dir") {
  Plan p = mustPlan(reviewer(), {7, true, true});
  CHECK(p.handled.handledAccessFs == fsRightsOf(7));
  CHECK(p.handled.handledAccessNet == (kNetBindTcp | kNetConnectTcp));
  CHECK(p.handled.scoped == (kScopeAbstractUnixSocket | kScopeSignal));
  const PathRule* ws = ruleFor(p, "/w/repo");
  REQUIRE(ws != nullptr);
  CHECK(ws->access == kFsReadRights);
  CHECK(ws->required);
  const PathRule* out = ruleFor(p, "/w/out");
  REQUIRE(out != nullptr);
  CHECK(out->access == fsRightsOf(7));
  const PathRule* usr = ruleFor(p, "/usr");
  REQUIRE(usr != nullptr);
  CHECK(usr->access == kFsReadRights);
  CHECK_FALSE(usr->required);
  const PathRule* null = ruleFor(p, "/dev/null");
  REQUIRE(null != nullptr);
  CHECK(null->access == (kFsReadFile | kFsWriteFile | kFsTruncate));
  CHECK(ruleFor(p, "/etc") == nullptr);  // only listed /etc files, not /etc/shadow
  CHECK(ruleFor(p, "/etc/passwd") != nullptr);
  CHECK(ruleFor(p, "/home/u/.ssh") == nullptr);
  CHECK(ruleFor(p, "/tmp") == nullptr);
  CHECK(p.notEnforced.empty());  // protected paths are inside a read-only tree
  CHECK_FALSE(p.userNamespace);  // ABI 7, mode none, root: Landlock + seccomp suffice
  CHECK(p.seccomp.network == NetworkMode::None);
  CHECK(p.seccomp.denyNewUnixSockets);
  CHECK(std::is_sorted(p.paths.begin(), p.paths.end(),
                       [](const PathRule& a, const PathRule& b) { return a.path < b.path; }));
}

TEST_CASE("landlock plan: a system path others may not read is not granted") {
  // A token in root's 0600 gitconfig: root in the step would still own it.
  auto othersMayRead = [](const std::string& path) { return path != "/etc/gitconfig"; };
  auto p = plan(reviewer(), {7, true, true}, identity, nullptr, othersMayRead);
  REQUIRE(p.ok());
  CHECK(ruleFor(*p, "/etc/gitconfig") == nullptr);
  CHECK(ruleFor(*p, "/etc/passwd") != nullptr);
  CHECK(ruleFor(*p, "/usr") != nullptr);
}

TEST_CASE("landlock plan: author step — protected paths inside the writable workspace reported") {
  StepSpec s = reviewer();
  s.workspaceWritable = true;
  s.writablePaths = {"/w/cache"};
  Plan p = mustPlan(s, {7, true});
  CHECK(ruleFor(p, "/w/repo")->access == fsRightsOf(7));
  CHECK(ruleFor(p, "/w/cache")->access == fsRightsOf(7));
  CHECK(ruleFor(p, "/w/cache")->required);
  REQUIRE(p.notEnforced.size() == 2);
  CHECK(p.notEnforced[0] == "protected path /w/repo/.github is writable inside /w/repo");
}

TEST_CASE("landlock plan: rights never exceed what the ABI handles") {
  for (int abi : {3, 4, 5, 6, 7}) {
    CAPTURE(abi);
    StepSpec s = reviewer();
    s.workspaceWritable = true;
    Plan p = mustPlan(s, {abi, true});
    for (const PathRule& r : p.paths) CHECK((r.access & ~p.handled.handledAccessFs) == 0);
    CHECK(p.handled.handledAccessNet == netRightsOf(abi));
    CHECK(p.handled.scoped == scopesOf(abi));
    CHECK(p.pidNamespace == (abi < 6));
  }
}

TEST_CASE("landlock plan: namespaces only where needed") {
  StepSpec s = reviewer();
  SUBCASE("unprivileged: a user namespace so that the bounding set can be emptied") {
    CHECK(mustPlan(s, {7, true, false}).userNamespace);
    CHECK_FALSE(mustPlan(s, {7, true, true}).userNamespace);
    CHECK_FALSE(mustPlan(s, {7, false, false}).userNamespace);
  }
  SUBCASE("loopback-only gets a private network namespace, TCP not handled by Landlock") {
    s.network = NetworkMode::LoopbackOnly;
    Plan p = mustPlan(s, {7, true});
    CHECK(p.userNamespace);
    CHECK(p.networkNamespace);
    CHECK_FALSE(p.pidNamespace);
    CHECK(p.handled.handledAccessNet == 0);
    CHECK(p.seccomp.network == NetworkMode::LoopbackOnly);
  }
  SUBCASE("allow-list: a private network namespace too, and no new unix sockets") {
    s.network = NetworkMode::AllowList;
    s.egressSocket = "/out/egress/proxy.sock";
    Plan p = mustPlan(s, {7, true});
    CHECK(p.networkNamespace);
    CHECK(p.handled.handledAccessNet == 0);
    CHECK(p.seccomp.network == NetworkMode::AllowList);
    CHECK(p.seccomp.denyNewUnixSockets);
  }
  SUBCASE("ABI 5: pid namespace for signal containment") {
    Plan p = mustPlan(s, {5, true});
    CHECK(p.userNamespace);
    CHECK(p.pidNamespace);
    CHECK_FALSE(p.networkNamespace);
  }
}

TEST_CASE("landlock plan: fails closed") {
  struct Case {
    const char* name;
    ConfinementFacts facts;
    NetworkMode mode;
    ErrorCode code;
    const char* fragment;
  };
  const Case cases[] = {
      {"no landlock", {0, true}, NetworkMode::None, ErrorCode::SandboxBackendUnavailable, "not enabled"},
      {"ABI 2 lacks truncate", {2, true}, NetworkMode::None, ErrorCode::SandboxCapabilityInsufficient, "truncate"},
      {"ABI 5 without namespaces", {5, false}, NetworkMode::None, ErrorCode::SandboxCapabilityInsufficient, "signal"},
      {"loopback without namespaces",
       {7, false},
       NetworkMode::LoopbackOnly,
       ErrorCode::SandboxCapabilityInsufficient,
       "loopback-only"},
      {"allow-outbound", {7, true}, NetworkMode::AllowOutbound, ErrorCode::SandboxCapabilityInsufficient, "by port"},
      {"allow-list without namespaces",
       {7, false},
       NetworkMode::AllowList,
       ErrorCode::SandboxCapabilityInsufficient,
       "allow-list needs a private network namespace"},
      {"allow-list without a proxy",
       {7, true},
       NetworkMode::AllowList,
       ErrorCode::SandboxCapabilityInsufficient,
       "without an egress proxy"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    StepSpec s = reviewer();
    s.network = c.mode;
    auto p = plan(s, c.facts, identity);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == c.code);
    CHECK(p.error().message.find(c.fragment) != std::string::npos);
  }
}

TEST_CASE("landlock plan: a denied path overlapping a granted one is refused without a lister") {
  for (const char* denied : {"/w/repo/secrets", "/w/repo", "/w", "/usr/share/keys", "/etc/ssl/certs/keys"}) {
    CAPTURE(denied);
    StepSpec s = reviewer();
    s.deniedReadPaths.push_back(denied);
    auto p = plan(s, {7, true}, identity);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == ErrorCode::SandboxCapabilityInsufficient);
  }
  StepSpec s = reviewer();
  s.deniedReadPaths = {"/w/repository-other", "/usrx", "/etc/shadow"};  // prefixes, not parents
  CHECK(plan(s, {7, true}, identity).ok());
}

TEST_CASE("landlock plan: paths go through the resolver and merge") {
  StepSpec s = reviewer();
  s.workspace = "/link/repo";
  s.writablePaths = {"/w/out"};  // the same as the out dir
  auto resolve = [](const std::string& p) {
    if (p.rfind("/link/", 0) == 0) return "/w/" + p.substr(6);
    if (p == "/lib") return std::string("/usr/lib");
    return p;
  };
  auto p = plan(s, {7, true}, resolve);
  REQUIRE(p.ok());
  CHECK(ruleFor(*p, "/w/repo") != nullptr);
  CHECK(ruleFor(*p, "/link/repo") == nullptr);
  CHECK(ruleFor(*p, "/lib") == nullptr);
  CHECK(ruleFor(*p, "/usr/lib")->access == kFsReadRights);
  CHECK(std::count_if(p->paths.begin(), p->paths.end(), [](const PathRule& r) { return r.path == "/w/out"; }) == 1);
}

TEST_CASE("landlock plan: no out dir (sandbox exec) is fine, no workspace is not") {
  StepSpec s = reviewer();
  s.outDir.clear();
  Plan p = mustPlan(s, {7, true, true});
  CHECK(ruleFor(p, "/w/out") == nullptr);
  CHECK(ruleFor(p, "") == nullptr);
  s.workspace.clear();
  CHECK_FALSE(plan(s, {7, true, true}, identity).ok());
}

namespace {
// A fake tree: /w/repo/{a.txt, creds/{key, pub}, src/{x.c}, secret.txt}.
std::optional<std::vector<std::string>> fakeList(const std::string& dir) {
  if (dir == "/w/repo") return std::vector<std::string>{"a.txt", "creds", "secret.txt", "src"};
  if (dir == "/w/repo/creds") return std::vector<std::string>{"key", "pub"};
  if (dir == "/w/repo/src") return std::vector<std::string>{"x.c"};
  return std::nullopt;
}
}  // namespace

TEST_CASE("landlock plan: a denied path inside the read-only workspace is carved out") {
  StepSpec s = reviewer();
  s.deniedReadPaths = {"/w/repo/secret.txt", "/w/repo/creds/key"};
  auto p = plan(s, {7, true, true}, identity, fakeList);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  CHECK(ruleFor(*p, "/w/repo") == nullptr);
  CHECK(ruleFor(*p, "/w/repo/secret.txt") == nullptr);
  CHECK(ruleFor(*p, "/w/repo/creds") == nullptr);
  CHECK(ruleFor(*p, "/w/repo/creds/key") == nullptr);
  for (const char* granted : {"/w/repo/a.txt", "/w/repo/src", "/w/repo/creds/pub"}) {
    CAPTURE(granted);
    REQUIRE(ruleFor(*p, granted) != nullptr);
    CHECK(ruleFor(*p, granted)->access == kFsReadRights);
  }
}

TEST_CASE("landlock plan: carving out still refuses what it cannot do") {
  SUBCASE("inside a writable workspace") {
    StepSpec s = reviewer();
    s.workspaceWritable = true;
    s.deniedReadPaths = {"/w/repo/secret.txt"};
    auto p = plan(s, {7, true, true}, identity, fakeList);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().message.find("writable") != std::string::npos);
  }
  SUBCASE("a directory on the way cannot be listed") {
    StepSpec s = reviewer();
    s.deniedReadPaths = {"/w/repo/a.txt/x"};  // a.txt is not listable
    CHECK_FALSE(plan(s, {7, true, true}, identity, fakeList).ok());
  }
  SUBCASE("a denied path holding the workspace") {
    StepSpec s = reviewer();
    s.deniedReadPaths = {"/w"};
    CHECK_FALSE(plan(s, {7, true, true}, identity, fakeList).ok());
  }
}

TEST_CASE("landlock plan: the private view — pid and mount namespaces, read-only but the writable trees") {
  ConfinementFacts unprivileged{7, true, false, false, true};
  ConfinementFacts root{7, true, true, true, true};
  SUBCASE("reviewer, unprivileged: a user namespace gives the others") {
    Plan p = mustPlan(reviewer(), unprivileged);
    CHECK(p.userNamespace);
    CHECK(p.mountNamespace);
    CHECK(p.pidNamespace);
    CHECK_FALSE(p.networkNamespace);
    CHECK(p.writableTrees == std::vector<std::string>{"/w/out"});
    CHECK(p.workdir == "/w/repo");
    CHECK_FALSE(p.seccomp.denyMetadataChanges);  // the read-only mounts stop it
  }
  SUBCASE("root needs no user namespace") {
    Plan p = mustPlan(reviewer(), root);
    CHECK_FALSE(p.userNamespace);
    CHECK(p.mountNamespace);
    CHECK(p.pidNamespace);
  }
  SUBCASE("author: each tree once, outermost only, a sibling sharing a prefix kept") {
    StepSpec s = reviewer();
    s.workspaceWritable = true;
    s.workdir = "/w/repo/src";
    s.writablePaths = {"/w/repo/sub", "/w/cache", "/w/repo b", "/w/out/x"};
    Plan p = mustPlan(s, unprivileged);
    CHECK(p.writableTrees == std::vector<std::string>{"/w/cache", "/w/out", "/w/repo", "/w/repo b"});
    CHECK(p.workdir == "/w/repo/src");
  }
  SUBCASE("without the view seccomp refuses metadata changes instead") {
    Plan p = mustPlan(reviewer(), {7, true, true});
    CHECK_FALSE(p.mountNamespace);
    CHECK_FALSE(p.pidNamespace);
    CHECK(p.writableTrees.empty());
    CHECK(p.seccomp.denyMetadataChanges);
  }
  SUBCASE("more writable trees than the view takes is refused") {
    StepSpec s = reviewer();
    for (int i = 0; i < 40; ++i) s.writablePaths.push_back("/w/t" + std::to_string(i));
    auto p = plan(s, unprivileged, identity);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == ErrorCode::SandboxCapabilityInsufficient);
    CHECK(p.error().message.find("separate writable paths") != std::string::npos);
  }
}
