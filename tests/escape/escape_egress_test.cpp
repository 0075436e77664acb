// networkMode allow-list through `loopwright sandbox exec --egress`
// (docs/egress.md), on every backend of the escape suite, as root and as
// lwtest: each way around the list that issue #27 names is tried from
// inside and fails, and what reached the proxy is in the --report's egress
// records. A backend whose probe does not claim allow-list must be refused
// by negotiation instead. The listed host is this machine's own name, which
// the cases' host config lets the proxy reach (support/egress_hosts.h).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "escape/escape_common.h"
#include "support/egress_hosts.h"
#include "support/host_requirement.h"

using namespace lw::escape;
using namespace lw::test::egress;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// Counts the datagrams that reach this machine's address at a free port.
class UdpCounter {
 public:
  explicit UdpCounter(const std::string& address) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    ::inet_pton(AF_INET, address.c_str(), &a.sin_addr);
    socklen_t len = sizeof a;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    port = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      char buf[64];
      while (::recv(fd_, buf, sizeof buf, 0) > 0) ++received;
    });
  }
  ~UdpCounter() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  unsigned short port = 0;
  std::atomic<int> received{0};

 private:
  int fd_ = -1;
  std::thread thread_;
};

// What every case attacks, set up once: the listed TLS server, a plain
// HTTP server that is not listed, a UDP listener, and two host configs: one
// that lets the proxy reach this machine's addresses, one that does not.
struct Targets {
  std::string host = hostName();
  std::vector<std::string> addresses = addressesOf(host);
  std::string address = interfaceAddress();
  fs::path dir = makeDir();
  TlsServer tls{dir, host};
  HttpServer http{dir};
  UdpCounter udp{address.empty() ? "127.0.0.1" : address};
  fs::path reachable = dir / "reachable.yaml";
  fs::path unreachable = dir / "unreachable.yaml";

  Targets() {
    std::string networks;
    for (const auto& a : addresses) networks += (networks.empty() ? "" : ", ") + a;
    const std::string head = "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n";
    std::ofstream(reachable) << head << "egress:\n  allowedNetworks: [" << networks << "]\n";
    std::ofstream(unreachable) << head;
    for (const fs::path& p : {reachable, unreachable, tls.cert}) ::chmod(p.c_str(), 0644);
  }
  ~Targets() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string listed() const { return host + ":" + std::to_string(tls.port); }

 private:
  static fs::path makeDir() {
    std::string path = (fs::temp_directory_path() / "lw-egress-XXXXXX").string();
    REQUIRE(::mkdtemp(path.data()) != nullptr);
    ::chmod(path.c_str(), 0755);  // lwtest reads the host configs
    return path;
  }
};

Targets& targets() {
  static Targets t;
  return t;
}

void requireTargets() {
  const Targets& t = targets();
  LW_REQUIRE_HOST(!t.addresses.empty(), "this machine's name (" + t.host + ") does not resolve");
  LW_REQUIRE_HOST(!t.address.empty(), "this machine has no IPv4 address but loopback");
}

struct AllowList {
  AllowList(std::vector<std::string> entries, const fs::path* config = &targets().reachable,
            std::vector<std::string> instead = {})
      : egress(std::move(entries)), hostConfig(config), command(std::move(instead)) {}
  std::vector<std::string> egress;   // --egress entries
  const fs::path* hostConfig;        // LOOPWRIGHT_HOST_CONFIG
  std::vector<std::string> command;  // instead of the hostile program
};

// One attack under `list`: the result, and the proxy's records from the
// report (nullopt when the backend does not claim allow-list, after
// checking that negotiation refused it).
struct Attempt {
  ExecResult result;
  std::optional<json::array> records;
};

Attempt attempt(const Runner& r, const std::vector<std::string>& attack, const AllowList& list) {
  auto c = makeCase(r);
  fs::copy_file(targets().tls.cert, c->ws / "cert.pem");
  ExecOptions o;
  o.network = "allow-list";
  for (const auto& e : list.egress) o.flags.insert(o.flags.end(), {"--egress", e});
  const fs::path report = c->root / "report.json";
  o.flags.insert(o.flags.end(), {"--report", report.string()});
  o.env = {"LOOPWRIGHT_HOST_CONFIG=" + list.hostConfig->string()};
  o.command = list.command;
  Attempt a{sandboxExec(r, *c, attack, o), std::nullopt};
  if (!probeEnforcesNetwork(r, "allow-list")) {
    INFO(a.result.describe());
    CHECK(a.result.status == 3);
    CHECK(a.result.err.find("SANDBOX_CAPABILITY_INSUFFICIENT") != std::string::npos);
    return a;
  }
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  INFO(a.result.describe());
  INFO(text.str());
  const auto doc = json::parse(text.str());
  REQUIRE(doc.as_object().contains("egress"));
  a.records = doc.at("egress").as_array();
  return a;
}

// The attack was blocked inside and nothing of it reached the proxy.
void checkNoRoute(const Attempt& a) {
  if (!a.records) return;
  checkBlocked(a.result);
  INFO(json::serialize(*a.records));
  CHECK(a.records->empty());
}

