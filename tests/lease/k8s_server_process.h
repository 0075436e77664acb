// The local Kubernetes API server in a process of its own, for the tests that
// fork claimants. A child forked from a process whose server thread holds an
// allocator lock at that moment (ASan's, glibc's) deadlocks on its first
// malloc: seen in 3 of 8 concurrent runs of the race test with the server
// as a thread of the test. With the server here, the test's own process has
// no other thread when it forks.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "support/local_k8s_server.h"

namespace lw::lease::test {

class K8sServerProcess {
 public:
  K8sServerProcess() {
    int up[2];
    int down[2];
    REQUIRE(::pipe(up) == 0);
    REQUIRE(::pipe(down) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(up[0]);
      ::close(down[1]);  // else its own copy keeps the pipe from ever ending
      serveUntilClosed(up[1], down[0]);
    }
    ::close(up[1]);
    ::close(down[0]);
    up_ = up[0];
    down_ = down[1];
    url_ = readUntil(up_, '\n');
    REQUIRE(!url_.empty());
  }
  ~K8sServerProcess() { (void)stop(); }
  K8sServerProcess(const K8sServerProcess&) = delete;
  K8sServerProcess& operator=(const K8sServerProcess&) = delete;

  const std::string& url() const { return url_; }

  // Stops the server and returns the requests it saw that Kubernetes'
  // OpenAPI description refuses, one a line, as LocalK8sServer::violations.
  std::vector<std::string> stop() {
    if (pid_ <= 0) return violations_;
    ::close(down_);
    std::string all = readUntil(up_, '\0');
    ::close(up_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    std::size_t at = 0;
    for (std::size_t nl; (nl = all.find('\n', at)) != std::string::npos; at = nl + 1)
      violations_.push_back(all.substr(at, nl - at));
    return violations_;
  }

 private:
  [[noreturn]] static void serveUntilClosed(int up, int down) {
    {
      lw::test::LocalK8sServer server;
      writeAll(up, server.url() + "\n");
      char c = 0;
      while (::read(down, &c, 1) > 0) {}
      std::string all;
      for (const auto& v : server.violations()) all += v + "\n";
      writeAll(up, all);
    }
    ::_exit(0);
  }
  static void writeAll(int fd, const std::string& s) {
    for (std::size_t done = 0; done < s.size();) {
      ssize_t n = ::write(fd, s.data() + done, s.size() - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }
  // Reads up to `end` (not kept), or to end of file for '\0'.
  static std::string readUntil(int fd, char end) {
    std::string s;
    char c = 0;
    while (::read(fd, &c, 1) == 1) {
      if (end != '\0' && c == end) break;
      s.push_back(c);
    }
    return s;
  }

  pid_t pid_ = 0;
  int up_ = -1;
  int down_ = -1;
  std::string url_;
  std::vector<std::string> violations_;
};

}  // namespace lw::lease::test
