#include "sandbox/registry.h"

#include "policy/resolve.h"
#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/direct/direct_backend.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/seatbelt/seatbelt_backend.h"

namespace lw::sandbox {
namespace {

class UnavailableBackend final : public Backend {
 public:
  UnavailableBackend(BackendId id, std::string reason) {
    report_.backend = id;
    report_.unavailableReason = std::move(reason);
    for (Capability c : kAllCapabilities) report_.capabilities[c] = {Support::Absent, report_.unavailableReason};
    for (NetworkMode m : kAllNetworkModes) report_.networkModes[m] = {Support::Absent, report_.unavailableReason};
  }
  BackendId id() const override { return report_.backend; }
  BackendTraits traits() const override { return {}; }
  const ProbeReport& probe() override { return report_; }
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec&) override {
    return makeError(ErrorCode::SandboxBackendUnavailable, report_.unavailableReason, "",
                     std::string(toString(report_.backend)));
  }

 private:
  ProbeReport report_;
};

}  // namespace

std::vector<BackendId> defaultBackendOrder() { return {kDefaultBackendOrder.begin(), kDefaultBackendOrder.end()}; }

std::unique_ptr<Backend> makeUnavailableBackend(BackendId id, std::string reason) {
  return std::make_unique<UnavailableBackend>(id, std::move(reason));
}

std::vector<std::unique_ptr<Backend>> makeBackends(const Environment& env, const RegistryOptions& options) {
  std::vector<std::unique_ptr<Backend>> all;
  all.push_back(seatbelt::makeSeatbeltBackend(env));
  bwrap::BwrapConfig bwrapConfig = bwrap::bwrapConfigFor(env);
  bwrapConfig.readCache = !options.freshProbes;
  all.push_back(std::make_unique<bwrap::BwrapBackend>(std::move(bwrapConfig)));
  all.push_back(landlock::makeLandlockBackend(env, !options.freshProbes));
  all.push_back(docker::makeDockerBackend(env));
  all.push_back(direct::makeDirectBackend());
  return all;
}

}  // namespace lw::sandbox
