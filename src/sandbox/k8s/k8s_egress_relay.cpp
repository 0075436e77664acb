#include "sandbox/k8s/k8s_egress_relay.h"

#include <sys/socket.h>
#include <sys/un.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sandbox/k8s/k8s_bridge_relay.h"
#include "sandbox/k8s/k8s_exec.h"
#include "sandbox/k8s/pod_egress_relay.h"

namespace lw::sandbox::k8s {
namespace {

// The streams last as long as the step; end() or the pod's deletion ends them.
constexpr auto kNoDeadline = std::chrono::hours(24 * 365);
constexpr std::size_t kMaxListenerStderr = 4096;
constexpr std::size_t kMaxAnnouncement = 24;  // a decimal number and its newline

UniqueFd connectUnix(const std::filesystem::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.string().size() >= sizeof address.sun_path) return UniqueFd();
  std::strcpy(address.sun_path, path.c_str());
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd || ::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return UniqueFd();
  return fd;
}

}  // namespace

EgressRelay::EgressRelay(ClusterEndpoint endpoint, std::string ns, std::string pod, std::string container,
                         std::filesystem::path proxySocket)
    : endpoint_(std::move(endpoint)),
      ns_(std::move(ns)),
      pod_(std::move(pod)),
      container_(std::move(container)),
      proxySocket_(std::move(proxySocket)) {
  int pair[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0) {
    listenerInput_ = UniqueFd(pair[0]);
    listenerStdin_ = UniqueFd(pair[1]);
  }
  listener_ = std::thread([this] { runListener(); });
}

EgressRelay::~EgressRelay() {
  end();
  if (listener_.joinable()) listener_.join();
  std::list<Carrier> carriers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    carriers.swap(carriers_);
  }
  for (Carrier& c : carriers)
    if (c.thread.joinable()) c.thread.join();
}

void EgressRelay::runListener() {
  if (!listenerStdin_) {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
    failure_ = "no socket pair for its stdin: " + std::string(std::strerror(errno));
    changed_.notify_all();
    return;
  }
  ExecRequest r{ns_,
                pod_,
                container_,
                {kInitInPod, "--egress-listen", kEgressDirInPod},
                std::nullopt,
                [this](int stream, const char* data, std::size_t size) {
                  if (stream == 1) return onAnnouncement(data, size);
                  std::lock_guard<std::mutex> lock(mu_);
                  if (stderr_.size() < kMaxListenerStderr)
                    stderr_.append(data, std::min(size, kMaxListenerStderr - stderr_.size()));
                  listening_ = listening_ || stderr_.find(kEgressRelayReady) != std::string::npos;
                  changed_.notify_all();
                },
                std::chrono::steady_clock::now() + kNoDeadline};
  r.stdinStream = listenerStdin_.get();
  auto outcome = execInPod(endpoint_, r);
  std::lock_guard<std::mutex> lock(mu_);
  finished_ = true;
  if (!outcome)
    failure_ = outcome.error().message;
  else if (outcome->exitCode != 0)
    failure_ = "the relay ended (" + (outcome->failure.empty() ? "no status" : outcome->failure) + ")";
  changed_.notify_all();
}

// Each whole line the listener wrote is one connection to carry.
void EgressRelay::onAnnouncement(const char* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] != '\n') {
      if (partialLine_.size() < kMaxAnnouncement) partialLine_ += data[i];
      continue;
    }
    const std::string number = std::exchange(partialLine_, std::string());
    if (!number.empty() && number.size() < kMaxAnnouncement &&
        std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
      carry(number);
  }
}

void EgressRelay::carry(const std::string& number) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = carriers_.begin(); it != carriers_.end();) {
    if (!it->done) {
      ++it;
      continue;
    }
    it->thread.join();
    it = carriers_.erase(it);
  }
  // The listener holds the same bound; a connection beyond it here is never claimed.
  if (ended_ || carriers_.size() >= kMaxEgressConnections) return;
  Carrier& c = carriers_.emplace_back();
  c.proxy = connectUnix(proxySocket_);
  const std::string socketInPod = std::string(kEgressDirInPod) + "/" + number + ".sock";
  c.thread = std::thread([this, &c, socketInPod] { carryOver(c, socketInPod); });
}

// One connection: the pod's exec joined to a connection of its own to the proxy.
void EgressRelay::carryOver(Carrier& c, const std::string& socketInPod) {
  if (c.proxy) {
    ExecRequest r{ns_,
                  pod_,
                  container_,
                  {kInitInPod, "--egress-connect", socketInPod},
                  std::nullopt,
                  [&c](int stream, const char* data, std::size_t size) {
                    if (stream == 1) sendAll(c.proxy.get(), data, size);
                  },
                  std::chrono::steady_clock::now() + kNoDeadline};
    r.stdinStream = c.proxy.get();
    (void)execInPod(endpoint_, r);  // a failed exec leaves the step's connection unanswered, nothing else
    ::shutdown(c.proxy.get(), SHUT_RDWR);
  }
  c.done = true;
}

Status EgressRelay::waitListening(std::chrono::steady_clock::time_point by) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait_until(lock, by, [this] { return listening_ || finished_; });
  if (listening_ && !finished_) return Ok{};
  return relayNotListening("egress", ns_, pod_, finished_, failure_, stderr_);
}

void EgressRelay::end() {
  std::lock_guard<std::mutex> lock(mu_);
  ended_ = true;
  if (listenerInput_) ::shutdown(listenerInput_.get(), SHUT_RDWR);
  for (Carrier& c : carriers_)
    if (c.proxy) ::shutdown(c.proxy.get(), SHUT_RDWR);
}

}  // namespace lw::sandbox::k8s