// The attack was blocked, the proxy denied it once, and the denial names
// `host`:`port` and, in its reason, `why`.
void checkDenied(const Attempt& a, const std::string& host, int port, const std::string& why) {
  if (!a.records) return;
  checkBlocked(a.result);
  INFO(json::serialize(*a.records));
  REQUIRE(a.records->size() == 1);
  const auto& r = a.records->front();
  CHECK(r.at("allowed") == false);
  CHECK(r.at("host").as_string() == host);
  CHECK(r.at("port").to_number<int>() == port);
  CHECK(std::string(r.at("reason").as_string()).find(why) != std::string::npos);
  CHECK(a.result.err.find("loopwright: egress denied " + host + ":" + std::to_string(port) + ": ") !=
        std::string::npos);
}

// The busybox image of the docker runner has no curl.
bool hasCurl(const Runner& r) { return r.backend != "docker"; }

// curl of `url` trusting the TLS server's certificate, which attempt()
// puts in the workspace, the command's working directory.
std::vector<std::string> curl(const std::string& url) {
  return {"curl", "-s", "-o", "/dev/null", "--max-time", "10", "--cacert", "cert.pem", url};
}

}  // namespace

TEST_CASE("escape egress: the listed host answers through the proxy and a direct connection around it has no route") {
  requireTargets();
  const Targets& t = targets();
  const std::string url = "https://" + t.listed() + "/";
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    const Attempt reached = attempt(r, {"proxy", t.host, std::to_string(t.tls.port)}, {{t.listed()}});
    if (reached.records) {
      INFO(reached.result.describe());
      CHECK(reached.result.status == 0);  // the server's ServerHello came back
      REQUIRE(reached.records->size() == 1);
      CHECK(reached.records->front().at("allowed") == true);
    }
    checkNoRoute(attempt(r, {"tcp-to", t.address, std::to_string(t.tls.port)}, {{t.listed()}}));
    checkNoRoute(attempt(r, {"tcp", std::to_string(t.tls.port)}, {{t.listed()}}));
    if (!hasCurl(r)) continue;
    // curl follows the proxy variables sandbox exec sets; without them it
    // connects directly, and finds nothing to connect to.
    const Attempt viaProxy = attempt(r, {}, {{t.listed()}, &t.reachable, curl(url)});
    if (viaProxy.records) CHECK(viaProxy.result.status == 0);
    std::vector<std::string> unset = {"env", "-u",         "HTTPS_PROXY", "-u",        "https_proxy",
                                      "-u",  "HTTP_PROXY", "-u",          "http_proxy"};
    for (const auto& word : curl(url)) unset.push_back(word);
    const Attempt direct = attempt(r, {}, {{t.listed()}, &t.reachable, unset});
    if (direct.records) {
      INFO(direct.result.describe());
      CHECK(direct.result.status == 7);  // curl: could not connect
      CHECK(direct.records->empty());
    }
  }
}

TEST_CASE("escape egress: plain HTTP through the proxy to a host that is not listed is refused with 403") {
  requireTargets();
  const Targets& t = targets();
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkDenied(attempt(r, {"http-proxy", t.host, std::to_string(t.http.port)}, {{t.listed()}}), t.host, t.http.port,
                "is not in the step's egress list");
  }
}

TEST_CASE("escape egress: CONNECT to the listed host with another name in the ClientHello gets no tunnel") {
  requireTargets();
  const Targets& t = targets();
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkDenied(attempt(r, {"sni", t.host, std::to_string(t.tls.port), "example.com"}, {{t.listed()}}), t.host,
                t.tls.port, "example.com");
  }
}

TEST_CASE("escape egress: DNS to an outside resolver and lookups inside the step find no server") {
  requireTargets();
  const Targets& t = targets();
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkNoRoute(attempt(r, {"udp", "53"}, {{t.listed()}}));  // 8.8.8.8:53
    checkNoRoute(attempt(r, {"resolve", "example.com"}, {{t.listed()}}));
  }
}

TEST_CASE("escape egress: UDP to this machine's address does not arrive") {
  requireTargets();
  Targets& t = targets();
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkNoRoute(attempt(r, {"udp-to", t.address, std::to_string(t.udp.port)}, {{t.listed()}}));
  }
  CHECK(t.udp.received.load() == 0);
}

TEST_CASE("escape egress: the cloud metadata address directly, in plain HTTP and by CONNECT") {
  requireTargets();
  const Targets& t = targets();
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkNoRoute(attempt(r, {"tcp-to", "169.254.169.254", "80"}, {{t.listed()}}));
    checkDenied(attempt(r, {"http-proxy", "169.254.169.254", "80"}, {{t.listed()}}), "169.254.169.254", 80,
                "is not a host name");
    checkDenied(attempt(r, {"connect-refused", "169.254.169.254", "80"}, {{t.listed()}}), "169.254.169.254", 80,
                "is not a host name");
  }
}

TEST_CASE("escape egress: a listed name that resolves to loopback or a private address gets no tunnel") {
  requireTargets();
  const Targets& t = targets();
  const std::string port = std::to_string(t.tls.port);
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    checkDenied(attempt(r, {"connect-refused", "localhost", port}, {{"localhost:" + port}, &t.unreachable}),
                "localhost", t.tls.port, "loopback");
    // This machine's name, listed, with a host config that lists none of
    // its networks (the other cases' lists them, and may list loopback
    // where the name resolves there): its addresses are private or loopback.
    const Attempt own = attempt(r, {"connect-refused", t.host, port}, {{t.listed()}, &t.unreachable});
    checkDenied(own, t.host, t.tls.port, "");
    if (own.records && own.records->size() == 1) {
      const std::string why(own.records->front().at("reason").as_string());
      CHECK((why.find("private") != std::string::npos || why.find("loopback") != std::string::npos));
    }
  }
}
