#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/probe_canary.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/version.h"

#include "core/unique_fd.h"
#include "sandbox/bwrap/bwrap_plan.h"
#include "sandbox/bwrap/bwrap_probe.h"
#include "sandbox/limits/limits_applier.h"
#include "sandbox/limits/limits_host.h"
#include "sandbox/probe_cache.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/placeholders.h"
#include "sandbox/process/plan_notes.h"
#include "sandbox/process/unsupervised_spawn.h"
#include "sandbox/system_paths.h"

namespace lw::sandbox::bwrap {
namespace {

namespace fs = std::filesystem;

std::string firstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "no message" : line;
}

// The step's private /tmp is a tmpfs of tmpSize (bwrap_plan.cpp).
limits::Scratch scratch() { return {"the size of the private /tmp tmpfs (bwrap --size)", ""}; }

// The /etc files the plan copies, opened as what was planned: a regular file
// others may read. Anything else by now (the host replaced it since the
// plan) fails the launch rather than copying what was not planned; O_NONBLOCK
// so that a FIFO put there cannot hang the open.
Result<std::vector<UniqueFd>> openCopiedFiles(const std::vector<fs::path>& files) {
  std::vector<UniqueFd> fds;
  for (const fs::path& file : files) {
    UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    struct stat st {};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || !othersMayRead(st)) {
      return makeError(ErrorCode::SandboxLaunchFailed,
                       file.string() + " changed while the step was starting: it is no longer a file others may read",
                       "start the step again; if this repeats, see what rewrites " + file.string(), file.string());
    }
    fds.push_back(std::move(fd));
  }
  return fds;
}

}  // namespace

BwrapConfig bwrapConfigFor(const Environment& env) {
  BwrapConfig c;
  c.bwrapPath =
      process::findHelper("bwrap", env.get("PATH").value_or("/usr/local/bin:/usr/bin:/bin") + ":/usr/bin").value_or("");
  c.cacheFile = probeCacheFile(env, BackendId::LinuxBwrap);
  return c;
}

std::string bwrapIdentity(const std::string& bwrapPath) {
  struct stat st {};
  if (::stat(bwrapPath.c_str(), &st) != 0) return {};
  std::ostringstream id;
  id << bwrapPath << "|" << st.st_dev << ":" << st.st_ino << ":" << st.st_size << ":" << st.st_mtim.tv_sec << "."
     << st.st_mtim.tv_nsec;
  return id.str();
}

std::string bwrapProbeCacheKey(const std::string& bwrapPath) {
  const std::string binary = bwrapIdentity(bwrapPath);
  if (binary.empty()) return {};
  struct utsname u {};
  ::uname(&u);
  std::string maxUserNs;
  std::ifstream("/proc/sys/user/max_user_namespaces") >> maxUserNs;
  std::ostringstream key;
  key << "bwrap-probe-v3|" << kVersion << "|" << binary << "|" << u.release << " " << u.version << "|uid " << ::getuid()
      << "|userns " << maxUserNs;
  return key.str();
}

