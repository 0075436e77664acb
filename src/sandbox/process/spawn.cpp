#include "sandbox/process/spawn.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include "core/unique_fd.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/orphan_sweep.h"
#include "sandbox/process/piped_process.h"
#include "sandbox/process/supervisor.h"

namespace lw::sandbox::process {
namespace {

using Clock = std::chrono::steady_clock;

bool readMessage(int fd, detail::SupervisorMessage& m) {
  for (;;) {
    ssize_t r = ::recv(fd, &m, sizeof m, 0);
    if (r == static_cast<ssize_t>(sizeof m)) return true;
    if (r < 0 && errno == EINTR) continue;
    return false;
  }
}

void reapChild(pid_t pid, int* status = nullptr) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  forgetOwnChild(pid);
  if (status != nullptr) *status = st;
}

// Stopped (T) or stopped by a tracer (t): it cannot act until continued.
bool isStopped(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  auto close = line.rfind(')');  // comm may hold ')'
  return close != std::string::npos && close + 2 < line.size() && (line[close + 2] == 'T' || line[close + 2] == 't');
}

// Why the supervisor ended without its report, in the words of the report.
std::string supervisorLossOf(int status, std::optional<PipedProcess::Stuck> forced) {
  const std::string swept = "loopwright killed what was left of the step's processes itself";
  if (forced == PipedProcess::Stuck::Stopped)
    return "the step's supervisor was stopped (the step may have stopped it) and was killed; " + swept;
  if (forced)
    return "the step's supervisor did not end the step within " + std::to_string(kKillGrace.count()) +
           " ms of the kill request (stopped or starved by the step) and was killed; " + swept;
  std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                        : "ended with status " + std::to_string(WEXITSTATUS(status));
  return "the step's supervisor was " + how + " before it reported the step's end (the step may have killed it); " +
         swept;
}

// The step's end comes as the supervisor's report on the control socket; a
// kill is a byte on it (the supervisor kills the whole tree). A supervisor
// that dies without a report (the step killed it) or does not answer a kill
// (the step stopped it) leaves the sweep to loopwright (orphan_sweep.h).
class SupervisedProcess final : public PipedProcess {
 public:
  SupervisedProcess(pid_t supervisor, pid_t pid, UniqueFd control, UniqueFd out, UniqueFd err, const SpawnRequest& req,
                    Clock::time_point started, bool orphansComeHere)
      : PipedProcess(std::move(out), std::move(err), req, started),
        supervisor_(supervisor),
        pid_(pid),
        control_(std::move(control)),
        countsDescendants_(!req.stepIsPidNamespaceInit),
        orphansComeHere_(orphansComeHere) {}
  ~SupervisedProcess() override { killIfRunning(); }

  int pid() const override { return pid_; }

 private:
  int endFd() const override { return control_.get(); }

  void collectEnd(ExitInfo& info) override {
    detail::SupervisorMessage m;
    if (readMessage(control_.get(), m) && m.kind == detail::kFinished) {
      if (countsDescendants_) info.descendantsKilled = m.extra;
      if (WIFEXITED(m.value)) info.exitCode = WEXITSTATUS(m.value);
      if (WIFSIGNALED(m.value)) info.signal = WTERMSIG(m.value);
      // The supervisor ended its own children; the rest of the tree came here.
      if (orphansComeHere_) {
        const int swept = sweepStrayStepProcesses();
        if (countsDescendants_) info.descendantsKilled = m.extra + swept;
      }
      return;
    }
    // Its end of the socket closed without a report: it is gone. Reaped
    // first, so that every orphan of its subtree has re-parented to us.
    int status = 0;
    reapChild(supervisor_, &status);
    reaped_ = true;
    info.signal = SIGKILL;  // the step's own status is lost with its supervisor
    info.descendantsKilled = sweepStrayStepProcesses();
    info.supervisorLost = supervisorLossOf(status, forced_);
  }

