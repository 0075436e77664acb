// networkMode allow-list end to end (docs/egress.md): `loopwright run` of a
// step that tries, with curl, the host its egress list names (over HTTPS,
// through the proxy), another name, another port, the same host directly
// around the proxy and with the proxy variables unset, an IPv6 address and
// a UDP datagram; as root and as the unprivileged lwtest. The
// destination is this machine's own name, which the test's host config
// lets the proxy reach (its addresses are not public).
#include <doctest/doctest.h>

#include <netdb.h>
#include <pwd.h>
#include <unistd.h>

#include <thread>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/host_requirement.h"

using namespace lw::test;

namespace {

bool bwrapWorks() { return sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0; }

std::string hostName() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

// The addresses this machine's name resolves to, as host-config networks.
std::vector<std::string> addressesOf(const std::string& name) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::vector<std::string> out;
  if (::getaddrinfo(name.c_str(), nullptr, &hints, &found) != 0) return out;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    char text[NI_MAXHOST];
    if (::getnameinfo(a->ai_addr, a->ai_addrlen, text, sizeof text, nullptr, 0, NI_NUMERICHOST) == 0)
      out.push_back(text);
  }
  ::freeaddrinfo(found);
  return out;
}

unsigned short freePort() {
  return static_cast<unsigned short>(
      std::stoi(capture("python3 -c 'import socket;s=socket.socket();"
                        "s.bind((\"\",0));print(s.getsockname()[1])'")));
}

// `openssl s_server -www` for `name` on every address, at a free port.
struct TlsServer {
  unsigned short port = freePort();
  std::string pid;
  TlsServer(const fs::path& dir, const std::string& name) {
    REQUIRE(sh("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout '" +
               (dir / "key.pem").string() + "' -out '" + (dir / "cert.pem").string() + "' -days 1 -subj /CN=" + name +
               " -addext subjectAltName=DNS:" + name + " 2>/dev/null") == 0);
    pid = capture("openssl s_server -accept " + std::to_string(port) + " -cert '" + (dir / "cert.pem").string() +
                  "' -key '" + (dir / "key.pem").string() + "' -www -quiet >/dev/null 2>&1 & echo $!");
    for (int i = 0; i < 200 && sh("curl -s -o /dev/null --cacert '" + (dir / "cert.pem").string() + "' https://" +
                                  name + ":" + std::to_string(port) + "/") != 0;
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ~TlsServer() { sh("kill " + pid); }
};

// The step: each attempt's curl exit status, HTTP code and CONNECT answer, one per line.
std::string stepScript(const std::string& host, unsigned short port) {
  const std::string url = "https://" + host + ":" + std::to_string(port) + "/";
  const std::string other = "https://" + host + ":" + std::to_string(port + 1) + "/";
  return "#!/bin/sh\n"
         "try() { label=$1; shift; code=$(curl -s -o /dev/null -w '%{http_code}/%{http_connect}' --max-time 10 "
         "--cacert cert.pem "
         "\"$@\");"
         " echo \"$label $? $code\" >> \"$LOOPWRIGHT_OUT/results\"; }\n"
         "try allowed " +
         url +
         "\n"
         "try other-name https://example.com/\n"
         "try other-port " +
         other +
         "\n"
         "try direct --noproxy '*' " +
         url +
         "\n"
         "HTTPS_PROXY= https_proxy= try unset-proxy " +
         url +
         "\n"
         "try ipv6 --noproxy '*' https://[2606:4700:4700::1111]/\n"
         "python3 -c \"import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', "
         "('8.8.8.8', 53))\" 2>/dev/null; echo \"udp $?\" >> \"$LOOPWRIGHT_OUT/results\"\n";
}

void checkAllowList(bool asLwtest) {
  const std::string host = hostName();
  const auto addresses = addressesOf(host);
  LW_REQUIRE_HOST(!addresses.empty(), "this machine's name (" + host + ") does not resolve");
  Scratch s;
  fs::create_directories(s.root / "tls");
  TlsServer server(s.root / "tls", host);
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - name: fetch\n          run: [sh, .loopwright/agents/fetch.sh]\n",
                            "  sandbox:\n    preferredBackends: [linux-bwrap]\n    networkMode: allow-list\n"
                            "    egress: [\"" +
                                host + ":" + std::to_string(server.port) + "\"]\n")},
                  {".loopwright/agents/fetch.sh", stepScript(host, server.port)},
                  {"cert.pem", readFile(s.root / "tls" / "cert.pem")}});
  std::string networks;
  for (const auto& a : addresses) networks += (networks.empty() ? "" : ", ") + a;
  writeFile(s.root / "host.yaml",
            "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\negress:\n  allowedNetworks: [" + networks + "]\n");
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()}};
  const CliRun r = asLwtest ? runDispatchAsLwtest(s, repo, env) : runDispatch(s, repo, env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const std::string results = readFile(s.root / "out" / "steps" / "s" / "fetch" / "out" / "results");
  INFO(results);
  CHECK(results.find("allowed 0 200/200\n") != std::string::npos);
  CHECK(results.find("other-name 56 000/403\n") != std::string::npos);  // the proxy's 403 to CONNECT
  CHECK(results.find("other-port 56 000/403\n") != std::string::npos);
  CHECK(results.find("direct 7 000/000\n") != std::string::npos);  // nothing listens in the step's own namespace
  CHECK(results.find("unset-proxy 7 000/000\n") != std::string::npos);
  CHECK(results.find("ipv6 7 000/000\n") != std::string::npos);  // no route: only loopback
  CHECK(results.find("udp 1\n") != std::string::npos);           // ENETUNREACH
  auto step = stepOf(runJson(s.root / "out"), "fetch");
  CHECK(step.at("networkMode").as_string() == "allow-list");
  const auto& egress = step.at("egress").as_array();
  REQUIRE(egress.size() == 3);
  CHECK(egress[0].at("host").as_string() == host);
  CHECK(egress[0].at("allowed").as_bool());
  CHECK(egress[0].at("bytesReceived").as_int64() > 0);
  CHECK(egress[1].at("host").as_string() == "example.com");
  CHECK_FALSE(egress[1].at("allowed").as_bool());
  CHECK(egress[1].at("reason").as_string() == "example.com:443 is not in the step's egress list");
  CHECK_FALSE(egress[2].at("allowed").as_bool());
  CHECK(r.out.find("    egress: 1 allowed, 2 denied\n") != std::string::npos);
  CHECK(r.out.find("    egress denied example.com:443: example.com:443 is not in the step's egress list\n") !=
        std::string::npos);
}

}  // namespace

TEST_CASE("egress run: an allow-list step reaches its listed host through the proxy and nothing else [integration]") {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  checkAllowList(false);
}

TEST_CASE("egress run: the same as lwtest [integration]") {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest with bubblewrap here (run as root to test it)");
  checkAllowList(true);
}