Result<std::unique_ptr<process::RunningProcess>> BwrapBackend::launch(const StepSpec& spec) {
  if (config_.bwrapPath.empty()) {
    return makeError(ErrorCode::SandboxLaunchFailed, "bubblewrap (bwrap) is not installed",
                     "install the bubblewrap package", "linux-bwrap");
  }
  // New unix sockets are refused in every mode but allow-list: a path-named
  // socket the host created inside the workspace is reachable across
  // namespaces, and with --share-net so is the host's abstract namespace.
  // The bridge arrives already connected; socketpair() stays available.
  // allow-list's relay must reach the egress proxy's socket, and there the
  // network namespace is private (its own abstract namespace) and the view
  // holds no host directory with sockets in it (no /run, /var or /tmp).
  seccomp::Options filterOptions;
  filterOptions.network = spec.network;
  filterOptions.denyNewUnixSockets = spec.network != NetworkMode::AllowList;
  auto filter = filters_.get(filterOptions);
  if (!filter) return std::move(filter).error();
  auto memfd = (*filter)->toSealedMemfd();
  if (!memfd) return std::move(memfd).error();
  const UniqueFd seccompFd(*memfd);

  BwrapOptions options;
  options.bwrapPath = config_.bwrapPath;
  options.seccompFd = 4;    // extraFds[0] lands at 4
  options.firstCopyFd = 5;  // and the copied /etc files after it
  auto plan = planBwrap(spec, options, &lstatPath);
  if (!plan) return std::move(plan).error();
  auto copies = openCopiedFiles(plan->copiedFiles);
  if (!copies) return std::move(copies).error();
  process::SpawnRequest req;
  req.argv = plan->argv;
  req.env = spec.env;
  req.passFd = spec.passFd;
  req.extraFds = {seccompFd.get()};
  for (const UniqueFd& fd : *copies) req.extraFds.push_back(fd.get());
  req.maxOutputBytes = spec.maxOutputBytes;
  req.onOutput = spec.onOutput;
  // Capabilities are not dropped before bwrap: as root it needs them to
  // write the uid map of its user namespace. --cap-drop ALL empties every set
  // of the step (checked by the probe and the escape suite). No supervisor:
  // the step's pid namespace dies with its first process, and
  // --die-with-parent kills bwrap (so the namespace) if we die. The step's
  // rlimits and cgroup are set in the launcher's child before bwrap runs:
  // everything bwrap starts inherits them.
  auto limited = limits::limitStep(spec.limits, scratch(), req);
  if (!limited) return std::move(limited).error();
  auto proc = process::spawnSelfCleaningLauncher(req);
  if (!proc) {
    for (const fs::path& p : plan->placeholders) ::rmdir(p.c_str());
    return std::move(proc).error();
  }
  // bwrap created mount points on the host for missing protected paths.
  return process::withPlanNotes(
      process::removingPlaceholdersAfter(
          limits::releasingLimitsAfter(std::move(proc).value(), std::move(limited).value()), plan->placeholders),
      plan->notes);
}

std::string BwrapBackend::hostDependencies() {
  if (config_.bwrapPath.empty()) return "bwrap missing";
  const std::string binary = bwrapIdentity(config_.bwrapPath);
  return "bwrap " + (binary.empty() ? config_.bwrapPath + " unreadable" : binary);
}

std::vector<limits::Enforcement> BwrapBackend::limitsEnforcement(const ResourceLimits& l) {
  return limits::planLimits(l, limits::observedHostLimitFacts(), "report", scratch()).enforcement;
}

ProbeReport BwrapBackend::runProbe() {
  ProbeObservation obs;
  obs.bwrapFound = !config_.bwrapPath.empty();
  if (!obs.bwrapFound) return interpretProbe(obs);

  process::SpawnRequest version;
  version.argv = {config_.bwrapPath, "--version"};
  if (auto v = process::spawn(version)) {
    (*v)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(5));
    obs.version = firstLine((*v)->stdoutData().data);
  }
  // The filter launch() will use (the probe's own launch below included).
  auto compiled = filters_.get({NetworkMode::None, true});
  obs.seccompCompiled = compiled.ok();
  if (!compiled) obs.seccompError = compiled.error().message;

  char tmpl[] = "/tmp/lw-bwrap-probe-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) {
    obs.failure = "cannot create a scratch directory in /tmp";
    return interpretProbe(obs);
  }
  const fs::path scratch = tmpl;
  CanaryRun run = runCanary(*this, canaryStep(scratch, probeScript(scratch.string(), (scratch / "ws").string())),
                            std::chrono::seconds(20));
  obs.ran = run.ran;
  obs.tokens = std::move(run.tokens);
  if (!run.launchError.empty())
    obs.failure = run.launchError;
  else if (!run.ran)
    obs.failure = firstLine(run.stderrText) + " (exit status " + std::to_string(run.status) + ")";
  if (!obs.ran) obs.sysctls = readUsernsSysctls();
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return interpretProbe(obs);
}

const ProbeReport& BwrapBackend::probe() {
  if (report_) return *report_;
  const std::string key = config_.bwrapPath.empty() ? "" : bwrapProbeCacheKey(config_.bwrapPath);
  report_ = probeThroughCache(config_.cacheFile, config_.readCache, key, [this] { return runProbe(); });
  return *report_;
}

}  // namespace lw::sandbox::bwrap
