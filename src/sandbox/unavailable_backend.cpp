#include "sandbox/unavailable_backend.h"

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

}  // namespace lw::sandbox
