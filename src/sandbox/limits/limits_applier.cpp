#include "sandbox/limits/limits_applier.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "sandbox/limits/limits_host.h"

namespace lw::sandbox::limits {
namespace {

constexpr int kHighFd = 64;

bool writeFile(const std::string& path, const std::string& value, int& err) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    return false;
  }
  bool ok = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  err = ok ? 0 : errno;
  ::close(fd);
  return ok;
}

std::vector<pid_t> listedProcesses(const std::string& dir) {
  std::ifstream in(dir + "/cgroup.procs");
  std::vector<pid_t> pids;
  for (pid_t p; in >> p;) pids.push_back(p);
  return pids;
}

// SIGKILL to each process, then a wait until all of them have exited (each
// pidfd turns readable) or the deadline passes. The wait is what a cgroup
// that is still populated costs: bubblewrap's pid 1 is usually still
// tearing down its namespaces when the launcher has been reaped; a fixed
// sleep would charge a millisecond for a few hundred microseconds of it.
void killAndAwait(const std::vector<pid_t>& pids, std::chrono::steady_clock::time_point deadline) {
  std::vector<pollfd> exits;
  bool unawaited = false;  // a kernel without pidfds (before 5.3)
  for (pid_t p : pids) {
    int fd = static_cast<int>(::syscall(SYS_pidfd_open, p, 0));
    if (fd < 0) {
      unawaited = unawaited || errno != ESRCH;  // ESRCH: gone already
      ::kill(p, SIGKILL);
      continue;
    }
    ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0);
    exits.push_back({fd, POLLIN, 0});
  }
  using namespace std::chrono;
  for (pollfd& e : exits) {
    const auto left = duration_cast<milliseconds>(deadline - steady_clock::now()).count();
    while (left > 0 && ::poll(&e, 1, static_cast<int>(std::min<long long>(left, 100))) < 0 && errno == EINTR) {}
    ::close(e.fd);
  }
  if (unawaited) std::this_thread::sleep_for(milliseconds(1));
}

// Empties one cgroup: cgroup.kill ends every process in it at once (a fork
// bomb cannot outrun it); without it, SIGKILL to each listed process until
// the list stays empty (pids.max bounds how many new ones can appear).
void emptyCgroup(const CgroupDir& d) {
  int err = 0;
  if (d.v2) writeFile(d.path + "/cgroup.kill", "1", err);
  using namespace std::chrono;
  const auto give_up = steady_clock::now() + seconds(5);
  while (steady_clock::now() < give_up) {
    auto pids = listedProcesses(d.path);
    if (pids.empty()) return;
    killAndAwait(pids, give_up);
  }
}

void removeCgroup(const std::string& dir) {
  // A cgroup whose last process is still exiting refuses rmdir (EBUSY) for a moment.
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

class ReleasingLimits final : public process::RunningProcess {
 public:
  ReleasingLimits(std::unique_ptr<process::RunningProcess> inner, std::shared_ptr<AppliedLimits> limits,
                  std::shared_ptr<BackgroundRemoval> removal)
      : inner_(std::move(inner)), limits_(std::move(limits)), removal_(std::move(removal)) {}
  ~ReleasingLimits() override {
    inner_.reset();
    release();
  }
  int pid() const override { return inner_->pid(); }
  process::ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    sweepStaleStepCgroups();  // while the step runs: its start does not wait for it
    process::ExitInfo info = inner_->wait(deadline);
    release();
    return info;
  }
  void kill() override {
    inner_->kill();
    release();
  }
  const process::CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const process::CapturedStream& stderrData() const override { return inner_->stderrData(); }
  const std::vector<std::string>& planNotes() const override { return inner_->planNotes(); }

 private:
  void release() {
    if (removal_)
      limits_->releaseRemovingLater(*removal_);
    else
      limits_->release();
  }
  std::unique_ptr<process::RunningProcess> inner_;
  std::shared_ptr<AppliedLimits> limits_;
  std::shared_ptr<BackgroundRemoval> removal_;
};

}  // namespace

