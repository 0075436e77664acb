#include "sandbox/landlock/landlock_backend.h"

#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/unique_fd.h"
#include "core/version.h"
#include "egress/listener_relay.h"
#include "egress/step_relay.h"
#include "sandbox/landlock/egress_listener.h"
#include "sandbox/landlock/landlock_plan.h"
#include "sandbox/landlock/landlock_ruleset.h"
#include "sandbox/landlock/namespaces.h"
#include "sandbox/landlock/private_view.h"
#include "sandbox/limits/limits_applier.h"
#include "sandbox/probe_cache.h"
#include "sandbox/process/child_setups.h"
#include "sandbox/process/holding.h"
#include "sandbox/system_paths.h"

namespace lw::sandbox::landlock {
namespace {

namespace fs = std::filesystem;

std::string canonical(const std::string& raw) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(raw, ec), ec);
  if (ec) return fs::path(raw).lexically_normal().string();
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool othersMayReadPath(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && othersMayRead(st);
}

std::optional<std::vector<std::string>> listNonSymlinks(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code typeEc;
    if (!it->is_symlink(typeEc) && !typeEc) names.push_back(it->path().filename().string());
  }
  if (ec) return std::nullopt;
  return names;
}

Error launchFailed(std::string message, std::string hint = {}) {
  return makeError(ErrorCode::SandboxLaunchFailed, "linux-landlock: " + std::move(message), std::move(hint),
                   "linux-landlock");
}

bool holdsCapability(int cap) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  return (data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap)) != 0;
}

process::ChildSetup installSeccomp(std::shared_ptr<const seccomp::BpfProgram> program) {
  return process::ChildSetup{"seccomp filter", [program] { return program->installOnCurrentThread(); }};
}

// Where the child finds its end of the egress channel: the first extra
// descriptor (spawn.h), fd 4.
constexpr int kChildChannelFd = 4;

// A datagram pair: loopwright's end, and the child's (closed once the step
// has started, so that loopwright holds no way back into it).
Status openEgressChannel(UniqueFd& ours, UniqueFd& child) {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) != 0)
    return launchFailed(std::string("socketpair for the egress listener: ") + std::strerror(errno));
  ours.reset(pair[0]);
  child.reset(pair[1]);
  return Ok{};
}

}  // namespace

LandlockConfig landlockConfigFor(const Environment& env) {
  LandlockConfig c;
  c.cacheFile = probeCacheFile(env, BackendId::LinuxLandlock);
  return c;
}

std::string landlockProbeCacheKey() {
  utsname u{};
  uname(&u);
  std::string maxUserNs, unprivClone;
  std::ifstream("/proc/sys/user/max_user_namespaces") >> maxUserNs;
  std::ifstream("/proc/sys/kernel/unprivileged_userns_clone") >> unprivClone;
  std::ostringstream key;
  key << "landlock-probe-v4|" << kVersion << "|" << u.release << " " << u.version << "|uid " << getuid() << " euid "
      << geteuid() << "|userns " << maxUserNs << "/" << unprivClone << "|abi " << queryAbi();
  return key.str();
}

ConfinementFacts confinementFactsFrom(const ProbeReport& report, int abi, bool setpcap, bool sysAdmin) {
  // classify() marks loopback-only enforced exactly when the namespaces were
  // observed working, and processTreeCleanup when the private view was too.
  auto loopback = report.networkModes.find(NetworkMode::LoopbackOnly);
  bool ns = loopback != report.networkModes.end() && loopback->second.support == Support::Enforced;
  auto cleanup = report.capabilities.find(Capability::ProcessTreeCleanup);
  bool view = cleanup != report.capabilities.end() && cleanup->second.support == Support::Enforced;
  return ConfinementFacts{abi, ns, setpcap, sysAdmin, view};
}

const ProbeReport& LandlockBackend::probe() {
  std::lock_guard lock(mu_);
  if (report_) return *report_;
  std::string key = landlockProbeCacheKey();
  if (config_.readCache && config_.cacheFile) {
    if (auto cached = loadCachedProbe(*config_.cacheFile, key)) {
      report_ = std::move(*cached);
      return *report_;
    }
  }
  auto filter = filters_.get({NetworkMode::None, true});
  Observation observed;
  if (!filter)
    observed.failure = filter.error().message;
  else
    observed = observeHost(**filter, !holdsCapability(CAP_SYS_ADMIN));
  report_ = classify(observed);
  if (config_.cacheFile && observed.failure.empty()) storeCachedProbe(*config_.cacheFile, key, *report_);
  return *report_;
}

