// What the allow-list tests attack from inside a step (docs/egress.md), on
// this machine: its own name and addresses (not public, so a host config
// must list them for the proxy to connect), a TLS server for that name
// (`openssl s_server -www` with a certificate of its own), a plain HTTP
// server, and a listening host unix socket. Shared by the run test
// (tests/integration/pipeline/egress_run_test.cpp) and the escape suite's
// `sandbox exec` cases (tests/escape/escape_egress_test.cpp).
#pragma once

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

namespace lw::test::egress {

inline int shell(const std::string& command) { return std::system(command.c_str()); }

inline std::string shellOutput(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

inline std::string hostName() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

// The addresses `name` resolves to, as host-config networks.
inline std::vector<std::string> addressesOf(const std::string& name) {
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

// An IPv4 address of this machine's own interfaces other than loopback,
// where the test's servers listen too: a step with a route out would reach
// it. Empty when there is none.
inline std::string interfaceAddress() {
  std::istringstream interfaces(shellOutput("hostname -I"));
  for (std::string a; interfaces >> a;)
    if (a.find(':') == std::string::npos && a.rfind("127.", 0) != 0) return a;
  return "";
}

inline unsigned short freePort() {
  int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  socklen_t len = sizeof a;
  REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  ::close(s);
  return ntohs(a.sin_port);
}

// Waits until `probe` (a shell command) succeeds, for up to 4 s.
inline void waitFor(const std::string& probe) {
  for (int i = 0; i < 200 && shell(probe) != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// `openssl s_server -www` for `name` on every address, at a free port.
struct TlsServer {
  unsigned short port = freePort();
  std::filesystem::path cert;
  std::string pid;
  TlsServer(const std::filesystem::path& dir, const std::string& name) : cert(dir / "cert.pem") {
    const std::string key = (dir / "key.pem").string();
    REQUIRE(shell("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout '" + key +
                  "' -out '" + cert.string() + "' -days 1 -subj /CN=" + name + " -addext subjectAltName=DNS:" + name +
                  " 2>/dev/null") == 0);
    pid = shellOutput("openssl s_server -accept " + std::to_string(port) + " -cert '" + cert.string() + "' -key '" +
                      key + "' -www -quiet >/dev/null 2>&1 & echo $!");
    waitFor("curl -s -o /dev/null --cacert '" + cert.string() + "' https://" + name + ":" + std::to_string(port) + "/");
  }
  ~TlsServer() { shell("kill " + pid); }
};

// A plain HTTP server on every address at a free port, answering 200.
struct HttpServer {
  unsigned short port = freePort();
  std::string pid;
  explicit HttpServer(const std::filesystem::path& dir) {
    pid = shellOutput("python3 -m http.server " + std::to_string(port) + " --bind 0.0.0.0 --directory '" +
                      dir.string() + "' >/dev/null 2>&1 & echo $!");
    waitFor("curl -s -o /dev/null http://127.0.0.1:" + std::to_string(port) + "/");
  }
  ~HttpServer() { shell("kill " + pid); }
};

// A listening unix socket on the host, outside every view but the host's.
struct HostSocket {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  explicit HostSocket(const std::filesystem::path& path) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    REQUIRE(path.string().size() < sizeof a.sun_path);
    std::strcpy(a.sun_path, path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    ::chmod(path.c_str(), 0777);
    REQUIRE(::listen(fd, 4) == 0);
  }
  ~HostSocket() { ::close(fd); }
};

}  // namespace lw::test::egress
