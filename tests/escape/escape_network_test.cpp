#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "escape/escape_common.h"

using namespace lw::escape;
namespace fs = std::filesystem;

namespace {

// A listening host socket, closed at scope end.
struct Listener {
  int fd = -1;
  int port = 0;
  ~Listener() {
    if (fd >= 0) ::close(fd);
  }
};

Listener unixListener(const std::string& name, bool abstract) {
  Listener l;
  l.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::size_t off = abstract ? 1 : 0;
  std::memcpy(a.sun_path + off, name.data(), name.size());
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + off + name.size());
  REQUIRE(::bind(l.fd, reinterpret_cast<sockaddr*>(&a), len) == 0);
  REQUIRE(::listen(l.fd, 4) == 0);
  return l;
}

Listener inetListener(int type) {
  Listener l;
  l.fd = ::socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  REQUIRE(::bind(l.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  if (type == SOCK_STREAM) REQUIRE(::listen(l.fd, 4) == 0);
  REQUIRE(::getsockname(l.fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  l.port = ntohs(a.sin_port);
  return l;
}

const char* kContainedModes[] = {"none", "loopback-only"};

}  // namespace

TEST_CASE("escape: host unix sockets, outside the view and planted inside the workspace") {
  for (const Runner& r : runners()) {
    for (const char* mode : kContainedModes) {
      CAPTURE(r.label());
      CAPTURE(mode);
      auto c = makeCase(r);
      fs::path outside = c->outside / "host.sock", inside = c->writable / "host.sock";
      Listener a = unixListener(outside.string(), false);
      Listener b = unixListener(inside.string(), false);
      ExecOptions o;
      o.network = mode;
      checkBlocked(sandboxExec(r, *c, {"unix", outside.string()}, o));
      checkBlocked(sandboxExec(r, *c, {"unix", inside.string()}, o));
    }
  }
}

TEST_CASE("escape: the host's abstract unix socket and TCP 127.0.0.1") {
  for (const Runner& r : runners()) {
    for (const char* mode : kContainedModes) {
      CAPTURE(r.label());
      CAPTURE(mode);
      auto c = makeCase(r);
      std::string name = "lw-escape-" + std::to_string(::getpid());
      Listener abs = unixListener(name, true);
      Listener tcp = inetListener(SOCK_STREAM);
      ExecOptions o;
      o.network = mode;
      checkBlocked(sandboxExec(r, *c, {"abstract", name}, o));
      checkBlocked(sandboxExec(r, *c, {"tcp", std::to_string(tcp.port)}, o));
      CHECK(::accept(tcp.fd, nullptr, nullptr) < 0);
    }
  }
}

TEST_CASE("escape: UDP out, and raw/netlink/packet sockets") {
  for (const Runner& r : runners()) {
    for (const char* mode : kContainedModes) {
      CAPTURE(r.label());
      CAPTURE(mode);
      auto c = makeCase(r);
      Listener udp = inetListener(SOCK_DGRAM);
      ExecOptions o;
      o.network = mode;
      checkBlocked(sandboxExec(r, *c, {"udp", std::to_string(udp.port)}, o));
      char buf[16];
      CHECK(::recv(udp.fd, buf, sizeof buf, MSG_DONTWAIT) < 0);
      checkBlocked(sandboxExec(r, *c, {"raw"}, o));
    }
  }
}

TEST_CASE("escape positive: a loopback server round trip works in loopback-only") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    ExecOptions o;
    o.network = "loopback-only";
    ExecResult res = sandboxExec(r, *c, {"loopback"}, o);
    CHECK_MESSAGE(res.status == 0, res.describe());
  }
}
