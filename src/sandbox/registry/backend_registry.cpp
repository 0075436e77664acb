#include "sandbox/registry/backend_registry.h"

#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/direct/direct_backend.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/gvisor/gvisor_backend.h"
#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/seatbelt/seatbelt_backend.h"

namespace lw::sandbox {

std::vector<std::unique_ptr<Backend>> makeBackends(const Environment& env, const RegistryOptions& options) {
  std::vector<std::unique_ptr<Backend>> all;
  all.push_back(seatbelt::makeSeatbeltBackend(env));
  bwrap::BwrapConfig bwrapConfig = bwrap::bwrapConfigFor(env);
  bwrapConfig.readCache = !options.freshProbes;
  all.push_back(std::make_unique<bwrap::BwrapBackend>(std::move(bwrapConfig)));
  all.push_back(landlock::makeLandlockBackend(env, !options.freshProbes));
  all.push_back(docker::makeDockerBackend(env));
  all.push_back(direct::makeDirectBackend());
  gvisor::GvisorConfig gvisorConfig = gvisor::gvisorConfigFor(env);
  gvisorConfig.readCache = !options.freshProbes;
  all.push_back(std::make_unique<gvisor::GvisorBackend>(std::move(gvisorConfig)));
  all.push_back(makeK8sPodBackend(options));
  return all;
}

}  // namespace lw::sandbox
