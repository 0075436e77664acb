#include "sandbox/process/unsupervised_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/unique_fd.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/orphan_sweep.h"
#include "sandbox/process/piped_process.h"
#include "sandbox/process/vfork_exec.h"

namespace lw::sandbox::process {
namespace {

using Clock = std::chrono::steady_clock;

// The launcher's end comes on its pidfd; a kill is SIGKILL to the launcher
// (bubblewrap then takes its pid namespace down with it).
class LauncherProcess final : public PipedProcess {
 public:
  LauncherProcess(pid_t pid, UniqueFd pidfd, UniqueFd out, UniqueFd err, const SpawnRequest& req,
                  Clock::time_point started)
      : PipedProcess(std::move(out), std::move(err), req, started), pid_(pid), pidfd_(std::move(pidfd)) {}
  ~LauncherProcess() override { killIfRunning(); }

  int pid() const override { return pid_; }

 private:
  int endFd() const override { return pidfd_.get(); }

  void collectEnd(ExitInfo& info) override {
    int status = reap();
    if (WIFEXITED(status)) info.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) info.signal = WTERMSIG(status);
  }

  void sendKill() override {
    if (!reaped_) ::kill(pid_, SIGKILL);  // not reaped: the pid is still ours
  }

  void release() override {
    if (!reaped_) {
      ::kill(pid_, SIGKILL);
      reap();
    }
    pidfd_.reset();
  }

  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
    forgetOwnChild(pid_);
    reaped_ = true;
    return status;
  }

  pid_t pid_;
  UniqueFd pidfd_;
  bool reaped_ = false;
};

// The child's fds: 0-2, the bridge at 3, the launcher's own from 4 (the
// same layout as spawn()), as {source, target} pairs.
std::vector<std::pair<int, int>> childLayout(const SpawnRequest& req, int stdinFd, int outW, int errW) {
  std::vector<std::pair<int, int>> layout = {{stdinFd, 0}, {outW, 1}, {errW, 2}};
  if (req.passFd) layout.push_back({*req.passFd, 3});
  for (std::size_t i = 0; i < req.extraFds.size(); ++i) layout.push_back({req.extraFds[i], 4 + static_cast<int>(i)});
  return layout;
}

// Sources are first moved above every target so that no dup2 overwrites a
// source another still needs; they are close-on-exec here and so in the
// child. `lifted` owns the copies until the child has its own. Returns 0 or
// the errno of the copy that failed.
int liftIntoPlan(const std::vector<std::pair<int, int>>& layout, VforkPlan& plan, std::vector<UniqueFd>& lifted) {
  for (const auto& [source, target] : layout) {
    lifted.emplace_back(::fcntl(source, F_DUPFD_CLOEXEC, plan.firstUnused + 16));
    if (!lifted.back()) return errno;
    plan.layout.push_back({lifted.back().get(), target});
  }
  return 0;
}

// vfork + exec of the plan, the child registered as loopwright's own (so
// that a sweep never takes it for a stray) and watched through a pidfd.
Result<std::pair<pid_t, UniqueFd>> startLauncher(const VforkPlan& plan, const SpawnRequest& req,
                                                 const std::string& path) {
  pid_t pid = -1;
  {
    auto guard = ownChildGuard();
    VforkFailure failure;
    pid = vforkExec(plan, failure);
    if (pid < 0) {
      std::string what = failure.step >= 0 ? req.childSetup[static_cast<std::size_t>(failure.step)].what
                                           : std::string(failure.what ? failure.what : "starting");
      if (what == "execve") what += " " + path;
      return launchError(what, failure.err, req.argv[0]);
    }
    registerOwnChild(pid);
  }
  UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd) {
    int e = errno;
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
    forgetOwnChild(pid);
    return launchError("pidfd_open", e, req.argv[0]);
  }
  return std::pair<pid_t, UniqueFd>{pid, std::move(pidfd)};
}

}  // namespace

Result<std::unique_ptr<RunningProcess>> spawnSelfCleaningLauncher(const SpawnRequest& req) {
  const Clock::time_point started = Clock::now();
  if (req.argv.empty())
    return makeError(ErrorCode::SandboxLaunchFailed, "no command to run", "give the step a command");
  auto path = resolveExecutable(req.argv[0], req.env);
  if (!path) return commandNotFound(req.argv[0], stepPathOf(req.env), ENOENT);

  ExecStrings argv(req.argv);
  ExecStrings envp = ExecStrings::environment(req.env);

  UniqueFd outR, outW, errR, errW;
  if (!makePipe(outR, outW) || !makePipe(errR, errW)) return launchError("pipe", errno, req.argv[0]);
  UniqueFd devNull;
  if (!req.stdinFd) {
    devNull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!devNull) return launchError("open /dev/null", errno, req.argv[0]);
  }
  VforkPlan plan;
  plan.path = path->c_str();
  plan.argv = argv.get();
  plan.envp = envp.get();
  plan.firstUnused = req.extraFds.empty() ? (req.passFd ? 4 : 3) : 4 + static_cast<int>(req.extraFds.size());
  plan.closeThree = !req.passFd && !req.extraFds.empty();  // no leftover between 2 and 4
  plan.cwd = req.cwd.empty() ? nullptr : req.cwd.c_str();
  plan.setups = &req.childSetup;
  std::vector<UniqueFd> lifted;
  const auto layout = childLayout(req, req.stdinFd.value_or(devNull.get()), outW.get(), errW.get());
  if (int err = liftIntoPlan(layout, plan, lifted); err != 0)
    return launchError("arranging file descriptors", err, req.argv[0]);
  auto launcher = startLauncher(plan, req, *path);
  if (!launcher) return std::move(launcher).error();
  for (UniqueFd* f : {&outR, &errR}) ::fcntl(f->get(), F_SETFL, O_NONBLOCK);
  return std::unique_ptr<RunningProcess>(std::make_unique<LauncherProcess>(
      launcher->first, std::move(launcher->second), std::move(outR), std::move(errR), req, started));
}

}  // namespace lw::sandbox::process
