#include "sandbox/docker/docker_backend.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "core/executables.h"
#include "core/file_io.h"
#include "core/hex.h"
#include "sandbox/docker/container_process.h"
#include "sandbox/docker/endpoint.h"
#include "sandbox/docker/engine_probe.h"
#include "sandbox/docker/host_paths.h"
#include "sandbox/docker/orphan_reaper.h"
#include "sandbox/process/placeholders.h"
#include "sandbox/process/plan_notes.h"

namespace lw::sandbox::docker {
namespace {

// A name unique on the engine: [a-zA-Z0-9][a-zA-Z0-9_.-]* as Docker wants.
std::string containerName(const std::string& run, const std::string& step) {
  std::string name = "lw-" + run + "-" + step + "-";
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  return name + randomHex(16);
}

// A private directory with what one container binds from the host besides
// the step's trees: the compiled filter and an empty directory (to mask
// missing protected paths). Gone with this object: a started container keeps
// its binds.
class LaunchFiles {
 public:
  static Result<LaunchFiles> write(const seccomp::BpfProgram& program) {
    char dir[] = "/tmp/lw-docker-XXXXXX";
    if (::mkdtemp(dir) == nullptr) return failure("mkdtemp /tmp/lw-docker-XXXXXX", errno);
    LaunchFiles f(dir);
    if (::mkdir(f.emptyDir().c_str(), 0555) != 0) return failure("mkdir " + f.emptyDir(), errno);
    const auto& code = program.instructions();
    const std::string_view bytes(reinterpret_cast<const char*>(code.data()), code.size() * sizeof(code[0]));
    if (auto st = writeFileAtomic(f.filterPath(), bytes, /*sync=*/false); !st) return st.error();
    return f;
  }
  LaunchFiles(LaunchFiles&& o) noexcept : dir_(std::move(o.dir_)) { o.dir_.clear(); }
  LaunchFiles(const LaunchFiles&) = delete;
  ~LaunchFiles() {
    if (dir_.empty()) return;
    ::unlink(filterPath().c_str());
    ::rmdir(emptyDir().c_str());
    ::rmdir(dir_.c_str());
  }
  std::string filterPath() const { return dir_ + "/seccomp.bpf"; }
  std::string emptyDir() const { return dir_ + "/empty"; }

