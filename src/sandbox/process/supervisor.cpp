#include "sandbox/process/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace lw::sandbox::process::detail {
namespace {

void sendMessage(int fd, int kind, int value, int extra) {
  SupervisorMessage m{kind, value, extra};
  // MSG_NOSIGNAL: the orchestrator may be gone; that must not kill us.
  while (::send(fd, &m, sizeof m, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

[[noreturn]] void failChild(int errorPipe, int step, int err, int candidate = -1) {
  ChildFailure f{step, err, candidate};
  while (::write(errorPipe, &f, sizeof f) < 0 && errno == EINTR) {}
  ::_exit(127);
}

// The orchestrator may ignore or block signals (SIGPIPE is commonly
// ignored); a step must start with default dispositions and an empty mask.
void resetSignals() {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    ::sigaction(sig, &dfl, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Marks every descriptor from `first` up close-on-exec. close_range needs
// Linux 5.11; older kernels get the slow loop.
void cloexecFrom(int first) {
  if (::syscall(SYS_close_range, static_cast<unsigned>(first), ~0U, CLOSE_RANGE_CLOEXEC) == 0) {
    return;
  }
  struct rlimit rl {};
  long max =
      (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) ? static_cast<long>(rl.rlim_cur) : 65536;
  for (long fd = first; fd < max; ++fd) ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
}

// The command's search, here in the step's view (after its sandbox is
// applied): glibc's execvp goes on after exactly these errors, and so does
// bubblewrap's search inside its view, so every backend picks the same file.
bool searchGoesOn(int err) {
  return err == ENOENT || err == EACCES || err == ENOTDIR || err == ESTALE || err == ENODEV || err == ETIMEDOUT;
}

[[noreturn]] void execFirstRunnable(const ExecPlan& p, int errorPipe) {
  bool refused = false;
  for (std::size_t i = 0; i < p.candidateCount; ++i) {
    ::execve(p.candidates[i], p.argv, p.envp);
    int e = errno;
    if (!searchGoesOn(e)) failChild(errorPipe, kStepExec, e, static_cast<int>(i));
    refused = refused || e == EACCES;
  }
  failChild(errorPipe, kStepCommandNotFound, refused ? EACCES : ENOENT);
}

[[noreturn]] void runStep(const ExecPlan& p, pid_t supervisor) {
  // Move every source out of the 0..3 range first so that dup2 below cannot
  // clobber one source with another.
  int in = ::fcntl(p.stdinFd, F_DUPFD_CLOEXEC, 10);
  int out = ::fcntl(p.stdoutFd, F_DUPFD_CLOEXEC, 10);
  int err = ::fcntl(p.stderrFd, F_DUPFD_CLOEXEC, 10);
  int pass = p.passFd >= 0 ? ::fcntl(p.passFd, F_DUPFD_CLOEXEC, 10) : -1;
  int extra[kMaxExtraFds];
  for (std::size_t i = 0; i < p.extraCount; ++i) extra[i] = ::fcntl(p.extraFds[i], F_DUPFD_CLOEXEC, 10);
  int errorPipe = ::fcntl(p.errorPipe, F_DUPFD_CLOEXEC, 10);
  if (errorPipe < 0) ::_exit(127);
  if (in < 0 || out < 0 || err < 0 || (p.passFd >= 0 && pass < 0)) {
    failChild(errorPipe, kStepDescriptors, errno);
  }
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 || (pass >= 0 && ::dup2(pass, 3) < 0)) {
    failChild(errorPipe, kStepDescriptors, errno);
  }
  for (std::size_t i = 0; i < p.extraCount; ++i) {
    if (extra[i] < 0 || ::dup2(extra[i], 4 + static_cast<int>(i)) < 0) {
      failChild(errorPipe, kStepDescriptors, errno);
    }
  }
  if (pass < 0) ::close(3);  // no bridge: fd 3 must not be a leftover
  int firstUnused = p.extraCount > 0 ? 4 + static_cast<int>(p.extraCount) : (pass >= 0 ? 4 : 3);
  cloexecFrom(firstUnused);

  if (::setsid() < 0) failChild(errorPipe, kStepSession, errno);
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) failChild(errorPipe, kStepDeathSignal, errno);
  // The supervisor died before prctl. (A pid namespace's init sees no parent.)
  if (!p.stepIsInit && ::getppid() != supervisor) ::_exit(127);
  if (p.cwd != nullptr && ::chdir(p.cwd) != 0) failChild(errorPipe, kStepWorkdir, errno);
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    failChild(errorPipe, kStepNoNewPrivileges, errno);
  }
  for (std::size_t i = 0; i < p.setupCount; ++i) {
    int e = p.setups[i].run ? p.setups[i].run() : 0;
    if (e != 0) failChild(errorPipe, static_cast<int>(i), e);
  }
  execFirstRunnable(p, errorPipe);
}

// An exited child not reaped yet. waitid needs no descriptor: a step may
// have set our RLIMIT_NOFILE to 0.
bool isZombie(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 &&
         info.si_pid == pid;
}

// /proc/self/task/<tid>/children, opened before the step starts: a step
// that sets its supervisor's RLIMIT_NOFILE to 0 must not stop the listing.
int openChildrenList() {
  char path[64];
  {
    const char prefix[] = "/proc/self/task/";
    std::size_t n = 0;
    for (const char* c = prefix; *c != '\0'; ++c) path[n++] = *c;
    char digits[16];
    int d = 0;
    for (long v = ::getpid(); v > 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
    while (d > 0) path[n++] = digits[--d];
    for (const char* c = "/children"; *c != '\0'; ++c) path[n++] = *c;
    path[n] = '\0';
  }
  return ::open(path, O_RDONLY | O_CLOEXEC);
}

// Kills and reaps every process re-parented to this subreaper, listed by
// re-reading `childrenList` from its start (a seq_file regenerates it).
// Returns how many were still running (zombies that exited on their own do
// not count).
int killRemainingChildren(int childrenList) {
  constexpr int kSeenMax = 4096;
  pid_t seen[kSeenMax];
  int seenCount = 0;
  int killed = 0;
  for (;;) {
    char buf[4096];
    int fd = childrenList >= 0 ? childrenList : openChildrenList();
    ssize_t len = fd >= 0 ? ::pread(fd, buf, sizeof buf, 0) : 0;
    if (fd >= 0 && fd != childrenList) ::close(fd);
    if (len < 0) len = 0;
    int listed = 0;
    long cur = 0;
    bool inNumber = false;
    for (ssize_t i = 0; i <= len; ++i) {
      if (i < len && buf[i] >= '0' && buf[i] <= '9') {
        cur = cur * 10 + (buf[i] - '0');
        inNumber = true;
        continue;
      }
      if (!inNumber) continue;
      // A number cut off by the buffer end is ignored; the next pass lists it.
      if (i == len && len == static_cast<ssize_t>(sizeof buf)) break;
      pid_t child = static_cast<pid_t>(cur);
      bool known = false;
      for (int s = 0; s < seenCount; ++s) known = known || seen[s] == child;
      if (!known) {
        if (seenCount < kSeenMax) seen[seenCount++] = child;
        if (!isZombie(child)) ++killed;
      }
      ::kill(child, SIGKILL);
      ++listed;
      cur = 0;
      inNumber = false;
    }
    int status = 0;
    if (listed > 0) {
      ::waitpid(-1, &status, __WALL);
      continue;
    }
    pid_t r = ::waitpid(-1, &status, WNOHANG | __WALL);
    if (r < 0 && errno == ECHILD) break;
    if (r == 0) {
      // A child exists that the list did not show yet (re-parenting races
      // the read): look again shortly.
      struct timespec ts {
        0, 1000000
      };
      ::nanosleep(&ts, nullptr);
    }
  }
  return killed;
}

// gVisor (Debian 12's runsc) lets only its pid namespace's init be a
// subreaper and refuses anyone else with EINVAL. Where that init is our
// parent (a step's own agent spawning, as builtin/reproduce does), every
// orphan of the tree re-parents to it anyway, and it sweeps them after our
// report (kStarted's extra, spawn.cpp): the caller then goes on without us
// being one.
bool becomeSubreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }

}  // namespace

const char* stepName(int step) {
  switch (step) {
    case kStepDescriptors: return "arranging file descriptors";
    case kStepSession: return "setsid";
    case kStepNoNewPrivileges: return "prctl(PR_SET_NO_NEW_PRIVS)";
    case kStepWorkdir: return "chdir to the working directory";
    case kStepExec: return "execve";
    case kStepDeathSignal: return "prctl(PR_SET_PDEATHSIG)";
    case kStepCommandNotFound: return "finding the command";
    default: return "child setup";
  }
}

namespace {

[[noreturn]] void reportSetupFailure(int control, int err, int setup) {
  sendMessage(control, kForkFailed, err, setup);
  ::_exit(127);
}

// Makes this process the tree's subreaper. Returns whether orphans
// re-parent to our parent instead (gVisor's init, see becomeSubreaper);
// exits on any other failure.
bool becomeTreeReaper(int control) {
  resetSignals();
  struct sigaction ign {};
  ign.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ign, nullptr);
  // Orphans anywhere below re-parent to us, so the step cannot hide a
  // daemon from the cleanup by double-forking.
  const bool orphansToParent = !becomeSubreaper();
  if (orphansToParent && (errno != EINVAL || ::getppid() != 1)) reportSetupFailure(control, errno, 0);
  return orphansToParent;
}

void runSupervisorSetups(const ExecPlan& p) {
  for (std::size_t i = 0; i < p.supervisorSetupCount; ++i) {
    int err = p.supervisorSetups[i].run ? p.supervisorSetups[i].run() : 0;
    if (err != 0) reportSetupFailure(p.control, err, static_cast<int>(i) + 1);
  }
}

struct KeptDescriptors {
  int control = -1;
  int children = -1;  // the children list, or -1
};

// Only the control socket (and the children list) are needed once the step
// runs; holding other descriptors (another step's pipes inherited through
// fork) would keep their readers from seeing EOF.
KeptDescriptors closeAllBut(int controlFd, int childrenList) {
  int control = ::fcntl(controlFd, F_DUPFD_CLOEXEC, 3);
  if (control < 0) control = controlFd;
  int children = ::fcntl(childrenList, F_DUPFD_CLOEXEC, control + 1);
  if (children < 0) children = control;  // nothing to keep above control then
  for (int fd = 0; fd < 3; ++fd) ::close(fd);
  ::syscall(SYS_close_range, 3U, static_cast<unsigned>(control - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(control + 1), static_cast<unsigned>(children - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(children + 1), ~0U, 0U);
  return {control, children == control ? -1 : children};
}

// Waits until the step exits, or kills it when the control socket asks (or
// reaches EOF: the orchestrator went away). Returns its wait status.
int waitForStep(int control, pid_t child) {
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
  int status = 0;
  for (bool reaped = false; !reaped;) {
    struct pollfd fds[2] = {{control, POLLIN, 0}, {pidfd, POLLIN, 0}};
    int n = ::poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 10);
    if (n < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, __WALL);
      break;
    }
    if (pidfd < 0 || fds[1].revents != 0) {
      pid_t r = ::waitpid(child, &status, pidfd >= 0 ? __WALL : (WNOHANG | __WALL));
      reaped = r == child;
    }
  }
  return status;
}

}  // namespace

void runSupervisor(const ExecPlan& p) {
  const bool orphansToParent = becomeTreeReaper(p.control);
  pid_t self = ::getpid();
  const int childrenList = openChildrenList();
  runSupervisorSetups(p);
  pid_t child = ::fork();
  if (child < 0) reportSetupFailure(p.control, errno, 0);
  if (child == 0) {
    struct sigaction dflPipe {};
    dflPipe.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &dflPipe, nullptr);
    ::close(p.control);
    runStep(p, self);
  }
  const KeptDescriptors kept = closeAllBut(p.control, childrenList);
  sendMessage(kept.control, kStarted, child, orphansToParent ? 1 : 0);
  const int status = waitForStep(kept.control, child);
  int killed = killRemainingChildren(kept.children);
  // Unread data in our receive queue would turn into ECONNRESET on the
  // orchestrator's side when we exit, losing the report: consume it first.
  char drain[16];
  while (::recv(kept.control, drain, sizeof drain, MSG_DONTWAIT) > 0) {}
  sendMessage(kept.control, kFinished, status, killed);
  ::_exit(0);
}

}  // namespace lw::sandbox::process::detail
