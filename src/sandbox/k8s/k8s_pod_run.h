// One step's pod after it was created, as a RunningProcess: a thread waits
// for the pod to run, execs the workspace (and loopwright's files) in, starts
// the bridge's relay and the egress relay and waits until they listen
// (k8s_bridge_relay.h, k8s_egress_relay.h), execs
// the step, then the outputs out (k8s_exec.h, k8s_tar.h), and deletes the
// pod on every path — success, failure, a refused exec, a relay that never
// listened, the deadline, kill(); the relays' streams end with the step and
// are joined after the pod is gone. What a killed loopwright leaves, the
// pod's deadline ends and the job-completed sweep deletes by its labels
// (host/k8s_pod_setup.h).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/http.h"
#include "core/unique_fd.h"
#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_bridge_relay.h"
#include "sandbox/k8s/k8s_cluster.h"
#include "sandbox/k8s/k8s_egress_relay.h"
#include "sandbox/k8s/k8s_tar.h"

namespace lw::sandbox::k8s {

struct PodRunContext {
  http::Transport* transport = nullptr;  // outlives the run (the backend's)
  ClusterEndpoint endpoint;
  std::string ns;
  std::string podName;
  StepSpec spec;      // argv with the pod's paths, the host's workspace and outDir
  std::string input;  // the workspace as a tar stream
  std::chrono::milliseconds startTimeout{180000};
  UntarLimits outputs;
  std::string loopwrightFiles;  // a tar stream for /loopwright (k8s_step_files.h); "" none
  UniqueFd bridge;              // the step's end of its bridge; none without one
  std::chrono::milliseconds relayTimeout{30000};
  // networkMode allow-list: the run's egress proxy, which the step's
  // 127.0.0.1:3128 reaches through the pod (k8s_egress_relay.h); "" none.
  std::filesystem::path egressSocket;
};

class PodRun final : public process::RunningProcess {
 public:
  explicit PodRun(PodRunContext context);
  ~PodRun() override;  // kill() and join: the pod never outlives the object

  int pid() const override { return -1; }  // no local process: the step runs on a node
  process::ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override;
  void kill() override;
  const process::CapturedStream& stdoutData() const override { return out_; }
  const process::CapturedStream& stderrData() const override { return err_; }

 private:
  void run();
  Status runSteps();  // the workspace in, the step, the outputs out
  Status unpack(const std::string& tar, const char* dir, const std::string& what);
  Status startRelay();
  Status startEgress();
  Status deleteOnce();
  void capture(int stream, const char* data, std::size_t size);

  PodRunContext c_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::condition_variable done_;
  bool finished_ = false;
  bool deleted_ = false;
  process::ExitInfo exit_;
  process::CapturedStream out_;
  process::CapturedStream err_;
  std::unique_ptr<BridgeRelay> relay_;   // the worker's alone
  std::unique_ptr<EgressRelay> egress_;  // the worker's alone
  std::thread worker_;
};

}  // namespace lw::sandbox::k8s
