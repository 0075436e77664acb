// The pods of the local Kubernetes API server (local_k8s_server.h), run for
// real as local processes: each container's command is started with the
// container's env and workingDir once the pod is created, and the pod goes
// Pending -> Running -> Succeeded/Failed with container statuses as the
// kubelet reports them. exec runs a command in a running container over
// the v5.channel.k8s.io WebSocket protocol: stdin on channel 0 (closed by a
// 255 message naming channel 0), stdout 1, stderr 2, and the outcome as a
// meta/v1 Status on channel 3, then the close.
//
// What a local process cannot be: the container's image, uid and root
// filesystem (the processes run as the test's user on the host's); its
// volumes are directories under the runtime's root, and a mount path in an
// argument, the working directory or an env value is rewritten to its
// directory. exec's stdin goes to the command as it arrives, while its
// output goes out.
//
// What a node does that a test must observe, the runtime does with
// namespaces and bubblewrap (PodSandbox): a pod a NetworkPolicy denies
// egress gets a network namespace of its own (its loopback only), as a CNI
// that enforces policies would, shared by its containers and every exec in
// it as a pod's is (nsenter into a process that holds it); a pod of a
// sandboxed RuntimeClass sees that runtime's /proc/version (gVisor's kernel
// reports its own).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/json/object.hpp>

#include "support/local_http_server.h"

namespace lw::test {

// What the restricted Pod Security Standard (restricted:latest) refuses in
// `pod`, in the words of the admission message; empty when it passes.
std::vector<std::string> restrictedPodSecurityViolations(const boost::json::object& pod);

// How the node isolates one pod's processes (each exec'd command too).
struct PodSandbox {
  bool ownNetwork = false;  // a network namespace of its own, no interface but loopback
  std::string procVersion;  // "" the host's /proc/version, else the runtime's
};

// Whether bubblewrap, unshare and nsenter, which PodSandbox needs, are installed.
bool nodeSandboxInstalled();

// What gVisor's kernel answers in /proc/version, whatever the node runs.
inline constexpr const char* kLocalGVisorProcVersion = "Linux version 4.4.0 #1 SMP Sun Jan 10 15:06:54 PST 2016";

class LocalPodRuntime {
 public:
  // Called with the pod's new status (a PodStatus) from the runtime's threads.
  using StatusSink = std::function<void(const std::string& key, boost::json::object status)>;

  LocalPodRuntime(std::filesystem::path root, StatusSink sink);
  ~LocalPodRuntime();  // kills every process
  LocalPodRuntime(const LocalPodRuntime&) = delete;
  LocalPodRuntime& operator=(const LocalPodRuntime&) = delete;

  // Starts the containers of `pod` (a validated Pod), known as `key` after.
  void start(const std::string& key, const boost::json::object& pod, const PodSandbox& sandbox = {});
  // Kills the pod's processes and forgets it (the pod was deleted).
  void stop(const std::string& key);
  // "" when `container` of pod `key` runs (exec may start), else why not.
  std::string execRefusal(const std::string& key, const std::string& container) const;
  // Runs `command` in the container as exec does, over `ws`.
  void exec(const std::string& key, const std::string& container, const std::vector<std::string>& command,
            bool withStdin, LocalHttpServer::WebSocket& ws);
  // Processes alive now, exec'd ones included.
  std::size_t liveProcesses() const;

  struct Pod;

 private:
  void watchContainer(const std::string& key, std::size_t index, int pid);
  void report(const std::string& key);  // mu_ held

  std::filesystem::path root_;
  StatusSink sink_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Pod>> pods_;
  std::vector<std::thread> waiters_;
};

}  // namespace lw::test
