// The runner's end of a k8s-pod step's egress (networkMode allow-list,
// docs/kubernetes.md). The pod's network reaches nothing but its loopback,
// and the run's egress proxy is a unix socket here, so:
//
//   step -> 127.0.0.1:3128 in the pod <- `loopwright-container-init
//   --egress-listen DIR` (an exec whose stdout announces each connection)
//   -> one more exec per connection, `--egress-connect DIR/N.sock`, handed
//   that connection (pod_egress_relay.h) <-> its stdin/stdout
//   (v5.channel.k8s.io, duplex) <-> a new connection to the proxy's socket.
//
// The proxy enforces the allow-list by name, checks the addresses and
// records each denial as for every other backend; the pod holds no secret.
// At most kMaxEgressConnections connections are carried at once (the
// listener closes the next); end() cuts every stream, and the pod's
// deletion ends them all.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <list>
#include <mutex>
#include <string>
#include <thread>

#include "core/result.h"
#include "core/unique_fd.h"
#include "sandbox/k8s/k8s_cluster.h"

namespace lw::sandbox::k8s {

// The listener's directory, which it makes (0700), in the step container's /tmp.
inline constexpr const char* kEgressDirInPod = "/tmp/.loopwright-egress";

class EgressRelay {
 public:
  EgressRelay(ClusterEndpoint endpoint, std::string ns, std::string pod, std::string container,
              std::filesystem::path proxySocket);
  ~EgressRelay();  // cuts and joins: call after the pod is deleted, or the streams may hold it
  EgressRelay(const EgressRelay&) = delete;
  EgressRelay& operator=(const EgressRelay&) = delete;

  // Ok once the listener listens; SANDBOX_LAUNCH_FAILED when it ended first
  // or did not listen by `by` (the step must not start without its way out).
  Status waitListening(std::chrono::steady_clock::time_point by);
  // Cuts every stream: the listener's stdin and each proxy connection.
  void end();

 private:
  struct Carrier {
    UniqueFd proxy;
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void runListener();
  void onAnnouncement(const char* data, std::size_t size);
  void carry(const std::string& number);
  void carryOver(Carrier& carrier, const std::string& socketInPod);

  ClusterEndpoint endpoint_;
  std::string ns_;
  std::string pod_;
  std::string container_;
  std::filesystem::path proxySocket_;
  UniqueFd listenerInput_;  // the runner's end of the listener's stdin (never written: shut down to end it)
  UniqueFd listenerStdin_;  // the exec's
  std::mutex mu_;
  std::condition_variable changed_;
  bool listening_ = false;
  bool finished_ = false;
  bool ended_ = false;
  std::string stderr_;
  std::string failure_;
  std::string partialLine_;
  std::list<Carrier> carriers_;  // under mu_; finished ones joined as new ones come
  std::thread listener_;
};

}  // namespace lw::sandbox::k8s
