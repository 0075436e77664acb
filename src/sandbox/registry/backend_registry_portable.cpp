// The registry of the portable build (backend_registry.cpp is the Linux one):
// the Linux backends are present and unavailable, with the reason.
#include "sandbox/direct/direct_backend.h"
#include "sandbox/registry/backend_registry.h"
#include "sandbox/seatbelt/seatbelt_backend.h"

namespace lw::sandbox {

std::vector<std::unique_ptr<Backend>> makeBackends(const Environment& env, const RegistryOptions& options) {
  constexpr const char* kLinuxOnly = "needs Linux (this loopwright is the portable build)";
  std::vector<std::unique_ptr<Backend>> all;
  all.push_back(seatbelt::makeSeatbeltBackend(env));
  all.push_back(makeUnavailableBackend(BackendId::LinuxBwrap, std::string("linux-bwrap ") + kLinuxOnly));
  all.push_back(makeUnavailableBackend(BackendId::LinuxLandlock, std::string("linux-landlock ") + kLinuxOnly));
  all.push_back(makeUnavailableBackend(BackendId::Docker, std::string("docker ") + kLinuxOnly));
  all.push_back(direct::makeDirectBackend());
  all.push_back(makeUnavailableBackend(BackendId::LinuxGvisor, std::string("linux-gvisor ") + kLinuxOnly));
  all.push_back(makeK8sPodBackend(options));  // the pod runs on the cluster, whatever this host is
  return all;
}

}  // namespace lw::sandbox