Result<std::shared_ptr<AppliedLimits>> AppliedLimits::prepare(const Plan& plan) {
  std::shared_ptr<AppliedLimits> self(new AppliedLimits());
  self->rlimits_ = plan.rlimits;
  for (const CgroupDir& d : plan.cgroups) {
    if (::mkdir(d.path.c_str(), 0755) != 0 && errno != EEXIST)
      return makeError(ErrorCode::SandboxLaunchFailed,
                       "cannot create the step's cgroup " + d.path + ": " + std::strerror(errno),
                       "loopwright probes this once per process; check the cgroup hierarchy's "
                       "permissions, or run where none is mounted writable",
                       d.path);
    self->cgroups_.push_back(d);
    for (const CgroupWrite& w : d.writes) {
      int err = 0;
      if (!writeFile(d.path + "/" + w.file, w.value, err))
        return makeError(ErrorCode::SandboxLaunchFailed,
                         "cannot set " + d.path + "/" + w.file + " to " + w.value + ": " + std::strerror(err),
                         "the kernel refused the step's limit", d.path);
    }
    int fd = ::open((d.path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    // Above the numbers the child arranges (0-3 and the extra descriptors
    // from 4), which it would otherwise close or overwrite before the join.
    if (fd >= 0 && fd < kHighFd) {
      int high = ::fcntl(fd, F_DUPFD_CLOEXEC, kHighFd);
      ::close(fd);
      fd = high;
    }
    if (fd < 0)
      return makeError(ErrorCode::SandboxLaunchFailed,
                       "cannot open " + d.path + "/cgroup.procs: " + std::strerror(errno), {}, d.path);
    self->procsFds_.push_back(fd);
  }
  return self;
}

AppliedLimits::~AppliedLimits() { release(); }

int AppliedLimits::joinNow() const {
  // "0" is the writing process itself; the descriptor was opened by the
  // orchestrator, whose permission the kernel checks.
  for (int fd : procsFds_)
    if (::write(fd, "0", 1) != 1) return errno;
  return 0;
}

int AppliedLimits::setRlimitsNow() const {
  for (const RlimitSetting& r : rlimits_) {
    struct rlimit rl {
      static_cast<rlim_t>(r.value), static_cast<rlim_t>(r.value)
    };
    if (::setrlimit(r.resource, &rl) != 0) return errno;
  }
  return 0;
}

std::vector<process::ChildSetup> AppliedLimits::childSetups(const std::shared_ptr<AppliedLimits>& self) {
  std::vector<process::ChildSetup> out;
  if (!self->procsFds_.empty()) out.push_back({"joining the step's cgroup", [self] { return self->joinNow(); }});
  out.push_back({"setting the step's resource limits", [self] { return self->setRlimitsNow(); }});
  return out;
}

void AppliedLimits::release() {
  if (released_) return;
  released_ = true;
  for (int fd : procsFds_) ::close(fd);
  procsFds_.clear();
  for (auto it = cgroups_.rbegin(); it != cgroups_.rend(); ++it) {
    emptyCgroup(*it);
    removeCgroup(it->path);
  }
}

void AppliedLimits::releaseRemovingLater(BackgroundRemoval& removal) {
  if (released_) return;
  released_ = true;
  for (int fd : procsFds_) ::close(fd);
  procsFds_.clear();
  std::vector<std::string> emptied;  // deepest first, the order rmdir needs
  for (auto it = cgroups_.rbegin(); it != cgroups_.rend(); ++it) {
    emptyCgroup(*it);
    emptied.push_back(it->path);
  }
  removal.add([emptied] {
    for (const std::string& dir : emptied) removeCgroup(dir);
  });
}

Result<std::shared_ptr<AppliedLimits>> limitStep(const ResourceLimits& l, const Scratch& scratch,
                                                 process::SpawnRequest& req) {
  static std::atomic<unsigned> launches{0};
  // Unique among the steps of every loopwright on this host: pid and count.
  std::string leaf = std::to_string(::getpid()) + "-" + std::to_string(++launches);
  auto applied = AppliedLimits::prepare(planLimits(l, observedHostLimitFacts(), leaf, scratch));
  if (!applied) return applied;
  auto setups = AppliedLimits::childSetups(*applied);
  req.childSetup.insert(req.childSetup.begin(), setups.begin(), setups.end());
  return applied;
}

std::unique_ptr<process::RunningProcess> releasingLimitsAfter(std::unique_ptr<process::RunningProcess> inner,
                                                              std::shared_ptr<AppliedLimits> limits,
                                                              std::shared_ptr<BackgroundRemoval> removal) {
  return std::make_unique<ReleasingLimits>(std::move(inner), std::move(limits), std::move(removal));
}

}  // namespace lw::sandbox::limits
