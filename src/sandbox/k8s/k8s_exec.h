// exec in a running container of a pod, as `kubectl exec` does it: GET
// /api/v1/namespaces/{ns}/pods/{name}/exec?command=..&container=.. upgraded
// to a WebSocket with the v5.channel.k8s.io subprotocol. Each message's
// first byte is its channel: stdin 0, stdout 1, stderr 2, the outcome 3 (a
// meta/v1 Status: Success, or NonZeroExitCode with the code in its causes),
// resize 4; a message on 255 naming channel 0 closes stdin (new in v5: the
// command sees end of file without the connection closing).
//
// Either the whole stdin is sent first, then stdin is closed and the output
// read until the outcome (what the workspace and outputs need), or stdin
// streams from a descriptor while the output is read (both directions at
// once, for an interactive peer such as the bridge).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/k8s/k8s_cluster.h"

namespace lw::sandbox::k8s {

struct ExecRequest {
  std::string ns;
  std::string pod;
  std::string container;
  std::vector<std::string> command;
  std::optional<std::string> stdinData;  // nullopt: no stdin
  // Each piece of stdout (1) and stderr (2) as it arrives.
  std::function<void(int stream, const char* data, std::size_t size)> onOutput;
  std::chrono::steady_clock::time_point deadline;
  // >= 0 (and no stdinData): its bytes go to stdin as they come, stdin closed
  // at its end, while the output is read. Not owned.
  int stdinStream = -1;
};

struct ExecOutcome {
  int exitCode = -1;      // from the Status on channel 3
  std::string failure;    // the Status's message when not Success, for the report
  bool finished = false;  // false: the stream ended before the outcome (the pod went away)
};

// SANDBOX_LAUNCH_FAILED when the API server cannot be reached, refuses the
// upgrade (its Status message is carried) or breaks the protocol.
Result<ExecOutcome> execInPod(const ClusterEndpoint& endpoint, const ExecRequest& request);

// Where an API server URL ("https://10.0.0.1:6443") points: the scheme's
// port without one, an IPv6 host without its brackets; nullopt when it is
// not http(s).
struct ServerAddress {
  bool tls = false;
  std::string host;
  std::string port;
};
std::optional<ServerAddress> serverAddress(const std::string& server);

// The target of the upgrade request: the exec path and its query, every
// argument percent-encoded.
std::string execTarget(const ExecRequest& request);

}  // namespace lw::sandbox::k8s
