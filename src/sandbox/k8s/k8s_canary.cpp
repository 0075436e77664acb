#include "sandbox/k8s/k8s_canary.h"

#include <algorithm>

namespace lw::sandbox::k8s {
namespace {

// A host the script may hold in single quotes: DNS names and IP addresses only.
bool plainHost(const std::string& host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '.' || ch == '-' || ch == ':';
  });
}

bool has(const CanaryObservation& o, const std::string& token) { return o.tokens.count(token) != 0; }

std::string seenVersion(const CanaryObservation& o) {
  for (const std::string& t : o.tokens)
    if (t.starts_with("V:")) return t.substr(2);
  return "";
}

SupportStatus networkVerdict(const CanaryObservation& o) {
  if (!o.ran) return {Support::Partial, "the canary pod did not run (" + o.failure + ")"};
  if (!has(o, "B")) return {Support::Partial, "the canary pod's image has no bash to try connections with"};
  std::string reached, untried;
  for (const std::string& name : o.names) {
    if (has(o, "C:" + name)) reached += (reached.empty() ? "" : ", ") + name;
    if (!has(o, "C:" + name) && !has(o, "F:" + name)) untried += (untried.empty() ? "" : ", ") + name;
  }
  if (o.listenerAccepts > 0 && reached.find("listener") == std::string::npos)
    reached += (reached.empty() ? "" : ", ") + std::string("listener (seen by loopwright)");
  if (!reached.empty())
    return {Support::Absent, "the canary pod reached " + reached +
                                 " despite the default-deny NetworkPolicy: the cluster's network plugin does not "
                                 "enforce it"};
  if (!untried.empty()) return {Support::Partial, "the canary pod could not try " + untried};
  return {Support::Enforced,
          "a canary pod under the default-deny NetworkPolicy could reach neither a listener on the runner, nor the "
          "API server, nor a public address: the network plugin enforces it"};
}

}  // namespace

std::string versionToken(std::string procVersion) {
  while (!procVersion.empty() && (procVersion.back() == '\n' || procVersion.back() == ' ')) procVersion.pop_back();
  std::replace(procVersion.begin(), procVersion.end(), ' ', '_');
  std::replace(procVersion.begin(), procVersion.end(), '\t', '_');
  return procVersion;
}

std::string canaryScript(const std::vector<CanaryTarget>& targets) {
  std::string s =
      "command -v bash >/dev/null 2>&1 && echo B\n"
      "try() { timeout 3 bash -c \"exec 3<>/dev/tcp/$2/$3\" >/dev/null 2>&1; rc=$?\n"
      "  case $rc in 0) echo \"C:$1\" ;; 1|124) echo \"F:$1\" ;; esac; }\n";
  for (const CanaryTarget& t : targets)
    if (plainHost(t.host) && t.port > 0) s += "try " + t.name + " '" + t.host + "' " + std::to_string(t.port) + "\n";
  s += "printf 'V:%s\\n' \"$(head -n 1 /proc/version | tr ' \\t' '__')\"\n";
  return s;
}

CanaryVerdict interpretCanary(const CanaryObservation& o) {
  CanaryVerdict v;
  v.network = networkVerdict(o);
  const std::string seen = seenVersion(o);
  const std::string runner = versionToken(o.runnerProcVersion);
  if (!o.ran || seen.empty()) {
    v.kernelFailure = "the canary pod did not show its kernel";
  } else if (seen == runner) {
    v.kernelFailure =
        "the canary pod saw this runner's own kernel (" + seen + "): the RuntimeClass did not take effect";
  } else if (o.runtime == SandboxRuntime::GVisor && seen != versionToken(kGVisorProcVersion)) {
    v.kernelFailure = "the canary pod saw kernel " + seen + ", not gVisor's: the node's runsc handler is not gVisor";
  } else {
    v.kernelSeparation = "a canary pod saw kernel " + seen + " (" +
                         (o.runtime == SandboxRuntime::GVisor ? "gVisor's" : "the Kata VM's, not this runner's") +
                         ") on a node of the cluster";
  }
  return v;
}

}  // namespace lw::sandbox::k8s
