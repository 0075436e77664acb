// The k8s-pod canary, pure: what only a pod can show about its cluster. The
// API shows a default-deny NetworkPolicy and a RuntimeClass; whether the
// network plugin enforces the policy and whether the node runs the pod on
// the RuntimeClass's kernel, it does not. So the probe runs one pod under the
// same plan and policy as a step (k8s_canary_run.h) whose script tries to
// reach a listener loopwright opens, the API server and a public address,
// and prints the kernel it sees; this turns what it printed into the
// capabilities. Enforced only when every connection failed; L3 only when
// the kernel was the RuntimeClass's.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_preflight.h"

namespace lw::sandbox::k8s {

// Where the canary tries to connect: "listener" (loopwright's, on the
// runner), "api" (the API server), "public" (an address on the internet).
struct CanaryTarget {
  std::string name;
  std::string host;
  int port = 0;
};

// gVisor's /proc/version: its own, whatever the node runs.
inline constexpr const char* kGVisorProcVersion = "Linux version 4.4.0 #1 SMP Sun Jan 10 15:06:54 PST 2016";

// The canary's shell script. Tokens, one a line: B (bash, which makes the
// connections, is there), C:<name> (connected), F:<name> (the connection
// failed: refused, unreachable or timed out), V:<its /proc/version, spaces
// as '_'>. A target with neither C nor F could not be tried.
std::string canaryScript(const std::vector<CanaryTarget>& targets);

struct CanaryObservation {
  bool ran = false;
  std::string failure;             // why the pod did not run or print (launch error, stderr)
  std::set<std::string> tokens;    // what the script printed
  std::vector<std::string> names;  // the targets tried
  int listenerAccepts = 0;         // connections loopwright's listener accepted
  std::string runnerProcVersion;   // this runner's /proc/version
  SandboxRuntime runtime = SandboxRuntime::GVisor;
};

struct CanaryVerdict {
  SupportStatus network;         // NetworkIsolation, and networkMode none
  std::string kernelSeparation;  // ProbeReport::kernelSeparation; "" when not observed
  std::string kernelFailure;     // why not, for the report
};

CanaryVerdict interpretCanary(const CanaryObservation& o);

// "/proc/version" text as the script prints it (spaces as '_', no newline).
std::string versionToken(std::string procVersion);

}  // namespace lw::sandbox::k8s
