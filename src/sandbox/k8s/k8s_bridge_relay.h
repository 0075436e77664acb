// The bridge carried into a k8s-pod step's pod (docs/kubernetes.md). A pod
// cannot be handed a descriptor, so the step's bridge (the pipeline's end of
// a socket pair, StepSpec::passFd) travels over one exec stream:
//
//   bridge fd <-> exec stdin/stdout (v5.channel.k8s.io, duplex) <->
//   `loopwright-container-init --bridge-listen SOCKET` in the step's container
//   <-> the one connection the step's own init makes to SOCKET, as fd 3.
//
// The relay listens in a directory of its own under the step container's
// /tmp, accepts ONE connection and unlinks the socket (pod_bridge_relay.h);
// the step's exec starts only once it listens, through the init
// (LOOPWRIGHT_BRIDGE=SOCKET: fd 3 connected, then loopwright's seccomp
// filter, under which no new socket can be opened). What the step asks of
// the bridge is answered on the runner, budgets, loop detection and
// credentials included; the pod gets no secret.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "core/unique_fd.h"
#include "sandbox/k8s/k8s_cluster.h"

namespace lw::sandbox::k8s {

// Where loopwright's files are in the pod (the /loopwright volume).
inline constexpr const char* kInitInPod = "/loopwright/loopwright-container-init";
inline constexpr const char* kFilterInPod = "/loopwright/seccomp.bpf";
inline constexpr const char* kEventInPod = "/loopwright/event.json";
// The relay's socket, in a directory it makes (0700) in the step container's /tmp.
inline constexpr const char* kBridgeSocketInPod = "/tmp/.loopwright-bridge/bridge.sock";

// Every byte to the socket `fd`, or as many as it took before it failed (a
// peer gone drops the rest: the stream it came on ends too).
void sendAll(int fd, const char* data, std::size_t size);

// The step's argv through the init: the bridge at fd 3, then the filter.
std::vector<std::string> throughInit(const std::vector<std::string>& argv);

// The error of a relay in a pod (`what`: "bridge" or "egress") that ended
// before it listened (`finished`) or did not listen in time, with the exec's
// failure and the relay's own stderr lines.
Error relayNotListening(const std::string& what, const std::string& ns, const std::string& pod, bool finished,
                        const std::string& failure, const std::string& relayStderr);

// The relay's exec in the step's container, joined to the bridge, on a
// thread of its own from construction until the stream ends: the step ends
// its connection, end() cuts it, or the pod is deleted.
class BridgeRelay {
 public:
  BridgeRelay(ClusterEndpoint endpoint, std::string ns, std::string pod, std::string container, UniqueFd bridge);
  ~BridgeRelay();  // cuts and joins: call after the pod is deleted, or the stream may hold it
  BridgeRelay(const BridgeRelay&) = delete;
  BridgeRelay& operator=(const BridgeRelay&) = delete;

  // Ok once the relay listens; SANDBOX_LAUNCH_FAILED when it ended first or
  // did not listen by `by` (the step must not start without its bridge).
  Status waitListening(std::chrono::steady_clock::time_point by);
  // After the step: up to `grace` for its last bytes to reach the bridge
  // (the relay ends when the step's connection closes), then the stream is
  // cut: the bridge's descriptor shut down, so stdin ends and no write blocks.
  void end(std::chrono::milliseconds grace);

 private:
  void run();
  void onOutput(int stream, const char* data, std::size_t size);

  ClusterEndpoint endpoint_;
  std::string ns_;
  std::string pod_;
  std::string container_;
  UniqueFd bridge_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool listening_ = false;
  bool finished_ = false;
  std::string stderr_;  // the relay's own lines, for a failure's message
  std::string failure_;
  std::thread thread_;
};

}  // namespace lw::sandbox::k8s
