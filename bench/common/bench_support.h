// What the benchmarks share: a quiet timed fork/exec, the median, and the
// raw bubblewrap command loopwright would run for a step (same planner, same
// seccomp filter on fd 4, same /etc files after it), so "raw bwrap" is measured with exactly our flags.
#pragma once

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/environment.h"
#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/bwrap/bwrap_plan.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::bench {

// What a bwrap command line expects open: the seccomp filter as fd 4 and
// the /etc files it copies as 5, 6, … (opened afresh for every run: bwrap
// reads each to its end).
struct ChildFds {
  int seccompFd = -1;
  std::vector<std::string> copiedFiles;
  std::vector<int> joinFds;  // cgroup.procs descriptors the child joins before its exec
};

// Runs argv with stdout/stderr to /dev/null, `fds` in place, and `env`
// (empty: this process's environment); returns the exit status and sets
// *ms to the start-to-exit time and *cpuMs (when given) to the CPU time,
// user + system, of the process and every descendant, orphans included.
inline int runQuiet(const std::vector<std::string>& argv, const std::vector<std::string>& env, const ChildFds& fds,
                    double* ms, double* cpuMs = nullptr) {
  const int seccompFd = fds.seccompFd;
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  // bwrap reads the filter from the current offset of a shared description.
  if (seccompFd >= 0) ::lseek(seccompFd, 0, SEEK_SET);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // orphans come here (see below); untimed, idempotent
  rusage before{};
  ::getrusage(RUSAGE_CHILDREN, &before);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    // First, before the descriptors below are put in place over them.
    for (int fd : fds.joinFds)
      if (::write(fd, "0", 1) != 1) ::_exit(126);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    // dup2 onto itself would keep close-on-exec: clear it instead.
    if (seccompFd == 4)
      ::fcntl(4, F_SETFD, 0);
    else if (seccompFd >= 0)
      ::dup2(seccompFd, 4);
    for (std::size_t i = 0; i < fds.copiedFiles.size(); ++i) {
      int fd = ::open(fds.copiedFiles[i].c_str(), O_RDONLY);
      if (fd != 5 + static_cast<int>(i)) ::dup2(fd, 5 + static_cast<int>(i));
    }
    if (env.empty())
      ::execv(args[0], args.data());
    else
      ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // The orphans too (bwrap's pid 1 outlives bwrap): this process is their
  // subreaper, so their time is in RUSAGE_CHILDREN once they are reaped.
  while (::waitpid(-1, nullptr, 0) > 0) {}
  rusage after{};
  ::getrusage(RUSAGE_CHILDREN, &after);
  auto toMs = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  };
  if (cpuMs != nullptr)
    *cpuMs = toMs(after.ru_utime) + toMs(after.ru_stime) - toMs(before.ru_utime) - toMs(before.ru_stime);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct RawBwrap {
  std::vector<std::string> argv;
  ChildFds fds;
};

// The bwrap command the linux-bwrap backend builds for `spec`, or nullopt
// when bwrap is missing or the plan fails.
inline std::optional<RawBwrap> planRawBwrap(const sandbox::StepSpec& spec) {
  auto config = sandbox::bwrap::bwrapConfigFor(Environment::fromProcess());
  if (config.bwrapPath.empty()) return std::nullopt;
  sandbox::seccomp::Options so;
  so.denyNewUnixSockets = true;
  auto filter = sandbox::seccomp::compile(sandbox::seccomp::buildPolicy(so));
  if (!filter) return std::nullopt;
  auto memfd = filter->toSealedMemfd();
  sandbox::bwrap::BwrapOptions bo;
  bo.bwrapPath = config.bwrapPath;
  bo.seccompFd = 4;
  bo.firstCopyFd = 5;
  auto plan = sandbox::bwrap::planBwrap(spec, bo, &sandbox::bwrap::lstatPath);
  if (!memfd || !plan) return std::nullopt;
  RawBwrap raw{plan->argv, {*memfd, {}, {}}};
  for (const auto& file : plan->copiedFiles) raw.fds.copiedFiles.push_back(file.string());
  return raw;
}

}  // namespace lw::bench
