// sandbox.egress in a taskpack, floor.egress and egress: in a host config:
// what is read, what is refused with its location, and how the floor
// narrows a step's list.
#include <doctest/doctest.h>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "policy/load/egress_reader.h"
#include "policy/load/host_config_loader.h"
#include "policy/load/taskpack_loader.h"
#include "policy/resolve/resolve.h"

using namespace lw;

namespace {

const std::string kHead = "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n";

std::string taskpackWith(const std::string& sandbox, const std::string& stepSandbox = "") {
  return kHead + "  sandbox:\n" + sandbox +
         "  stages:\n    - name: s\n      on: [pull_request.opened]\n      steps:\n"
         "        - name: a\n          run: [x]\n" +
         stepSandbox;
}

Result<Taskpack> parse(const std::string& text) { return parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{"/h"}); }

std::string diagnostics(const Result<Taskpack>& r) {
  std::string out;
  if (!r.ok())
    for (const auto& d : r.error().diagnostics) out += d.location.toString() + " " + d.message + "\n";
  return out;
}

HostConfig hostWith(const std::string& body) {
  auto h = parseHostConfig("apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n" + body, "host.yaml");
  REQUIRE_MESSAGE(h.ok(), (h.ok() ? "" : h.error().diagnostics.front().message));
  return *h;
}

}  // namespace

TEST_CASE("egress policy: short and long entries are read, with the place each was written") {
  auto r =
      parse(taskpackWith("    networkMode: allow-list\n"
                         "    egress:\n"
                         "      - registry.npmjs.org\n"
                         "      - \"*.pythonhosted.org:8443\"\n"
                         "      - host: Deb.Example.org.\n"
                         "        port: 80\n"
                         "        http: [{method: GET, path: /debian/}, {path: /status}]\n"));
  REQUIRE_MESSAGE(r.ok(), diagnostics(r));
  const auto& egress = *r->sandbox->egress;
  REQUIRE(egress.size() == 3);
  CHECK(egress[0].host == "registry.npmjs.org");
  CHECK(egress[0].port == 443);
  CHECK(egress[0].origin == "tp.yaml:8:9");
  CHECK(egress[1].host == "*.pythonhosted.org");
  CHECK(egress[1].port == 8443);
  CHECK(egress[2].host == "deb.example.org");
  CHECK(egress[2].port == 80);
  REQUIRE(egress[2].http.size() == 2);
  CHECK(egress[2].http[0].method == "GET");
  CHECK(egress[2].http[1].method.empty());
  CHECK(egress[2].http[1].pathPrefix == "/status");
}

TEST_CASE("egress policy: addresses, bad ports, bad methods and relative paths are refused where they are") {
  auto r =
      parse(taskpackWith("    networkMode: allow-list\n"
                         "    egress:\n"
                         "      - 169.254.169.254\n"
                         "      - example.org:0\n"
                         "      - \"*.*.org\"\n"
                         "      - {host: a.org, http: [{method: TRACE}]}\n"
                         "      - {host: a.org, http: [{path: debian}]}\n"
                         "      - {port: 80}\n"));
  const std::string d = diagnostics(r);
  CHECK(d.find("tp.yaml:8:9 '169.254.169.254' is not a host name") != std::string::npos);
  CHECK(d.find("tp.yaml:9:9 'example.org:0' names no valid port") != std::string::npos);
  CHECK(d.find("'*.*.org' is not a host name") != std::string::npos);
  CHECK(d.find("TRACE") != std::string::npos);
  CHECK(d.find("'debian' is not a path") != std::string::npos);
  CHECK(d.find("host") != std::string::npos);
}

TEST_CASE("egress policy: allow-list and an egress list go together, across spec.sandbox and the step") {
  CHECK(diagnostics(parse(taskpackWith("    networkMode: allow-list\n")))
            .find("networkMode allow-list but no egress entries") != std::string::npos);
  CHECK(diagnostics(parse(taskpackWith("    egress: [a.org]\n"))).find("its networkMode is none") != std::string::npos);
  auto split = parse(taskpackWith("    egress: [a.org]\n", "          sandbox: {networkMode: allow-list}\n"));
  CHECK_MESSAGE(split.ok(), diagnostics(split));
}