 private:
  explicit LaunchFiles(std::string dir) : dir_(std::move(dir)) {}
  static Error failure(const std::string& what, int err) {
    return makeError(ErrorCode::SandboxLaunchFailed, "docker: " + what + ": " + std::strerror(err), {}, "docker");
  }
  std::string dir_;
};

}  // namespace

DockerConfig dockerConfigFromEnvironment(const Environment& env) {
  DockerConfig config;
  auto socket = dockerSocketPath(env);
  if (socket)
    config.socketPath = *socket;
  else
    config.endpointError = socket.error();
  const auto runId = env.get("GITHUB_RUN_ID");
  if (runId && !runId->empty())
    config.runLabel = *runId + "-" + env.get("GITHUB_RUN_ATTEMPT").value_or("1");
  else
    config.runLabel = "local-" + std::to_string(::getpid());
  config.initBinary = siblingExecutable(kContainerInitExecutable);
  return config;
}

DockerBackend::DockerBackend(DockerConfig config, std::shared_ptr<HttpTransport> transport)
    : config_(std::move(config)), transport_(std::move(transport)) {
  if (!transport_) transport_ = engineTransport(config_.socketPath);
}

const EngineFacts& DockerBackend::engineFactsLocked() {
  if (facts_) return *facts_;
  EngineFacts facts;
  facts.socketPath = config_.socketPath;
  if (config_.endpointError) {
    facts.unreachableReason = config_.endpointError->message;
  } else {
    EngineClient client(transport_, config_.probeTimeout);
    facts = observeEngine(client, config_.socketPath);
  }
  std::error_code ec;
  facts.initBinary = config_.initBinary.string();
  facts.initInstalled = std::filesystem::is_regular_file(config_.initBinary, ec);
  facts_ = std::move(facts);
  return *facts_;
}

const ProbeReport& DockerBackend::probe() {
  std::lock_guard lock(probeMutex_);
  if (!report_) report_ = classifyEngine(engineFactsLocked());
  return *report_;
}

std::string DockerBackend::hostDependencies() {
  std::lock_guard lock(probeMutex_);
  return "docker " + engineIdentity(engineFactsLocked());
}

std::vector<std::string> DockerBackend::hostNotes() {
  std::lock_guard lock(probeMutex_);
  return engineNotes(engineFactsLocked());
}

// The engine and the image: what refuses a step before any file is written.
Result<PinnedImage> DockerBackend::launchableImage(const StepSpec& spec) {
  const ProbeReport& report = probe();
  if (!report.available)
    return makeError(ErrorCode::SandboxBackendUnavailable, "docker: " + report.unavailableReason,
                     "start dockerd, or set DOCKER_HOST=unix:///path/to/docker.sock", "docker");
  if (!spec.image)
    return makeError(ErrorCode::SandboxLaunchFailed, "docker: no container image for this step",
                     "docker runs only images pinned by digest in a host runtime profile "
                     "(runtimeProfiles in the host config) or given with sandbox exec --image",
                     "docker");
  return parsePinnedImage(*spec.image);
}

// Everything but the launch's own files (filterFile, emptyDir).
ContainerPlanInput DockerBackend::planInput(const StepSpec& spec, const PinnedImage& image) {
  ContainerPlanInput input;
  input.spec = spec;
  input.initBinary = config_.initBinary.string();
  input.image = image;
  // The same identity as the other backends give a step: the orchestrator's.
  // As root that is uid 0 without any capability (CapDrop ALL).
  input.user = config_.user.value_or(std::to_string(::getuid()) + ":" + std::to_string(::getgid()));
  input.runLabel = config_.runLabel;
  const auto step = spec.env.find("LOOPWRIGHT_STEP");
  input.stepLabel = step != spec.env.end() ? step->second : "step-" + std::to_string(++launches_);
  input.facts = observePaths(pathsToObserve(spec));
  return input;
}

Result<std::unique_ptr<process::RunningProcess>> DockerBackend::launch(const StepSpec& spec) {
  auto image = launchableImage(spec);
  if (!image) return image.error();
  // New unix sockets refused: the container init connects the bridge before
  // it installs the filter.
  auto filter = filters_.get({spec.network, true});
  if (!filter) return filter.error();
  auto files = LaunchFiles::write(**filter);
  if (!files) return files.error();
  ContainerPlanInput input = planInput(spec, *image);
  input.filterFile = files->filterPath();
  input.emptyDir = files->emptyDir();
  auto plan = planContainer(input);
  if (!plan) return plan.error();
  return createAndStart(spec, *plan, containerName(config_.runLabel, input.stepLabel));
}

// `name` is chosen before the container exists, so that the watchdog can
// remove it whenever this process dies, even halfway through the create request.
Result<std::unique_ptr<process::RunningProcess>> DockerBackend::createAndStart(const StepSpec& spec,
                                                                               const ContainerPlan& plan,
                                                                               const std::string& name) {
  std::optional<OrphanReaper> reaper;
  if (config_.reapOrphans) {
    auto watching = OrphanReaper::watch(config_.socketPath, name);
    if (!watching) return watching.error();
    reaper.emplace(std::move(watching).value());
  }
  auto client = std::make_shared<EngineClient>(transport_, config_.callTimeout);
  auto id = client->create(plan.body, name);
  if (!id) {
    if (reaper) reaper->containerRemoved();  // nothing was created
    return id.error();
  }
  // Owned from here on: any failure below removes the container.
  auto container =
      std::make_unique<ContainerProcess>(client, *id, spec.maxOutputBytes, config_.killGrace, spec.onOutput);
  if (reaper) container->guardAgainstOrphaning(std::move(*reaper));
  auto started = container->start();
  // The engine creates the placeholders' mount points on the host (in the
  // writable tree) at start; they go after the container, on failure too.
  auto running = process::removingPlaceholdersAfter(std::move(container), plan.placeholders);
  if (!started) return started.error();
  return process::withPlanNotes(std::move(running), plan.notes);
}

std::unique_ptr<Backend> makeDockerBackend(const Environment& env) {
  return std::make_unique<DockerBackend>(dockerConfigFromEnvironment(env));
}

}  // namespace lw::sandbox::docker
