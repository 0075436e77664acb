#include "sandbox/k8s/k8s_bridge_relay.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "sandbox/k8s/k8s_exec.h"
#include "sandbox/k8s/pod_bridge_relay.h"

namespace lw::sandbox::k8s {
namespace {

// The relay's stream lasts as long as the step; the pod's deletion ends it.
constexpr auto kNoDeadline = std::chrono::hours(24 * 365);
constexpr std::size_t kMaxRelayStderr = 4096;

}  // namespace

void sendAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

std::vector<std::string> throughInit(const std::vector<std::string>& argv) {
  std::vector<std::string> out{kInitInPod, kFilterInPod, "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

BridgeRelay::BridgeRelay(ClusterEndpoint endpoint, std::string ns, std::string pod, std::string container,
                         UniqueFd bridge)
    : endpoint_(std::move(endpoint)),
      ns_(std::move(ns)),
      pod_(std::move(pod)),
      container_(std::move(container)),
      bridge_(std::move(bridge)) {
  thread_ = std::thread([this] { run(); });
}

BridgeRelay::~BridgeRelay() {
  end(std::chrono::milliseconds(0));
  if (thread_.joinable()) thread_.join();
}

void BridgeRelay::run() {
  ExecRequest r{ns_,
                pod_,
                container_,
                {kInitInPod, "--bridge-listen", kBridgeSocketInPod},
                std::nullopt,
                [this](int stream, const char* data, std::size_t size) { onOutput(stream, data, size); },
                std::chrono::steady_clock::now() + kNoDeadline};
  r.stdinStream = bridge_.get();
  auto outcome = execInPod(endpoint_, r);
  std::lock_guard<std::mutex> lock(mu_);
  finished_ = true;
  if (!outcome)
    failure_ = outcome.error().message;
  else if (outcome->exitCode != 0)
    failure_ = "the relay ended (" + (outcome->failure.empty() ? "no status" : outcome->failure) + ")";
  changed_.notify_all();
}

void BridgeRelay::onOutput(int stream, const char* data, std::size_t size) {
  if (stream == 1) return sendAll(bridge_.get(), data, size);
  std::lock_guard<std::mutex> lock(mu_);
  if (stderr_.size() < kMaxRelayStderr) stderr_.append(data, std::min(size, kMaxRelayStderr - stderr_.size()));
  if (!listening_ && stderr_.find(kBridgeRelayReady) != std::string::npos) {
    listening_ = true;
    changed_.notify_all();
  }
}

Error relayNotListening(const std::string& what, const std::string& ns, const std::string& pod, bool finished,
                        const std::string& failure, const std::string& relayStderr) {
  std::string why = finished ? "it ended before listening" : "it did not listen in time";
  if (!failure.empty()) why += ": " + failure;
  if (!relayStderr.empty()) why += "; it said: " + relayStderr;
  return makeError(ErrorCode::SandboxLaunchFailed,
                   "the " + what + " relay in pod " + ns + "/" + pod + " failed, " + why,
                   "the pod runs loopwright-container-init, this runner's static binary, from its /loopwright "
                   "emptyDir: the node must allow executing it there (docs/kubernetes.md)",
                   pod);
}

Status BridgeRelay::waitListening(std::chrono::steady_clock::time_point by) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait_until(lock, by, [this] { return listening_ || finished_; });
  if (listening_ && !finished_) return Ok{};
  return relayNotListening("bridge", ns_, pod_, finished_, failure_, stderr_);
}

void BridgeRelay::end(std::chrono::milliseconds grace) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, grace, [this] { return finished_; });
  }
  if (bridge_) ::shutdown(bridge_.get(), SHUT_RDWR);
}

}  // namespace lw::sandbox::k8s
