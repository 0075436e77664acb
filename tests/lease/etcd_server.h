// A real etcd for the lease tests of one test binary: started on first use
// on free loopback ports with a scratch data directory, killed when the
// binary exits. Each test works under a prefix of its own, so tests share
// the server and never see each other's keys.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/http_curl.h"
#include "lease/etcd_messages.h"
#include "support/host_requirement.h"
#include "support/temp_dir.h"

namespace lw::lease::test {

// A loopback port nobody listens on now (the kernel's choice; etcd binds it
// a moment later).
inline int freeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// The `etcd` binary on PATH, or "".
inline std::string etcdBinary() {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/etcd";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

class EtcdServer {
 public:
  // The server of this binary, or nullptr when there is none (why: `failure()`).
  static EtcdServer* shared() {
    static EtcdServer server;
    return server.pid_ > 0 ? &server : nullptr;
  }
  static const std::string& failure() { return failure_; }

  const std::string& endpoint() const { return endpoint_; }

  // A key prefix no other test in this binary uses.
  std::string freshPrefix(const std::string& name) {
    return "/lw-test/" + name + "-" + std::to_string(++prefixes_) + "/";
  }

  ~EtcdServer() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }

 private:
  EtcdServer() {
    std::string binary = etcdBinary();
    if (binary.empty()) {
      failure_ = "etcd is not installed (Debian: apt-get install etcd-server)";
      return;
    }
    const std::string client = "http://127.0.0.1:" + std::to_string(freeLoopbackPort());
    const std::string peer = "http://127.0.0.1:" + std::to_string(freeLoopbackPort());
    endpoint_ = client;
    start(binary, client, peer);
    if (pid_ > 0 && !answers()) {
      failure_ = "etcd did not answer at " + client + " within 20 s (log: " + (dir_.root / "etcd.log").string() + ")";
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

  void start(const std::string& binary, const std::string& client, const std::string& peer) {
    std::vector<std::string> argv = {binary,
                                     "--name=lwtest",
                                     "--data-dir=" + (dir_.root / "data").string(),
                                     "--listen-client-urls=" + client,
                                     "--advertise-client-urls=" + client,
                                     "--listen-peer-urls=" + peer,
                                     "--initial-advertise-peer-urls=" + peer,
                                     "--initial-cluster=lwtest=" + peer,
                                     "--log-level=error"};
    std::string log = (dir_.root / "etcd.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> args;
      for (std::string& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(binary.c_str(), args.data());
      ::_exit(127);
    }
    if (pid_ < 0) failure_ = "fork failed";
  }

  // Whether a range is answered before 20 s pass (etcd elects itself first).
  bool answers() const {
    http::CurlTransport transport{http::Policy{}};
    http::Request probe;
    probe.method = "POST";
    probe.url = endpoint_ + "/v3/kv/range";
    probe.body = etcd::rangeKeyBody("/probe");
    probe.timeout = std::chrono::milliseconds(1000);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (transport.send(probe).status == 200) return true;
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return false;  // it exited
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  lw::test::TempDir dir_;
  std::string endpoint_;
  pid_t pid_ = -1;
  int prefixes_ = 0;
  static inline std::string failure_;
};

}  // namespace lw::lease::test

// Declares `etcdServer` (EtcdServer&), or skips the test with the reason
// (a failure under CI=true: etcd is installed there).
#define LW_REQUIRE_ETCD(etcdServer)                                                      \
  auto* etcdServer##Ptr = ::lw::lease::test::EtcdServer::shared();                       \
  LW_REQUIRE_HOST(etcdServer##Ptr != nullptr, ::lw::lease::test::EtcdServer::failure()); \
  auto& etcdServer = *etcdServer##Ptr
