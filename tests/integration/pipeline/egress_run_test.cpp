// networkMode allow-list end to end (docs/egress.md), on every Linux backend
// that claims it: `loopwright run` of a step that sends the escape suite's
// hostile program (tests/escape/hostile) at the network — the listed host
// through the proxy (a ClientHello answered), another name, the listed host
// with another name in its ClientHello (SNI), the host's address and its
// loopback services directly around the proxy, IPv6, UDP to a DNS server, a
// name looked up inside, raw, packet and netlink sockets, and a host unix
// socket — and, where the step sees the host's tools, curl over HTTPS with
// and without the proxy variables; as root and as the unprivileged lwtest.
// The destination is this machine's own name, which the test's host config
// lets the proxy reach (its addresses are not public).
#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/egress_hosts.h"
#include "support/host_requirement.h"

using namespace lw::test;
using namespace lw::test::egress;

namespace {

bool bwrapWorks() { return sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0; }

// One probe of the hostile program: its exit status (0 blocked or, for a
// positive probe, worked; 1 escaped; 2 could not be set up) per line of
// results, its output in LABEL.txt.
std::string hostileProbes(const std::string& host, const std::string& address, unsigned short port,
                          const fs::path& hostSocket) {
  const std::string p = std::to_string(port);
  return "H=\"$LOOPWRIGHT_OUT/hostile\"; cp hostile \"$H\" && chmod 755 \"$H\"\n"
         "probe() { label=$1; shift; \"$H\" --lw-hostile \"$@\" > \"$LOOPWRIGHT_OUT/$label.txt\" 2>&1;"
         " echo \"$label $?\" >> \"$LOOPWRIGHT_OUT/results\"; }\n"
         "probe proxy proxy " +
         host + " " + p +
         "\n"
         "probe other-name proxy example.com 443\n"
         "probe sni sni " +
         host + " " + p +
         " example.com\n"
         "probe direct tcp-to " +
         address + " " + p +
         "\n"
         "probe host-loopback tcp " +
         p +
         "\n"
         "probe ipv6 tcp-to 2606:4700:4700::1111 443\n"
         "probe ipv6-loopback tcp-to ::1 " +
         p +
         "\n"
         "probe metadata tcp-to 169.254.169.254 80\n"
         "probe udp udp 53\n"
         "probe resolve resolve example.com\n"
         "probe raw raw\n"
         "probe unix unix " +
         hostSocket.string() + "\n";
}

// The same with curl, where the step sees the host's tools: each attempt's
// exit status, HTTP code and CONNECT answer, one per line.
std::string curlProbes(const std::string& host, unsigned short port) {
  const std::string url = "https://" + host + ":" + std::to_string(port) + "/";
  const std::string other = "https://" + host + ":" + std::to_string(port + 1) + "/";
  return "try() { label=$1; shift; code=$(curl -s -o /dev/null -w '%{http_code}/%{http_connect}' --max-time 10 "
         "--cacert cert.pem \"$@\"); echo \"$label $? $code\" >> \"$LOOPWRIGHT_OUT/results\"; }\n"
         "try allowed " +
         url +
         "\n"
         "try other-port " +
         other +
         "\n"
         "try direct-curl --noproxy '*' " +
         url +
         "\n"
         "HTTPS_PROXY= https_proxy= try unset-proxy " +
         url + "\n";
}

// Where each allow-list case runs.
struct Target {
  std::string backend;
  std::string sandboxYaml;                 // the taskpack's sandbox keys besides the mode
  std::string hostConfigExtra;             // runtime profiles
  std::map<std::string, std::string> env;  // DOCKER_HOST
  bool hostTools = true;                   // curl and the host's files are in the step's view
};

// What `loopwright sandbox backends --json` says of allow-list on `backend`.
std::string allowListClaim(const std::string& backend, const std::string& envPrefix) {
  const auto doc = boost::json::parse(capture(envPrefix + " '" LOOPWRIGHT_BIN "' sandbox backends --json 2>/dev/null"));
  for (const auto& b : doc.at("backends").as_array())
    if (b.at("backend").as_string() == backend && b.at("available").as_bool())
      return std::string(b.at("networkModes").at("allow-list").at("status").as_string());
  return "unavailable";
}

void checkAllowList(const Target& t, bool asLwtest) {
  const std::string host = hostName();
  const auto addresses = addressesOf(host);
  LW_REQUIRE_HOST(!addresses.empty(), "this machine's name (" + host + ") does not resolve");
  const std::string address = interfaceAddress();
  LW_REQUIRE_HOST(!address.empty(), "this machine has no IPv4 address but loopback");
  Scratch s;
  fs::create_directories(s.root / "tls");
  TlsServer server(s.root / "tls", host);
  HostSocket hostSocket(s.root / "host.sock");
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: fetch\n          run: [sh, .loopwright/agents/fetch.sh]\n",
                            "  sandbox:\n    preferredBackends: [" + t.backend + "]\n" + t.sandboxYaml +
                                "    networkMode: allow-list\n    egress: [\"" + host + ":" +
                                std::to_string(server.port) + "\"]\n")},
                  {".loopwright/agents/fetch.sh", "#!/bin/sh\n" +
                                                      hostileProbes(host, address, server.port, s.root / "host.sock") +
                                                      (t.hostTools ? curlProbes(host, server.port) : "")},
                  {"hostile", readFile(LW_HOSTILE_BIN)},
                  {"cert.pem", readFile(server.cert)}});
  std::string networks;
  for (const auto& a : addresses) networks += (networks.empty() ? "" : ", ") + a;
  writeFile(s.root / "host.yaml",
            "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\negress:\n  allowedNetworks: [" + networks + "]\n" +
                t.hostConfigExtra);
  std::map<std::string, std::string> env = t.env;
  env["LOOPWRIGHT_HOST_CONFIG"] = (s.root / "host.yaml").string();
  const CliRun r = asLwtest ? runDispatchAsLwtest(s, repo, env) : runDispatch(s, repo, env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const fs::path out = s.root / "out" / "steps" / "s" / "fetch" / "out";
  const std::string results = readFile(out / "results");
  INFO(results);
  for (const char* probe : {"proxy", "sni", "direct", "host-loopback", "ipv6", "ipv6-loopback", "metadata", "udp",
                            "resolve", "raw", "unix"}) {
    CAPTURE(std::string(probe));
    INFO(readFile(out / (std::string(probe) + ".txt")));
    CHECK(results.find(std::string(probe) + " 0\n") != std::string::npos);
  }
  CHECK(results.find("other-name 2\n") != std::string::npos);  // CONNECT refused: no tunnel
  if (t.hostTools) {
    CHECK(results.find("allowed 0 200/200\n") != std::string::npos);
    CHECK(results.find("other-port 56 000/403\n") != std::string::npos);  // the proxy's 403 to CONNECT
    CHECK(results.find("direct-curl 7 000/000\n") != std::string::npos);  // nothing listens in the step's namespace
    CHECK(results.find("unset-proxy 7 000/000\n") != std::string::npos);
  }
  auto step = stepOf(runJson(s.root / "out"), "fetch");
  CHECK(step.at("backend").as_string() == t.backend);
  CHECK(step.at("networkMode").as_string() == "allow-list");
  int allowed = 0, denied = 0;
  bool nameDenied = false, sniDenied = false;
  for (const auto& e : step.at("egress").as_array()) {
    const bool ok = e.at("allowed").as_bool();
    (ok ? allowed : denied)++;
    const std::string reason(e.at("reason").as_string());
    nameDenied = nameDenied || (!ok && reason == "example.com:443 is not in the step's egress list");
    sniDenied =
        sniDenied || (!ok && e.at("host").as_string() == host && reason.find("example.com") != std::string::npos);
  }
  CHECK(allowed == (t.hostTools ? 2 : 1));  // the hostile ClientHello, curl's request
  CHECK(denied == (t.hostTools ? 3 : 2));   // other name, SNI, other port
  CHECK(nameDenied);
  CHECK(sniDenied);
  CHECK(r.out.find("    egress denied example.com:443: example.com:443 is not in the step's egress list\n") !=
        std::string::npos);
}

