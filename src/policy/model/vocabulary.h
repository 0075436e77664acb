// The words the taskpack, the host config and the sandbox share: capabilities,
// network modes, backends, isolation levels, roles. Each has one spelling in
// YAML and JSON; parse*() returns nullopt for anything else.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace lw {

enum class Capability {
  FilesystemReadContainment,
  FilesystemWriteContainment,
  ProtectedPathReadOnlyMask,
  NetworkIsolation,
  ProcessTreeCleanup,
  SyscallFiltering,
};
inline constexpr std::array kAllCapabilities = {
    Capability::FilesystemReadContainment, Capability::FilesystemWriteContainment,
    Capability::ProtectedPathReadOnlyMask, Capability::NetworkIsolation,
    Capability::ProcessTreeCleanup,        Capability::SyscallFiltering};

// AllowList: only the hosts of the step's egress list, through the
// orchestrator's egress proxy (docs/egress.md).
enum class NetworkMode { None, LoopbackOnly, AllowOutbound, AllowList };
inline constexpr std::array kAllNetworkModes = {NetworkMode::None, NetworkMode::LoopbackOnly,
                                                NetworkMode::AllowOutbound, NetworkMode::AllowList};

enum class BackendId { MacosSeatbelt, LinuxBwrap, LinuxLandlock, Docker, DirectDedicated, LinuxGvisor, K8sPod };
inline constexpr std::array kAllBackends = {
    BackendId::MacosSeatbelt,   BackendId::LinuxBwrap,  BackendId::LinuxLandlock, BackendId::Docker,
    BackendId::DirectDedicated, BackendId::LinuxGvisor, BackendId::K8sPod};

// What separates a step from the orchestrator and its token (isolation.h):
// L1 local (an OS sandbox, or only the job's VM), L2 container, L3 remote
// (another kernel per step).
enum class Isolation { L1 = 1, L2 = 2, L3 = 3 };

enum class Role { Triage, Reviewer, Author };

std::string_view toString(Capability c);
std::string_view toString(NetworkMode m);
std::string_view toString(BackendId b);
std::string_view toString(Isolation i);
std::string_view toString(Role r);

std::optional<Capability> parseCapability(std::string_view s);
std::optional<NetworkMode> parseNetworkMode(std::string_view s);
std::optional<BackendId> parseBackendId(std::string_view s);
std::optional<Isolation> parseIsolation(std::string_view s);
std::optional<Role> parseRole(std::string_view s);

// The isolation level a backend provides when it runs a step, at most: the
// level of linux-gvisor (L3, another kernel) holds only where its probe saw
// the step run on another kernel (ProbeReport::kernelSeparated, backend.h);
// elsewhere negotiation refuses it for that level.
Isolation isolationOf(BackendId b);

}  // namespace lw
