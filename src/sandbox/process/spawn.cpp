#include "sandbox/process/spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/process/capture.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/fd.h"
#include "sandbox/process/supervisor.h"

namespace lw::sandbox::process {
namespace {

using Clock = std::chrono::steady_clock;

Error launchError(const std::string& what, int err, const std::string& subject) {
  return makeError(ErrorCode::SandboxLaunchFailed,
                   what + " failed: " + std::strerror(err), "", subject);
}

bool readMessage(int fd, detail::SupervisorMessage& m) {
  for (;;) {
    ssize_t r = ::recv(fd, &m, sizeof m, 0);
    if (r == static_cast<ssize_t>(sizeof m)) return true;
    if (r < 0 && errno == EINTR) continue;
    return false;
  }
}

class SupervisedProcess final : public RunningProcess {
 public:
  SupervisedProcess(pid_t supervisor, pid_t pid, Fd control, Fd out, Fd err,
                    const SpawnRequest& req, Clock::time_point started)
      : supervisor_(supervisor),
        pid_(pid),
        control_(std::move(control)),
        out_(std::move(out)),
        err_(std::move(err)),
        outCapture_(req.maxOutputBytes, 1, req.onOutput),
        errCapture_(req.maxOutputBytes, 2, req.onOutput),
        started_(started) {}

  ~SupervisedProcess() override {
    if (!finished_) kill();
  }

  int pid() const override { return pid_; }

  ExitInfo wait(std::optional<Clock::time_point> deadline) override {
    run(deadline);
    return info_;
  }

  void kill() override {
    requestKill();
    run(std::nullopt);
  }

  const CapturedStream& stdoutData() const override { return outCapture_.stream(); }
  const CapturedStream& stderrData() const override { return errCapture_.stream(); }

 private:
  void requestKill() {
    if (killRequested_ || finished_) return;
    killRequested_ = true;
    char k = 'k';
    ::send(control_.get(), &k, 1, MSG_NOSIGNAL);
  }

  void run(std::optional<Clock::time_point> deadline) {
    if (finished_) return;
    bool gotFinish = false;
    // After the tree is gone every writer is closed, so EOF comes at once;
    // the grace only guards against a descriptor leaked outside the tree.
    std::optional<Clock::time_point> drainUntil;
    while (true) {
      if (gotFinish && !out_ && !err_) break;
      Clock::time_point now = Clock::now();
      if (gotFinish && drainUntil && now >= *drainUntil) break;
      if (!gotFinish && deadline && now >= *deadline && !killRequested_) {
        info_.timedOut = true;
        requestKill();
      }
      int timeout = -1;
      auto until = gotFinish ? drainUntil : (killRequested_ ? std::nullopt : deadline);
      if (until) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*until - now).count();
        timeout = static_cast<int>(std::max<long long>(0, ms) + 1);
      }
      struct pollfd fds[3];
      int n = 0;
      int outIdx = -1, errIdx = -1, ctlIdx = -1;
      if (out_) { outIdx = n; fds[n++] = {out_.get(), POLLIN, 0}; }
      if (err_) { errIdx = n; fds[n++] = {err_.get(), POLLIN, 0}; }
      if (!gotFinish) { ctlIdx = n; fds[n++] = {control_.get(), POLLIN, 0}; }
      int r = ::poll(fds, static_cast<nfds_t>(n), timeout);
      if (r < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (outIdx >= 0 && fds[outIdx].revents != 0) pump(out_, outCapture_);
      if (errIdx >= 0 && fds[errIdx].revents != 0) pump(err_, errCapture_);
      if (ctlIdx >= 0 && fds[ctlIdx].revents != 0) {
        detail::SupervisorMessage m;
        if (readMessage(control_.get(), m) && m.kind == detail::kFinished) {
          info_.descendantsKilled = m.extra;
          if (WIFEXITED(m.value)) info_.exitCode = WEXITSTATUS(m.value);
          if (WIFSIGNALED(m.value)) info_.signal = WTERMSIG(m.value);
        } else {
          // The supervisor vanished without a report (killed from outside).
          info_.signal = SIGKILL;
        }
        gotFinish = true;
        info_.duration =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_);
        drainUntil = Clock::now() + std::chrono::seconds(2);
      }
    }
    out_.reset();
    err_.reset();
    control_.reset();
    int st = 0;
    while (::waitpid(supervisor_, &st, 0) < 0 && errno == EINTR) {
    }
    finished_ = true;
  }