TEST_CASE("egress policy: the host config's floor list narrows a step's list and its settings are read") {
  auto tp =
      parse(taskpackWith("    networkMode: allow-list\n"
                         "    egress: [registry.npmjs.org, files.pythonhosted.org, evil.example]\n"));
  REQUIRE(tp.ok());
  auto host = hostWith(
      "floor:\n  egress: [registry.npmjs.org, \"*.pythonhosted.org\"]\n"
      "egress:\n  allowedNetworks: [10.1.2.0/24]\n  maxConnections: 10\n  maxBytes: 1000000\n");
  CHECK(host.egress.allowedNetworks.size() == 1);
  CHECK(host.egress.maxConnections == 10);
  CHECK(host.egress.maxBytes == 1000000);
  auto resolved = resolvePolicies(*tp, host, {false, "/h"});
  REQUIRE(!resolved.ok());
  REQUIRE(resolved.error().diagnostics.size() == 1);
  CHECK_MESSAGE(resolved.error().diagnostics[0].message.find("lists egress to evil.example:443 (tp.yaml:7:58)") !=
                    std::string::npos,
                resolved.error().diagnostics[0].message);

  auto fits = parse(taskpackWith("    networkMode: allow-list\n    egress: [registry.npmjs.org]\n"));
  auto ok = resolvePolicies(*fits, host, {false, "/h"});
  REQUIRE(ok.ok());
  CHECK((*ok)[0].sandbox.egress.size() == 1);
  CHECK((*ok)[0].origins.at("egress").starts_with("taskpack spec.sandbox"));
}

TEST_CASE("egress policy: a floor entry covers names, ports and plain-HTTP rules only when it allows all of them") {
  EgressRule wide{"*.example.org", 443, {}, ""};
  CHECK(egressRuleCovers(wide, {"a.example.org", 443, {}, ""}));
  CHECK(egressRuleCovers(wide, {"*.a.example.org", 443, {}, ""}));
  CHECK(!egressRuleCovers(wide, {"example.org", 443, {}, ""}));
  CHECK(!egressRuleCovers(wide, {"a.example.org", 80, {}, ""}));
  EgressRule debian{"deb.example.org", 80, {{"GET", "/debian/"}}, ""};
  CHECK(egressRuleCovers(debian, {"deb.example.org", 80, {{"GET", "/debian/pool/"}}, ""}));
  CHECK(!egressRuleCovers(debian, {"deb.example.org", 80, {{"POST", "/debian/"}}, ""}));
  CHECK(!egressRuleCovers(debian, {"deb.example.org", 80, {}, ""}));
}

TEST_CASE("egress policy: a malformed host config egress section is refused") {
  auto h = parseHostConfig(
      "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
      "egress:\n  allowedNetworks: [10.0.0.0/33, example.org]\n  maxConnections: 0\n",
      "host.yaml");
  REQUIRE(!h.ok());
  CHECK(h.error().diagnostics.size() == 3);
}

TEST_CASE("egress policy: a command line's --egress entries and list file are read like sandbox.egress") {
  char path[] = "/tmp/lw-egress-list-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream(path)
      << "- registry.npmjs.org\n- host: deb.example.org\n  port: 80\n  http: [{method: GET, path: /d/}]\n";
  auto rules = readCommandLineEgress({"api.example.com:8443", "*.example.org"}, std::string(path));
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 4);
  CHECK((*rules)[0].host == "api.example.com");
  CHECK((*rules)[0].port == 8443);
  CHECK((*rules)[0].origin == "--egress api.example.com:8443");
  CHECK((*rules)[1].host == "*.example.org");
  CHECK((*rules)[2].origin == std::string(path) + ":1:3");
  CHECK((*rules)[3].http.size() == 1);

  std::ofstream(path) << "- ok.example\n- 10.0.0.1\n";
  auto bad = readCommandLineEgress({"a.example:0"}, std::string(path));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::UsageError);
  REQUIRE(bad.error().diagnostics.size() == 2);
  CHECK(bad.error().diagnostics[0].message == "'a.example:0' names no valid port");
  CHECK(bad.error().diagnostics[1].location.toString() == std::string(path) + ":2:3");
  std::remove(path);
}
