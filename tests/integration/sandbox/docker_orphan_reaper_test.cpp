// The container watchdog against a local unix socket standing in for the
// engine: real fork, real pipe, real socket; no Docker needed.
#include <doctest/doctest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "sandbox/docker/orphan_reaper.h"

using lw::sandbox::docker::OrphanReaper;
namespace fs = std::filesystem;

namespace {

struct FakeSocket {
  fs::path dir;
  fs::path path;
  int fd = -1;
  FakeSocket() {
    std::string tmpl = (fs::temp_directory_path() / "lw-reaper-XXXXXX").string();
    dir = ::mkdtemp(tmpl.data());
    path = dir / "engine.sock";
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strcpy(addr.sun_path, path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd, 4) == 0);
  }
  ~FakeSocket() {
    ::close(fd);
    fs::remove_all(dir);
  }
  // Accepts one connection (bounded wait), answers 204, returns the request.
  std::string serveOne(int timeoutSeconds) {
    timeval tv{timeoutSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const int c = ::accept(fd, nullptr, nullptr);
    if (c < 0) return {};
    char buf[1024];
    const ssize_t n = ::read(c, buf, sizeof buf);
    const char reply[] = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
    (void)!::send(c, reply, sizeof reply - 1, MSG_NOSIGNAL);
    ::close(c);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  }
};

}  // namespace

TEST_CASE("docker watchdog: when its owner goes without a word, it force-removes the container") {
  FakeSocket engine;
  std::string first, second;
  std::thread server([&] {
    first = engine.serveOne(10);
    second = engine.serveOne(10);
  });
  const auto start = std::chrono::steady_clock::now();
  {
    auto reaper = OrphanReaper::watch(engine.path.string(), "lw-run-step-abcd");
    REQUIRE(reaper.ok());
    CHECK(reaper->pid() > 0);
  }  // destroyed without containerRemoved(): like a process that died
  // The destructor waited for the watchdog, which asked twice, 2 s apart: a
  // guard against a hang only, at ten times that.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  server.join();
  CHECK(first.rfind("DELETE /v1.41/containers/lw-run-step-abcd?force=1&v=1 HTTP/1.1\r\n", 0) == 0);
  CHECK(second == first);
}

TEST_CASE("docker watchdog: told the container is gone, it leaves quietly") {
  FakeSocket engine;
  const auto start = std::chrono::steady_clock::now();
  {
    auto reaper = OrphanReaper::watch(engine.path.string(), "lw-run-step-abcd");
    REQUIRE(reaper.ok());
    reaper->containerRemoved();
  }
  // What is observed is the silence below. The watchdog pauses 2 s between
  // its two asks, so a destructor that let it ask would take 2 s or more;
  // leaving takes a fork and an exit (milliseconds), and 1 s is only a guard
  // against a hang, at over ten times that.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK(engine.serveOne(1).empty());
}

TEST_CASE("docker watchdog: a socket path too long for sockaddr_un is refused") {
  auto reaper = OrphanReaper::watch("/" + std::string(200, 'a'), "x");
  REQUIRE(!reaper.ok());
  CHECK(reaper.error().code == lw::ErrorCode::SandboxLaunchFailed);
}
