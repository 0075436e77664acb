#include "sandbox/gvisor/gvisor_backend.h"
#include "sandbox/probe_canary.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <csignal>
#include <fstream>
#include <sstream>

#include "core/executables.h"
#include "core/version.h"
#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/egress_relay_argv.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/gvisor/gvisor_plan.h"
#include "sandbox/gvisor/gvisor_probe.h"
#include "sandbox/limits/limits_applier.h"
#include "sandbox/limits/limits_host.h"
#include "sandbox/probe_cache.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/placeholders.h"
#include "sandbox/process/plan_notes.h"
#include "sandbox/process/step_env.h"
#include "sandbox/process/unsupervised_spawn.h"

namespace lw::sandbox::gvisor {
namespace {

namespace fs = std::filesystem;

// The host tasks of one idle sandbox (runsc, its Sentry and gofer threads):
// about 150 here. Each of the step's processes costs the host many more
// under gVisor's ptrace platform (a stub process per address space with a
// thread for each Sentry thread that ran in it, gofer threads for its
// files): builtin/reproduce's fork bomb held at 64 processes by RLIMIT_NPROC
// peaked at 881 host tasks, and a net of 8 per process (768) made the Sentry
// panic ("error initializing first thread") and take the step's agent with
// it. So the pids cgroup around runsc is a safety net well above that, or
// gVisor itself would die of it before the step's RLIMIT_NPROC refused a fork.
constexpr std::int64_t kGvisorOwnTasks = 256;
constexpr std::int64_t kHostTasksPerProcess = 32;

std::string firstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "no message" : line;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void writeFile(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The private /tmp is an OCI tmpfs of tmpSize (gvisor_plan.cpp).
limits::Scratch scratchLimit() { return {"the size of the private /tmp tmpfs (OCI tmpfs size=)", ""}; }

// The step's limits on this host as linux-gvisor holds them: rlimits that
// gVisor's kernel holds for the step's processes (gvisor_plan.cpp; pids as
// its RLIMIT_NPROC, which counts only them), and loopwright's cgroup around
// runsc for the host's side of pids and memory. No rlimit is set on runsc
// itself: the Sentry keeps the step's memory in a file, which RLIMIT_FSIZE
// would cap (a step past fileSize of memory killed by SIGXFSZ), and its
// threads would count against RLIMIT_NPROC. Without a memory cgroup,
// memory is RLIMIT_AS inside gVisor.
limits::Plan gvisorLimits(const ResourceLimits& l, const std::string& leaf) {
  ResourceLimits host = l;
  host.pids = kHostTasksPerProcess * l.pids + kGvisorOwnTasks;
  limits::Plan plan = limits::planLimits(host, limits::observedHostLimitFacts(), leaf, scratchLimit());
  plan.rlimits.clear();
  for (limits::Enforcement& e : plan.enforcement) {
    if (e.limit == ResourceLimit::Pids) {
      const bool cgroup = e.enforced && !e.mechanism.starts_with("RLIMIT_");
      e = {ResourceLimit::Pids, l.pids, true, "RLIMIT_NPROC inside gVisor",
           "gVisor's kernel counts the step's processes only" +
               (cgroup ? "; " + e.mechanism + " around runsc bounds the host's side (" +
                             std::to_string(kHostTasksPerProcess) + " times the limit, plus " +
                             std::to_string(kGvisorOwnTasks) + " for runsc, its Sentry and gofer)"
                       : std::string("; no cgroup bounds the host's side here"))};
      continue;
    }
    if (!e.mechanism.starts_with("RLIMIT_")) continue;
    if (e.limit == ResourceLimit::Memory) {
      e.mechanism = "RLIMIT_AS inside gVisor";
      e.note = "per process address space (gVisor does not hold RLIMIT_DATA), not the tree: no cgroup here";
    } else {
      e.mechanism += " inside gVisor";
    }
  }
  return plan;
}

// No memory cgroup: RLIMIT_AS inside gVisor instead (gvisorLimits).
std::optional<std::int64_t> addressSpaceLimit(const limits::Plan& plan, const ResourceLimits& l) {
  for (const limits::Enforcement& e : plan.enforcement)
    if (e.limit == ResourceLimit::Memory && e.mechanism == "RLIMIT_AS inside gVisor") return l.memoryBytes;
  return std::nullopt;
}

// "<pid> <starttime> <job>", the owner line job-completed reads
// (host::scratchOwnerLine's format), from the step's own job marker.
std::string ownerLine(const StepSpec& spec) {
  std::string stat = readAll("/proc/self/stat");
  std::string start = "0";
  if (std::size_t close = stat.rfind(')'); close != std::string::npos) {
    std::istringstream in(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && in >> field; ++i) start = field;
  }
  auto job = spec.env.find(kJobMarkerVariable);
  return std::to_string(::getpid()) + " " + start + " " + (job == spec.env.end() ? "" : job->second) + "\n";
}

// runsc dies with the thread that started it, and the sandbox (run
// --attached) with runsc.
process::ChildSetup dieWithParent() {
  return {"prctl(PR_SET_PDEATHSIG)", [] { return ::prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 ? 0 : errno; }};
}

std::vector<std::string> runscArgv(const std::string& runsc, const Scratch& s, const GvisorPlan& plan) {
  // Loopwright's own cgroup around runsc bounds pids and memory
  // (limits_applier.h); runsc must not move the sandbox out of it.
  std::vector<std::string> argv = {runsc, "--root", s.state.string(), "--log", s.log.string(), "--ignore-cgroups"};
  argv.insert(argv.end(), plan.runscFlags.begin(), plan.runscFlags.end());
  // Unprivileged, runsc maps the caller to root of its own user namespace.
  if (::geteuid() != 0) argv.emplace_back("--rootless");
  argv.insert(argv.end(), {"run", "--bundle", s.bundle.string(), s.container});
  return argv;
}

Status writeBundle(const Scratch& s, const GvisorPlan& plan) {
  std::error_code ec;
  for (const auto& [path, target] : plan.rootSymlinks) {
    fs::create_symlink(target, s.rootfs / path.relative_path(), ec);
    if (ec) break;
  }
  std::ofstream out(s.bundle / "config.json");
  out << boost::json::serialize(plan.config);
  if (ec || !out.flush())
    return makeError(ErrorCode::SandboxLaunchFailed, "cannot write the gVisor bundle in " + s.bundle.string(),
                     "make the temporary directory (TMPDIR) writable for this user", s.bundle.string());
  return Ok{};
}

Status writeFilter(const seccomp::BpfProgram& program, const fs::path& file) {
  const auto& code = program.instructions();
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(code.data()), static_cast<std::streamsize>(code.size() * sizeof(code[0])));
  if (!out.flush())
    return makeError(ErrorCode::SandboxLaunchFailed, "cannot write the step's seccomp filter to " + file.string(),
                     "make the temporary directory (TMPDIR) writable for this user", file.string());
  return Ok{};
}

bool bridgeIsSocket(const StepSpec& spec) {
  auto it = spec.env.find("LOOPWRIGHT_BRIDGE");
  return it != spec.env.end() && it->second.rfind("fd:", 0) != 0;
}

}  // namespace

GvisorConfig gvisorConfigFor(const Environment& env) {
  GvisorConfig c;
  c.runscPath = process::findHelper("runsc", env.get("PATH")).value_or("");
  c.cacheFile = probeCacheFile(env, BackendId::LinuxGvisor);
  c.initBinary = siblingExecutable(kContainerInitExecutable);
  if (auto tmp = env.get("TMPDIR"); tmp && !tmp->empty() && (*tmp)[0] == '/') c.tempRoot = *tmp;
  return c;
}

namespace {

Status toolsInstalled(const GvisorConfig& config) {
  if (config.runscPath.empty()) {
    return makeError(ErrorCode::SandboxLaunchFailed, "gVisor (runsc) is not installed",
                     "install the runsc package (docs/isolation-levels.md)", "linux-gvisor");
  }
  std::error_code ec;
  if (!fs::is_regular_file(config.initBinary, ec)) {
    return makeError(
        ErrorCode::SandboxLaunchFailed,
        "loopwright-container-init is not installed beside loopwright (" + config.initBinary.string() + ")",
        "install loopwright-container-init beside loopwright", "linux-gvisor");
  }
  return Ok{};
}

// The step as runsc's container runs it: through loopwright-container-init
// (the filter, the bridge) and, for an allow-list, behind the egress relay.
StepSpec containerStep(const StepSpec& spec, const fs::path& initBinary, const fs::path& filterFile) {
  StepSpec inner = withContainerInit(spec, initBinary, filterFile);
  if (!spec.egressSocket.empty()) {
    // allow-list: the relay first, outside loopwright's filter (which refuses
    // the step new unix sockets), reaching the proxy's bound socket through
    // --host-uds=open; gVisor's own netstack (--network=none) has no other route.
    inner.argv = behindEgressRelay(initBinary.string(), spec.egressSocket, inner.argv);
    inner.readOnlyPaths.push_back(spec.egressSocket.parent_path());
  }
  return inner;
}

}  // namespace

// The bundle on disk (filter, config.json, root), or nothing left behind.
Result<GvisorBackend::Bundle> GvisorBackend::writeStepBundle(const StepSpec& spec) {
  // New unix sockets are refused, as on linux-bwrap: the bridge is connected
  // before the filter, so no other path-named socket in the view is reachable.
  auto filter = filters_.get({spec.network, true});
  if (!filter) return std::move(filter).error();
  auto scratch = makeScratch(config_.tempRoot, ownerLine(spec));
  if (!scratch) return std::move(scratch).error();
  const fs::path filterFile = scratch->dir / "seccomp.bpf";
  Status filterWritten = writeFilter(**filter, filterFile);
  limits::Plan limitsPlan = gvisorLimits(spec.limits, scratch->container);
  const bool hostSocket = bridgeIsSocket(spec) || !spec.egressSocket.empty();
  auto plan = filterWritten ? planGvisor(containerStep(spec, config_.initBinary, filterFile),
                                         {scratch->rootfs, hostSocket, addressSpaceLimit(limitsPlan, spec.limits)},
                                         &bwrap::lstatPath)
                            : Result<GvisorPlan>(filterWritten.error());
  Status written = plan ? writeBundle(*scratch, *plan) : Status(plan.error());
  if (!written) {
    removeSandbox({}, *scratch);
    return written.error();
  }
  return Bundle{std::move(scratch).value(), std::move(plan).value(), std::move(limitsPlan)};
}

Result<std::unique_ptr<process::RunningProcess>> GvisorBackend::launch(const StepSpec& spec) {
  if (Status tools = toolsInstalled(config_); !tools) return tools.error();
  auto bundle = writeStepBundle(spec);
  if (!bundle) return std::move(bundle).error();
  process::SpawnRequest req;
  req.argv = runscArgv(config_.runscPath, bundle->scratch, bundle->plan);
  req.env = spec.env;  // the job marker on runsc too, for the job-completed sweep
  req.cwd = bundle->scratch.bundle.string();
  req.maxOutputBytes = spec.maxOutputBytes;
  req.onOutput = spec.onOutput;
  auto limited = limits::AppliedLimits::prepare(bundle->limits);
  if (limited) req.childSetup = limits::AppliedLimits::childSetups(*limited);
  req.childSetup.push_back(dieWithParent());
  auto proc = limited ? process::spawnSelfCleaningLauncher(req)
                      : Result<std::unique_ptr<process::RunningProcess>>(limited.error());
  if (!proc) {
    for (const fs::path& p : bundle->plan.placeholders) ::rmdir(p.c_str());
    removeSandbox(config_.runscPath, bundle->scratch);
    return std::move(proc).error();
  }
  return process::withPlanNotes(
      process::removingPlaceholdersAfter(
          retiringSandboxAfter(
              limits::releasingLimitsAfter(std::move(proc).value(), std::move(limited).value(), removal_),
              config_.runscPath, std::move(bundle->scratch), removal_),
          bundle->plan.placeholders),
      bundle->plan.notes);
}

std::string GvisorBackend::hostDependencies() {
  if (config_.runscPath.empty()) return "runsc missing";
  const std::string binary = bwrap::bwrapIdentity(config_.runscPath);
  return "runsc " + (binary.empty() ? config_.runscPath + " unreadable" : binary);
}

std::vector<std::string> GvisorBackend::hostNotes() {
  return {
      "linux-gvisor runs each step on gVisor's kernel, with the host's runsc: keep the runsc package updated, "
      "its Sentry is what stands between the step and the host kernel"};
}

std::vector<limits::Enforcement> GvisorBackend::limitsEnforcement(const ResourceLimits& l) {
  return gvisorLimits(l, "report").enforcement;
}

ProbeReport GvisorBackend::runProbe() {
  ProbeObservation obs;
  obs.runscFound = !config_.runscPath.empty();
  if (!obs.runscFound) return interpretProbe(obs);
  process::SpawnRequest version;
  version.argv = {config_.runscPath, "--version"};
  if (auto v = process::spawn(version)) {
    (*v)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(5));
    obs.version = firstLine((*v)->stdoutData().data);
  }
  struct utsname u {};
  ::uname(&u);
  obs.hostRelease = u.release;

