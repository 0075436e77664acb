#include "sandbox/k8s/k8s_pod_run.h"

#include "sandbox/k8s/k8s_exec.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "sandbox/k8s/k8s_pods_api.h"

namespace lw::sandbox::k8s {
namespace {

// The pod is started, watched and ended by deadlines of its own; a step's
// run has no deadline but the one wait() is given.
constexpr auto kNoDeadline = std::chrono::hours(24 * 365);
// After the step ended, how long its last bytes on the bridge may take to arrive.
constexpr std::chrono::milliseconds kRelayGrace{2000};

}  // namespace

PodRun::PodRun(PodRunContext context) : c_(std::move(context)), started_(std::chrono::steady_clock::now()) {
  worker_ = std::thread([this] { run(); });
}

PodRun::~PodRun() {
  kill();
  if (worker_.joinable()) worker_.join();
}

void PodRun::capture(int stream, const char* data, std::size_t size) {
  process::CapturedStream& into = stream == 1 ? out_ : err_;
  into.totalBytes += size;
  if (into.data.size() < c_.spec.maxOutputBytes)
    into.data.append(data, std::min(size, c_.spec.maxOutputBytes - into.data.size()));
  if (c_.spec.onOutput) c_.spec.onOutput(stream, data, size);
}

Status PodRun::unpack(const std::string& tar, const char* dir, const std::string& what) {
  ExecRequest in{c_.ns,
                 c_.podName,
                 kFilesContainer,
                 {"tar", "-x", "-f", "-", "-C", dir},
                 tar,
                 {},
                 std::chrono::steady_clock::now() + kNoDeadline};
  auto unpacked = execInPod(c_.endpoint, in);
  if (!unpacked) return unpacked.error();
  if (unpacked->exitCode != 0)
    return makeError(ErrorCode::SandboxLaunchFailed, what + " could not be unpacked in the pod: " + unpacked->failure,
                     "the image needs tar (docs/kubernetes.md)", c_.podName);
  return Ok{};
}

// The relay before the step: a step must never start without its bridge.
Status PodRun::startRelay() {
  if (!c_.bridge) return Ok{};
  relay_ = std::make_unique<BridgeRelay>(c_.endpoint, c_.ns, c_.podName, kStepContainer, std::move(c_.bridge));
  return relay_->waitListening(std::chrono::steady_clock::now() + c_.relayTimeout);
}

// The same for the egress: a step must never start without its one way out.
Status PodRun::startEgress() {
  if (c_.egressSocket.empty()) return Ok{};
  egress_ = std::make_unique<EgressRelay>(c_.endpoint, c_.ns, c_.podName, kStepContainer, c_.egressSocket);
  return egress_->waitListening(std::chrono::steady_clock::now() + c_.relayTimeout);
}

Status PodRun::runSteps() {
  const auto startBy = std::chrono::steady_clock::now() + c_.startTimeout;
  if (auto running = waitRunning(*c_.transport, c_.endpoint, c_.ns, c_.podName, startBy); !running)
    return running.error();
  if (Status in = unpack(c_.input, kWorkspaceMount, "the workspace"); !in) return in;
  if (!c_.loopwrightFiles.empty())
    if (Status in = unpack(c_.loopwrightFiles, kLoopwrightMount, "loopwright's files"); !in) return in;
  if (Status relay = startRelay(); !relay) return relay;
  if (Status egress = startEgress(); !egress) return egress;
  ExecRequest step{c_.ns,
                   c_.podName,
                   kStepContainer,
                   c_.spec.argv,
                   std::nullopt,
                   [this](int s, const char* d, std::size_t n) { capture(s, d, n); },
                   std::chrono::steady_clock::now() + kNoDeadline};
  auto ran = execInPod(c_.endpoint, step);
  if (relay_) relay_->end(kRelayGrace);
  if (egress_) egress_->end();
  if (!ran) return ran.error();
  {
    std::lock_guard<std::mutex> lock(mu_);
    exit_.exitCode = ran->finished ? ran->exitCode : -1;
    exit_.signal = ran->finished ? 0 : 9;  // the stream ended without an outcome: the pod went away
  }
  if (cancelled_) return Ok{};
  std::string tar;
  ExecRequest out{c_.ns,
                  c_.podName,
                  kFilesContainer,
                  {"tar", "-c", "-f", "-", "-C", kOutMount, "."},
                  std::nullopt,
                  [&tar, this](int s, const char* d, std::size_t n) {
                    if (s == 1 && tar.size() <= c_.outputs.maxBytes * 2) tar.append(d, n);
                  },
                  std::chrono::steady_clock::now() + kNoDeadline};
  auto packed = execInPod(c_.endpoint, out);
  if (!packed) return packed.error();
  if (packed->exitCode != 0)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "the step's outputs could not be read from the pod: " + packed->failure,
                     "the image needs tar (docs/kubernetes.md)", c_.podName);
  auto files = untarInto(tar, c_.spec.outDir, c_.outputs);
  if (!files) return files.error();
  return Ok{};
}

void PodRun::run() {
  Status steps = cancelled_ ? Status(Ok{}) : runSteps();
  if (relay_) relay_->end(std::chrono::milliseconds(0));
  if (egress_) egress_->end();
  Status deleted = deleteOnce();
  relay_.reset();  // the pod is gone: its streams have ended
  egress_.reset();
  std::lock_guard<std::mutex> lock(mu_);
  if (!steps)
    exit_.launchFailure = steps.error();
  else if (!deleted)
    exit_.launchFailure = deleted.error();
  if (exit_.launchFailure && exit_.exitCode == -1 && exit_.signal == 0) exit_.signal = 9;
  exit_.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
  finished_ = true;
  done_.notify_all();
}

Status PodRun::deleteOnce() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (deleted_) return Ok{};
    deleted_ = true;
  }
  return deletePod(*c_.transport, c_.endpoint, c_.ns, c_.podName);
}

process::ExitInfo PodRun::wait(std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  const bool inTime = deadline ? done_.wait_until(lock, *deadline, [this] { return finished_; })
                               : (done_.wait(lock, [this] { return finished_; }), true);
  if (!inTime) {
    lock.unlock();
    kill();
    lock.lock();
    done_.wait(lock, [this] { return finished_; });
    exit_.timedOut = true;
  }
  return exit_;
}

void PodRun::kill() {
  if (cancelled_.exchange(true)) return;
  // Deleting the pod ends every exec stream in it, so the worker returns.
  (void)deleteOnce();
}

}  // namespace lw::sandbox::k8s