  void sendKill() override {
    char k = 'k';
    ::send(control_.get(), &k, 1, MSG_NOSIGNAL);
  }

  // Not reaped yet, so the pid is still this supervisor's.
  void forceEnd(Stuck why) override {
    forced_ = why;
    ::kill(supervisor_, SIGKILL);
  }

  bool stuckNow() override { return isStopped(supervisor_); }

  // Closing the control socket makes a supervisor still running kill the tree.
  void release() override {
    control_.reset();
    if (!reaped_) reapChild(supervisor_);
    reaped_ = true;
  }

  pid_t supervisor_;
  pid_t pid_;
  UniqueFd control_;
  bool countsDescendants_;
  bool orphansComeHere_;  // kStarted's extra: see supervisor.h
  std::optional<Stuck> forced_;
  bool reaped_ = false;
};

// The error for a supervisor that did not start the step: a supervisor
// setup step that failed (by name), the fork, or a supervisor gone silent.
Error supervisorFailed(const detail::SupervisorMessage& m, const SpawnRequest& req) {
  if (m.kind != detail::kForkFailed) return launchError("starting the step's supervisor", EPIPE, req.argv[0]);
  const auto setup = static_cast<std::size_t>(m.extra);
  if (setup >= 1 && setup <= req.supervisorSetup.size())
    return launchError(req.supervisorSetup[setup - 1].what, m.value, req.argv[0]);
  return launchError("starting the step's supervisor", m.value, req.argv[0]);
}

// The error for what the step's child reported before its exec: the setup
// step, the descriptor or session work, or the command (not found in the
// step's PATH, or which candidate the exec refused).
Error childFailed(const detail::ChildFailure& failure, const SpawnRequest& req,
                  const std::vector<std::string>& candidates, const std::string& stepPath) {
  if (failure.step == detail::kStepCommandNotFound) {
    if (candidates.size() == 1 && candidates.front() == req.argv[0])  // a path, not searched
      return launchError("execve " + req.argv[0], failure.err, req.argv[0]);
    return commandNotFound(req.argv[0], stepPath, failure.err);
  }
  std::string what =
      failure.step >= 0 ? req.childSetup[static_cast<std::size_t>(failure.step)].what : detail::stepName(failure.step);
  if (failure.step == detail::kStepExec && failure.candidate >= 0 &&
      static_cast<std::size_t>(failure.candidate) < candidates.size())
    what += " " + candidates[static_cast<std::size_t>(failure.candidate)];
  return launchError(what, failure.err, req.argv[0]);
}

std::optional<Error> refusedRequest(const SpawnRequest& req) {
  if (req.argv.empty())
    return makeError(ErrorCode::SandboxLaunchFailed, "no command to run", "give the step a command");
  if (req.extraFds.size() > detail::kMaxExtraFds)
    return makeError(ErrorCode::SandboxLaunchFailed, "too many descriptors to pass to the child",
                     "pass at most 4 extra descriptors", req.argv[0]);
  return std::nullopt;
}

// The descriptors between loopwright, the supervisor and the step: the
// step's output pipes, the pipe its child reports a failed exec on, the
// control socket, and its stdin.
struct Channels {
  UniqueFd outR, outW, errR, errW, failR, failW, devNull;
  UniqueFd control, supervisorEnd;
  int stdinFd = -1;

  // After the fork: the child's ends belong to it alone, so that a read
  // sees end of file when it is gone.
  void closeChildEnds() {
    outW.reset();
    errW.reset();
    failW.reset();
    supervisorEnd.reset();
    devNull.reset();
  }
};

std::optional<Error> openChannels(const SpawnRequest& req, Channels& ch) {
  if (!makePipe(ch.outR, ch.outW) || !makePipe(ch.errR, ch.errW) || !makePipe(ch.failR, ch.failW))
    return launchError("pipe", errno, req.argv[0]);
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return launchError("socketpair", errno, req.argv[0]);
  ch.control.reset(sv[0]);
  ch.supervisorEnd.reset(sv[1]);
  if (req.stdinFd) {
    ch.stdinFd = *req.stdinFd;
    return std::nullopt;
  }
  ch.devNull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!ch.devNull) return launchError("open /dev/null", errno, req.argv[0]);
  ch.stdinFd = ch.devNull.get();
  return std::nullopt;
}

