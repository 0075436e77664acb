#include <doctest/doctest.h>

#include <algorithm>

#include "host/canary_plan.h"

using namespace lw;
using namespace lw::host;
using sandbox::Support;

namespace {

sandbox::ProbeReport claims(Support s) {
  sandbox::ProbeReport r;
  r.available = true;
  for (Capability c : kAllCapabilities) r.capabilities[c] = {s, ""};
  for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {s, ""};
  return r;
}

CanaryLayout layout() {
  CanaryLayout l;
  l.root = "/tmp/q";
  l.ws = "/tmp/q/ws";
  l.secret = "s3cret";
  l.binary = "/tmp/q/ws/lw-canary";
  l.hostPort = 4242;
  l.outboundIp = "10.0.0.5";
  l.hostPid = 4711;
  return l;
}

}  // namespace

TEST_CASE("canary plan: every claimed target gets a canary with the step shape it needs") {
  auto plan = planCanaries(claims(Support::Enforced), layout(), false);
  auto find = [&](const std::string& target, const std::string& name) {
    return std::find_if(plan.begin(), plan.end(),
                        [&](const CanaryCase& c) { return c.target == target && c.name == name; });
  };
  auto read = find("filesystemReadContainment", "read");
  REQUIRE(read != plan.end());
  CHECK(read->args == std::vector<std::string>{"s3cret", "/tmp/q/secret", "/tmp/q/ws/denied"});
  CHECK_FALSE(read->writable);
  auto prot = find("protectedPathReadOnlyMask", "write-protected");
  REQUIRE(prot != plan.end());
  CHECK(prot->writable);
  CHECK(prot->protectProt);
  CHECK(prot->hostCheck == HostCheck::ProtectedUnchanged);
  auto out = find("network allow-outbound", "connect-ok");
  REQUIRE(out != plan.end());
  CHECK_FALSE(out->expectBlocked);
  CHECK(out->network == NetworkMode::AllowOutbound);
  auto hostLo = find("network allow-outbound", "connect");
  REQUIRE(hostLo != plan.end());
  CHECK(hostLo->failureCost == Support::Partial);  // a known weakness, not a total failure
  CHECK(find("network loopback-only", "loopback") != plan.end());
  CHECK(find("network none", "connect") != plan.end());
  CHECK(canaryArgv(*read, layout(), false) == std::vector<std::string>{"/tmp/q/ws/lw-canary", "qualify", "--canary",
                                                                       "read", "--", "s3cret", "/tmp/q/secret",
                                                                       "/tmp/q/ws/denied"});
}

TEST_CASE("canary plan: targets claimed absent are not attempted, no outbound address, no outbound canary") {
  auto none = planCanaries(claims(Support::Absent), layout(), false);
  CHECK(none.empty());
  CanaryLayout l = layout();
  l.outboundIp.reset();
  for (const CanaryCase& c : planCanaries(claims(Support::Enforced), l, false))
    CHECK(c.args != std::vector<std::string>{"10.0.0.5", "4242"});
}

TEST_CASE("canary plan: container images get /bin/sh scripts and no loopback listener") {
  auto plan = planCanaries(claims(Support::Enforced), layout(), true);
  for (const CanaryCase& c : plan) {
    CHECK(c.name != "loopback");
    auto argv = canaryArgv(c, layout(), true);
    REQUIRE(argv.size() == 3);
    CHECK(argv[0] == "/bin/sh");
  }
}

TEST_CASE("canary plan: metadata outside the writable paths and the reach to host processes are tried") {
  auto plan = planCanaries(claims(Support::Enforced), layout(), false);
  auto find = [&](const std::string& name) {
    return std::find_if(plan.begin(), plan.end(), [&](const CanaryCase& c) { return c.name == name; });
  };
  auto meta = find("metadata");
  REQUIRE(meta != plan.end());
  CHECK(meta->target == "filesystemWriteContainment");
  CHECK(meta->args == std::vector<std::string>{"/tmp/q/ws"});
  auto host = find("host-process");
  REQUIRE(host != plan.end());
  CHECK(host->target == "processTreeCleanup");
  CHECK(host->args == std::vector<std::string>{"4711"});
  CHECK(host->attempt.find("pid 4711") != std::string::npos);
  SUBCASE("a backend that contains nothing claims only its own tree") {
    auto direct = claims(Support::Absent);
    direct.capabilities[Capability::ProcessTreeCleanup] = {Support::Enforced, ""};
    auto only = planCanaries(direct, layout(), false);
    REQUIRE(only.size() == 1);
    CHECK(only.front().name == "daemon");
  }
  SUBCASE("shell forms for container images") {
    auto shellPlan = planCanaries(claims(Support::Enforced), layout(), true);
    for (const CanaryCase& c : shellPlan) {
      if (c.name != "metadata" && c.name != "host-process") continue;
      CHECK(canaryArgv(c, layout(), true)[2].find("setup: no shell form") == std::string::npos);
    }
  }
}