  std::string tmpl = (config_.tempRoot / "lw-gvisor-probe-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    obs.failure = "cannot create a scratch directory in " + config_.tempRoot.string();
    return interpretProbe(obs);
  }
  const fs::path scratch = tmpl, ws = scratch / "ws";
  StepSpec spec = canaryStep(scratch, probeScript(scratch.string(), ws.string()));
  writeFile(ws / kHostUnameFile, std::string(u.release) + " " + u.version + "\n");
  writeFile(ws / kHostBootIdFile, readAll("/proc/sys/kernel/random/boot_id"));
  writeFile(ws / kHostModulesFile, readAll("/proc/modules"));
  CanaryRun run = runCanary(*this, spec, std::chrono::seconds(30));
  obs.ran = run.ran;
  obs.tokens = std::move(run.tokens);
  if (!run.launchError.empty())
    obs.failure = run.launchError;
  else if (!run.ran)
    obs.failure = run.stderrText + " (exit status " + std::to_string(run.status) + ")";
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return interpretProbe(obs);
}

const ProbeReport& GvisorBackend::probe() {
  if (report_) return *report_;
  std::string key;
  if (!config_.runscPath.empty()) {
    struct utsname u {};
    ::uname(&u);
    key = "gvisor-probe-v2|" + std::string(kVersion) + "|" + bwrap::bwrapIdentity(config_.runscPath) + "|" + u.release +
          " " + u.version + "|uid " + std::to_string(::getuid());
  }
  report_ = probeThroughCache(config_.cacheFile, config_.readCache, key, [this] { return runProbe(); });
  return *report_;
}

}  // namespace lw::sandbox::gvisor