detail::ExecPlan execPlanOf(const SpawnRequest& req, ExecStrings& candidates, std::size_t candidateCount,
                            ExecStrings& argv, ExecStrings& envp, const Channels& ch) {
  detail::ExecPlan plan;
  plan.candidates = candidates.get();
  plan.candidateCount = candidateCount;
  plan.argv = argv.get();
  plan.envp = envp.get();
  plan.cwd = req.cwd.empty() ? nullptr : req.cwd.c_str();
  plan.setups = req.childSetup.data();
  plan.setupCount = req.childSetup.size();
  plan.supervisorSetups = req.supervisorSetup.data();
  plan.supervisorSetupCount = req.supervisorSetup.size();
  plan.stepIsInit = req.stepIsPidNamespaceInit;
  plan.stdinFd = ch.stdinFd;
  plan.stdoutFd = ch.outW.get();
  plan.stderrFd = ch.errW.get();
  plan.passFd = req.passFd.value_or(-1);
  plan.extraFds = req.extraFds.data();
  plan.extraCount = req.extraFds.size();
  plan.errorPipe = ch.failW.get();
  plan.control = ch.supervisorEnd.get();
  return plan;
}

// What the step's child wrote on the failure pipe before its exec; nothing
// (end of file) when the exec succeeded.
std::optional<detail::ChildFailure> childFailureOf(int failPipe) {
  detail::ChildFailure failure;
  ssize_t got = 0;
  do {
    got = ::read(failPipe, &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof failure)) return failure;
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<RunningProcess>> spawn(const SpawnRequest& req) {
  Clock::time_point started = Clock::now();
  if (auto refused = refusedRequest(req)) return *refused;
  // Resolved in the child, in the step's view (executable.h).
  const std::string stepPath = stepPathOf(req.env);
  const std::vector<std::string> candidates = commandCandidates(req.argv[0], stepPath);

  // Everything the child touches is allocated before fork.
  ExecStrings candidateStrings(candidates);
  ExecStrings argv(req.argv);
  ExecStrings envp = ExecStrings::environment(req.env);
  Channels ch;
  if (auto failed = openChannels(req, ch)) return *failed;
  const detail::ExecPlan plan = execPlanOf(req, candidateStrings, candidates.size(), argv, envp, ch);

  // If the step kills its supervisor, its orphans come to us.
  becomeSubreaperOfLastResort();
  pid_t supervisor = -1;
  {
    auto guard = ownChildGuard();
    supervisor = ::fork();
    if (supervisor < 0) return launchError("fork", errno, req.argv[0]);
    if (supervisor == 0) detail::runSupervisor(plan);
    registerOwnChild(supervisor);
  }
  ch.closeChildEnds();

  detail::SupervisorMessage startedMsg;
  if (!readMessage(ch.control.get(), startedMsg) || startedMsg.kind != detail::kStarted) {
    reapChild(supervisor);
    return supervisorFailed(startedMsg, req);
  }
  if (auto failure = childFailureOf(ch.failR.get())) {
    detail::SupervisorMessage fin;
    readMessage(ch.control.get(), fin);
    reapChild(supervisor);
    return childFailed(*failure, req, candidates, stepPath);
  }

  for (UniqueFd* f : {&ch.outR, &ch.errR}) ::fcntl(f->get(), F_SETFL, O_NONBLOCK);
  return std::unique_ptr<RunningProcess>(
      std::make_unique<SupervisedProcess>(supervisor, startedMsg.value, std::move(ch.control), std::move(ch.outR),
                                          std::move(ch.errR), req, started, startedMsg.extra == 1));
}

}  // namespace lw::sandbox::process