Target bwrap() { return {"linux-bwrap", "", "", {}, true}; }
Target landlock() { return {"linux-landlock", "", "", {}, true}; }
Target gvisor() { return {"linux-gvisor", "", "", {}, true}; }

void requireClaim(const std::string& backend, const std::string& envPrefix = "") {
  const std::string claim = allowListClaim(backend, envPrefix);
  LW_REQUIRE_HOST(claim != "unavailable", backend + " is not available here");
  // The report says enforced exactly where this test runs the attacks.
  CHECK(claim == "enforced");
}

}  // namespace

TEST_CASE(
    "egress run: an allow-list step on linux-bwrap reaches its listed host through the proxy and nothing else "
    "[integration]") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  requireClaim("linux-bwrap");
  checkAllowList(bwrap(), false);
}

TEST_CASE("egress run: the same on linux-bwrap as lwtest [integration]") {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest with bubblewrap here (run as root to test it)");
  checkAllowList(bwrap(), true);
}

TEST_CASE("egress run: the same on linux-landlock through a listener only loopwright holds [integration]") {
  requireClaim("linux-landlock");
  checkAllowList(landlock(), false);
}

TEST_CASE("egress run: the same on linux-landlock as lwtest [integration]") {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest here (run as root to test it)");
  checkAllowList(landlock(), true);
}

TEST_CASE("egress run: the same on linux-gvisor through the relay inside gVisor's netstack [integration]") {
  requireClaim("linux-gvisor");
  checkAllowList(gvisor(), false);
}

TEST_CASE("egress run: the same on linux-gvisor as lwtest [integration]") {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest here (run as root to test it)");
  checkAllowList(gvisor(), true);
}

// As root only: who can reach the engine's socket is root-equivalent, and
// the private engine's socket is root's.
TEST_CASE("egress run: the same on docker with NetworkMode none and the relay inside [integration]") {
  const char* image = std::getenv("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  const char* dockerHost = std::getenv("DOCKER_HOST");
  LW_REQUIRE_HOST(image != nullptr && dockerHost != nullptr,
                  "no test Docker engine (scripts/docker-test-env.sh start; eval its env)");
  requireClaim("docker", std::string("DOCKER_HOST='") + dockerHost + "'");
  checkAllowList({"docker",
                  "    runtimeProfile: busybox\n",
                  std::string("runtimeProfiles:\n  busybox: {image: \"") + image + "\"}\n",
                  {{"DOCKER_HOST", dockerHost}},
                  false},
                 false);
}