std::string LandlockBackend::resolve(const std::string& path) {
  std::lock_guard lock(mu_);
  if (systemPaths_.empty()) {
    for (const auto* list : {&systemReadPaths(), &systemDevicePaths()})
      for (const std::string& p : *list) systemPaths_[p] = canonical(p);
  }
  if (auto it = systemPaths_.find(path); it != systemPaths_.end()) return it->second;
  return canonical(path);
}

Result<Plan> LandlockBackend::planFor(const StepSpec& spec) {
  const ProbeReport& report = probe();
  if (!report.available)
    return makeError(ErrorCode::SandboxBackendUnavailable, "linux-landlock: " + report.unavailableReason, {},
                     "linux-landlock");
  ConfinementFacts facts =
      confinementFactsFrom(report, queryAbi(), holdsCapability(CAP_SETPCAP), holdsCapability(CAP_SYS_ADMIN));
  return plan(
      spec, facts, [this](const std::string& p) { return resolve(p); }, listNonSymlinks, othersMayReadPath);
}

Result<std::unique_ptr<process::RunningProcess>> LandlockBackend::launch(const StepSpec& spec) {
  auto planned = planFor(spec);
  if (!planned) return std::move(planned).error();
  for (const PathRule& rule : planned->paths) {
    struct stat st {};
    if (rule.required && stat(rule.path.c_str(), &st) != 0)
      return launchFailed(rule.path + ": " + std::strerror(errno),
                          "the workspace, the out dir and writable paths must exist");
  }
  auto filter = filters_.get(planned->seccomp);
  if (!filter) return std::move(filter).error();

  process::SpawnRequest req = spawnRequestFor(spec);
  // First: the cgroup is joined and the limits set before any namespace or
  // Landlock rule could stand in the way (the cgroup files are outside the view).
  auto limited = limits::limitStep(spec.limits, {"", std::string(limits::kNoPrivateTmp)}, req);
  if (!limited) return std::move(limited).error();
  const Plan& p = *planned;
  // A pid namespace is entered by the supervisor (with the user namespace
  // that allows it), so that the step it forks is the init: no fork of ours.
  // The IPC namespace comes with the last of the two unshares.
  const bool userInSupervisor = p.pidNamespace && p.userNamespace;
  const bool childUnshares = (p.userNamespace && !userInSupervisor) || p.mountNamespace || p.networkNamespace;
  if (p.pidNamespace) {
    req.supervisorSetup.push_back(
        enterNamespaces(geteuid(), getegid(), {.user = userInSupervisor, .pid = true, .ipc = !childUnshares}));
    req.stepIsPidNamespaceInit = true;
  }
  if (childUnshares)
    req.childSetup.push_back(enterNamespaces(
        geteuid(), getegid(),
        {.user = p.userNamespace && !userInSupervisor, .mount = p.mountNamespace, .network = p.networkNamespace}));
  UniqueFd egressChannel, childChannel;
  if (spec.network == NetworkMode::AllowList) {
    if (Status st = openEgressChannel(egressChannel, childChannel); !st) return st.error();
    req.extraFds.push_back(childChannel.get());
    req.childSetup.push_back(handOutEgressListener(kChildChannelFd, egress::kRelayPort));
  }
  if (p.mountNamespace)
    req.childSetup.push_back(enterPrivateView(std::make_shared<const PreparedView>(p.writableTrees, p.workdir)));
  req.childSetup.push_back(restrictWithLandlock(std::make_shared<const PreparedRuleset>(std::move(planned).value())));
  req.childSetup.push_back(process::dropAllCapabilities());
  req.childSetup.push_back(installSeccomp(*filter));
  auto proc = process::spawn(req);
  if (!proc) return proc;
  childChannel.reset();
  auto limitedProc = limits::releasingLimitsAfter(std::move(proc).value(), std::move(limited).value());
  if (!egressChannel) return limitedProc;
  auto listener = receiveEgressListener(egressChannel.get());
  if (!listener) return std::move(listener).error();  // limitedProc's destructor ends the step
  return process::holding(std::move(limitedProc),
                          std::make_shared<egress::ListenerRelay>(*listener, spec.egressSocket));
}

std::unique_ptr<Backend> makeLandlockBackend() { return std::make_unique<LandlockBackend>(); }

std::unique_ptr<Backend> makeLandlockBackend(const Environment& env, bool readCache) {
  LandlockConfig config = landlockConfigFor(env);
  config.readCache = readCache;
  return std::make_unique<LandlockBackend>(std::move(config));
}

}  // namespace lw::sandbox::landlock
