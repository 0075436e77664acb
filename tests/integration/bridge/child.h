// Runs a real process for the bridge tests: its stdin, stdout and stderr as
// pipes, optionally a descriptor passed as fd 3 (the step's bridge end), and
// a bounded wait so that a hanging relay fails the test instead of hanging it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace lw::test {

struct Child {
  pid_t pid = -1;
  int in = -1;   // write end of its stdin
  int out = -1;  // read end of its stdout
  int err = -1;  // read end of its stderr
};

inline Child startChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                        int fd3 = -1) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return {};
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : env) envStrings.push_back(k + "=" + v);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : envStrings) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    if (fd3 >= 0) {
      if (fd3 == 3)
        ::fcntl(3, F_SETFD, 0);
      else
        ::dup2(fd3, 3);
    }
    ::execve(cargv[0], cargv.data(), cenv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  return Child{pid, in[1], out[0], err[0]};
}

inline void writeAllTo(int fd, const std::string& data) {
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

// Reads fd until EOF or the deadline.
inline std::string readUntilEof(int fd, std::chrono::seconds limit = std::chrono::seconds(60)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  std::string data;
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return data;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n <= 0) return data;
    data.append(buf, static_cast<std::size_t>(n));
  }
}

// The exit status, or -1 after killing it when it did not end in time.
inline int waitChild(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(60)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace lw::test
