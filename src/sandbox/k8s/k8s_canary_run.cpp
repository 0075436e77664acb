#include "sandbox/k8s/k8s_canary_run.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sandbox/k8s/k8s_exec.h"
#include "sandbox/probe_canary.h"

namespace lw::sandbox::k8s {
namespace {

// This runner's IPv4 address toward `target` (a connected UDP socket sends
// nothing); 127.0.0.1 when it cannot tell.
std::string localAddressToward(const CanaryTarget& target) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  std::string out = "127.0.0.1";
  if (::getaddrinfo(target.host.c_str(), std::to_string(target.port).c_str(), &hints, &found) != 0) return out;
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in local{};
  socklen_t size = sizeof local;
  char text[INET_ADDRSTRLEN] = {};
  if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &size) == 0 &&
      ::inet_ntop(AF_INET, &local.sin_addr, text, sizeof text) != nullptr)
    out = text;
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(found);
  return out;
}

// A listener the canary must not reach, counting what it accepts.
class Listener {
 public:
  explicit Listener(const std::string& address) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    socklen_t size = sizeof a;
    if (fd_ < 0 || ::inet_pton(AF_INET, address.c_str(), &a.sin_addr) != 1 ||
        ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size) != 0)
      return;
    target_ = {"listener", address, ntohs(a.sin_port)};
    thread_ = std::thread([this] { acceptUntilStopped(); });
  }
  ~Listener() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  const CanaryTarget& target() const { return target_; }
  int accepted() const { return accepted_; }

 private:
  void acceptUntilStopped() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      ++accepted_;
      ::close(client);
    }
  }

  int fd_ = -1;
  CanaryTarget target_{"listener", "", 0};
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread thread_;
};

std::string readProcVersion() {
  std::ifstream in("/proc/version");
  std::string line;
  std::getline(in, line);
  return line;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

CanaryTarget apiTarget(const std::string& server) {
  const std::optional<ServerAddress> a = serverAddress(server);
  return a ? CanaryTarget{"api", a->host, std::atoi(a->port.c_str())} : CanaryTarget{"api", "", 0};
}

CanaryVerdict runCanaryPod(Backend& backend, const CanaryRunInput& input) {
  const CanaryTarget api = apiTarget(input.endpoint.server);
  Listener listener(localAddressToward(api));
  std::vector<CanaryTarget> targets{listener.target(), api, input.publicAddress};
  CanaryObservation o;
  o.runtime = input.runtime;
  o.runnerProcVersion = readProcVersion();
  for (const CanaryTarget& t : targets) o.names.push_back(t.name);
  char tmpl[] = "/tmp/lw-k8s-canary-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) {
    o.failure = "cannot create a scratch directory in /tmp";
    return interpretCanary(o);
  }
  const std::filesystem::path scratch = tmpl;
  CanaryRun run = runCanary(backend, canaryStep(scratch, canaryScript(targets)), input.timeout);
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  o.ran = run.ran;
  o.tokens = std::move(run.tokens);
  o.failure = !run.launchError.empty()
                  ? run.launchError
                  : firstLine(run.stderrText) + " (exit status " + std::to_string(run.status) + ")";
  o.listenerAccepts = listener.accepted();
  return interpretCanary(o);
}

}  // namespace lw::sandbox::k8s
