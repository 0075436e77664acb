#include "policy/model/vocabulary.h"

namespace lw {
namespace {

template <class Enum, std::size_t N>
std::optional<Enum> parseBy(std::string_view s, const std::array<Enum, N>& all) {
  for (Enum e : all)
    if (toString(e) == s) return e;
  return std::nullopt;
}

}  // namespace

std::string_view toString(Capability c) {
  switch (c) {
    case Capability::FilesystemReadContainment: return "filesystemReadContainment";
    case Capability::FilesystemWriteContainment: return "filesystemWriteContainment";
    case Capability::ProtectedPathReadOnlyMask: return "protectedPathReadOnlyMask";
    case Capability::NetworkIsolation: return "networkIsolation";
    case Capability::ProcessTreeCleanup: return "processTreeCleanup";
    case Capability::SyscallFiltering: return "syscallFiltering";
  }
  return "?";
}

std::string_view toString(NetworkMode m) {
  switch (m) {
    case NetworkMode::None: return "none";
    case NetworkMode::LoopbackOnly: return "loopback-only";
    case NetworkMode::AllowOutbound: return "allow-outbound";
    case NetworkMode::AllowList: return "allow-list";
  }
  return "?";
}

std::string_view toString(BackendId b) {
  switch (b) {
    case BackendId::MacosSeatbelt: return "macos-seatbelt";
    case BackendId::LinuxBwrap: return "linux-bwrap";
    case BackendId::LinuxLandlock: return "linux-landlock";
    case BackendId::Docker: return "docker";
    case BackendId::DirectDedicated: return "direct-dedicated";
    case BackendId::LinuxGvisor: return "linux-gvisor";
    case BackendId::K8sPod: return "k8s-pod";
  }
  return "?";
}

std::string_view toString(Isolation i) {
  switch (i) {
    case Isolation::L1: return "L1";
    case Isolation::L2: return "L2";
    case Isolation::L3: return "L3";
  }
  return "?";
}

std::string_view toString(Role r) {
  switch (r) {
    case Role::Triage: return "triage";
    case Role::Reviewer: return "reviewer";
    case Role::Author: return "author";
  }
  return "?";
}

std::optional<Capability> parseCapability(std::string_view s) { return parseBy(s, kAllCapabilities); }
std::optional<NetworkMode> parseNetworkMode(std::string_view s) { return parseBy(s, kAllNetworkModes); }
std::optional<BackendId> parseBackendId(std::string_view s) { return parseBy(s, kAllBackends); }
std::optional<Isolation> parseIsolation(std::string_view s) {
  return parseBy(s, std::array{Isolation::L1, Isolation::L2, Isolation::L3});
}
std::optional<Role> parseRole(std::string_view s) {
  return parseBy(s, std::array{Role::Triage, Role::Reviewer, Role::Author});
}

Isolation isolationOf(BackendId b) {
  switch (b) {
    case BackendId::MacosSeatbelt:
    case BackendId::LinuxBwrap:
    case BackendId::LinuxLandlock: return Isolation::L1;
    // It runs the step beside the orchestrator, which holds the GitHub token:
    // a dedicated machine is the job's, not the step's, so never above L1.
    case BackendId::DirectDedicated: return Isolation::L1;
    case BackendId::Docker: return Isolation::L2;
    // gVisor's kernel (the Sentry) between the step and the host's.
    case BackendId::LinuxGvisor: return Isolation::L3;
    // A pod of its own under a gVisor or Kata RuntimeClass, on a node of the
    // cluster: another kernel, and another machine than the orchestrator's.
    case BackendId::K8sPod: return Isolation::L3;
  }
  return Isolation::L1;
}

}  // namespace lw
