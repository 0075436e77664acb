// The local Kubernetes API server in a process of its own, for the tests that
// fork (claimants, `loopwright run`). A child forked from a process whose
// server thread holds an allocator lock at that moment (ASan's, glibc's)
// deadlocks on its first malloc: seen in 3 of 8 concurrent runs of the lease
// race test with the server as a thread of the test. With the server here,
// the test's own process has no other thread when it forks.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/local_k8s_server.h"

namespace lw::test {

// What the server saw, read when it stops (before its pods are killed).
struct K8sServerReport {
  std::vector<std::string> violations;   // as LocalK8sServer::violations
  std::vector<std::string> requests;     // as LocalK8sServer::requests
  std::vector<std::string> createdPods;  // as LocalK8sServer::createdPods
  std::size_t livePodProcesses = 0;
};

class K8sServerProcess {
 public:
  // `setup` runs in the server's process before it serves: objects to put,
  // behaviours to switch.
  explicit K8sServerProcess(const std::function<void(LocalK8sServer&)>& setup = {}) {
    int up[2];
    int down[2];
    REQUIRE(::pipe(up) == 0);
    REQUIRE(::pipe(down) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(up[0]);
      ::close(down[1]);  // else its own copy keeps the pipe from ever ending
      serveUntilClosed(up[1], down[0], setup);
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
    if (pid_ <= 0) return report_.violations;
    ::close(down_);
    const std::string all = readUntil(up_, '\0');
    ::close(up_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(all, ec);
    REQUIRE_MESSAGE(!ec, all);
    report_.violations = strings(v.at("violations"));
    report_.requests = strings(v.at("requests"));
    report_.createdPods = strings(v.at("createdPods"));
    report_.livePodProcesses = static_cast<std::size_t>(v.at("livePodProcesses").as_int64());
    return report_.violations;
  }
  // What the server saw; stops it first.
  const K8sServerReport& report() {
    (void)stop();
    return report_;
  }

 private:
  [[noreturn]] static void serveUntilClosed(int up, int down, const std::function<void(LocalK8sServer&)>& setup) {
    {
      LocalK8sServer server;
      if (setup) setup(server);
      writeAll(up, server.url() + "\n");
      char c = 0;
      while (::read(down, &c, 1) > 0) {}
      auto array = [](const std::vector<std::string>& v) { return boost::json::array(v.begin(), v.end()); };
      writeAll(up, boost::json::serialize(boost::json::object{
                       {"violations", array(server.violations())},
                       {"requests", array(server.requests())},
                       {"createdPods", array(server.createdPods())},
                       {"livePodProcesses", static_cast<std::int64_t>(server.livePodProcesses())}}));
    }
    ::_exit(0);
  }
  static std::vector<std::string> strings(const boost::json::value& v) {
    std::vector<std::string> out;
    for (const boost::json::value& s : v.as_array()) out.emplace_back(s.as_string());
    return out;
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
  K8sServerReport report_;
};

}  // namespace lw::test
