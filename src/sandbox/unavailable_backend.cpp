// The backend that stands for one this host or this build cannot have: apart
// from the registry so that a build without the Linux backends
// (LOOPWRIGHT_LINUX_BACKENDS=OFF) has it too.
#include "sandbox/registry.h"

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

std::unique_ptr<Backend> makeUnavailableBackend(BackendId id, std::string reason) {
  return std::make_unique<UnavailableBackend>(id, std::move(reason));
}

std::unique_ptr<Backend> makeK8sPodBackend(const RegistryOptions& options) {
  if (options.kubernetes) {
    k8s::K8sPodConfig config = *options.kubernetes;
    config.readCache = config.readCache && !options.freshProbes;
    return std::make_unique<k8s::K8sPodBackend>(std::move(config));
  }
  return makeUnavailableBackend(BackendId::K8sPod,
                                "k8s-pod runs steps on a cluster the host config names (sandbox.kubernetes, "
                                "docs/kubernetes.md); none is configured");
}

}  // namespace lw::sandbox
