#include "sandbox/process/vfork_exec.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace lw::sandbox::process {
namespace {

constexpr std::size_t kStackBytes = 256 * 1024;
constexpr unsigned kCloseRangeCloexec = 1u << 2;  // CLOSE_RANGE_CLOEXEC, Linux 5.11

struct ChildContext {
  const VforkPlan* plan;
  VforkFailure* failure;  // written by the child, read once it has exec'd or died
};

// The kernel's struct sigaction: glibc's sigaction refuses its own two
// internal signals (32, 33), which must be reset like every other.
struct KernelSigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  unsigned long mask;
};

__attribute__((no_sanitize("address"))) int fail(ChildContext* c, int step, const char* what) {
  c->failure->step = step;
  c->failure->err = errno;
  c->failure->what = what;
  _exit(127);
}

// Not instrumented: its frame lives on a stack ASan does not know, and the
// exec never returns to unpoison it.
__attribute__((no_sanitize("address"))) int child(void* arg) {
  auto* c = static_cast<ChildContext*>(arg);
  const VforkPlan& p = *c->plan;
  // A handler of the parent's must never run here, on its memory.
  KernelSigaction dfl{SIG_DFL, 0, nullptr, 0};
  for (int sig = 1; sig < 65; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) syscall(SYS_rt_sigaction, sig, &dfl, nullptr, 8);
  for (const auto& [source, target] : p.layout)
    if (dup2(source, target) < 0) return fail(c, -1, "arranging file descriptors");
  if (p.closeThree) close(3);
  if (syscall(SYS_close_range, static_cast<unsigned>(p.firstUnused), ~0u, kCloseRangeCloexec) != 0)
    return fail(c, -1, "close_range");
  if (setsid() < 0) return fail(c, -1, "setsid");
  if (p.cwd != nullptr && chdir(p.cwd) != 0) return fail(c, -1, "chdir");
  const std::vector<ChildSetup>& setups = *p.setups;
  for (std::size_t i = 0; i < setups.size(); ++i) {
    int err = setups[i].run ? setups[i].run() : 0;
    if (err != 0) {
      errno = err;
      return fail(c, static_cast<int>(i), nullptr);
    }
  }
  unsigned long none = 0;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof none);
  execve(p.path, p.argv, p.envp);
  return fail(c, -1, "execve");
}

}  // namespace

pid_t vforkExec(const VforkPlan& plan, VforkFailure& failure) {
  static const std::vector<ChildSetup> kNone;
  VforkPlan p = plan;
  if (p.setups == nullptr) p.setups = &kNone;
  void* stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    failure = {-1, errno, "mmap of the child's stack"};
    return -1;
  }
  ChildContext context{&p, &failure};
  failure = {};
  // Every signal blocked (glibc's two internal ones too: sigfillset leaves
  // them out) until the child has reset its dispositions.
  unsigned long all = ~0UL, saved = 0;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &saved, sizeof all);
  pid_t pid = clone(child, static_cast<char*>(stack) + kStackBytes, CLONE_VM | CLONE_VFORK | SIGCHLD, &context);
  int cloneErr = errno;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved, nullptr, sizeof saved);
  munmap(stack, kStackBytes);
  if (pid < 0) {
    failure = {-1, cloneErr, "clone"};
    return -1;
  }
  if (failure.err != 0) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
    return -1;
  }
  return pid;
}

}  // namespace lw::sandbox::process