  pid_t supervisor_;
  pid_t pid_;
  Fd control_;
  Fd out_;
  Fd err_;
  BoundedCapture outCapture_;
  BoundedCapture errCapture_;
  Clock::time_point started_;
  ExitInfo info_;
  bool killRequested_ = false;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<RunningProcess>> spawn(const SpawnRequest& req) {
  Clock::time_point started = Clock::now();
  if (req.argv.empty()) {
    return makeError(ErrorCode::SandboxLaunchFailed, "no command to run",
                     "give the step a command");
  }
  if (req.extraFds.size() > detail::kMaxExtraFds) {
    return makeError(ErrorCode::SandboxLaunchFailed, "too many descriptors to pass to the child",
                     "pass at most 4 extra descriptors", req.argv[0]);
  }
  auto path = resolveExecutable(req.argv[0], req.env);
  if (!path) {
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "command '" + req.argv[0] + "' not found in the step's PATH",
                     "use an absolute path or set PATH in the step's environment", req.argv[0]);
  }

  // Everything the child touches is allocated before fork.
  std::vector<std::string> argvStore(req.argv);
  std::vector<char*> argvPtrs;
  for (auto& a : argvStore) argvPtrs.push_back(a.data());
  argvPtrs.push_back(nullptr);
  std::vector<std::string> envStore;
  for (const auto& [k, v] : req.env) envStore.push_back(k + "=" + v);
  std::vector<char*> envPtrs;
  for (auto& e : envStore) envPtrs.push_back(e.data());
  envPtrs.push_back(nullptr);

  Fd outR, outW, errR, errW, failR, failW, devNull;
  if (!makePipe(outR, outW) || !makePipe(errR, errW) || !makePipe(failR, failW)) {
    return launchError("pipe", errno, req.argv[0]);
  }
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
    return launchError("socketpair", errno, req.argv[0]);
  }
  Fd control(sv[0]), supervisorEnd(sv[1]);
  int stdinFd = -1;
  if (req.stdinFd) {
    stdinFd = *req.stdinFd;
  } else {
    devNull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!devNull) return launchError("open /dev/null", errno, req.argv[0]);
    stdinFd = devNull.get();
  }

  detail::ExecPlan plan;
  plan.path = path->c_str();
  plan.argv = argvPtrs.data();
  plan.envp = envPtrs.data();
  plan.cwd = req.cwd.empty() ? nullptr : req.cwd.c_str();
  plan.setups = req.childSetup.data();
  plan.setupCount = req.childSetup.size();
  plan.stdinFd = stdinFd;
  plan.stdoutFd = outW.get();
  plan.stderrFd = errW.get();
  plan.passFd = req.passFd.value_or(-1);
  plan.extraFds = req.extraFds.data();
  plan.extraCount = req.extraFds.size();
  plan.errorPipe = failW.get();
  plan.control = supervisorEnd.get();

  pid_t supervisor = ::fork();
  if (supervisor < 0) return launchError("fork", errno, req.argv[0]);
  if (supervisor == 0) detail::runSupervisor(plan);

  outW.reset();
  errW.reset();
  failW.reset();
  supervisorEnd.reset();
  devNull.reset();

  auto reapSupervisor = [&] {
    int st = 0;
    while (::waitpid(supervisor, &st, 0) < 0 && errno == EINTR) {
    }
  };
  detail::SupervisorMessage started_msg;
  if (!readMessage(control.get(), started_msg) || started_msg.kind != detail::kStarted) {
    int err = started_msg.kind == detail::kForkFailed ? started_msg.value : EPIPE;
    reapSupervisor();
    return launchError("starting the step's supervisor", err, req.argv[0]);
  }
  pid_t pid = started_msg.value;

  detail::ChildFailure failure;
  ssize_t got = 0;
  do {
    got = ::read(failR.get(), &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    detail::SupervisorMessage fin;
    readMessage(control.get(), fin);
    reapSupervisor();
    std::string what = failure.step >= 0
                           ? req.childSetup[static_cast<std::size_t>(failure.step)].what
                           : detail::stepName(failure.step);
    if (failure.step == detail::kStepExec) what += " " + *path;
    return launchError(what, failure.err, req.argv[0]);
  }

  for (Fd* f : {&outR, &errR}) ::fcntl(f->get(), F_SETFL, O_NONBLOCK);
  return std::unique_ptr<RunningProcess>(std::make_unique<SupervisedProcess>(
      supervisor, pid, std::move(control), std::move(outR), std::move(errR), req, started));
}

}  // namespace lw::sandbox::process
