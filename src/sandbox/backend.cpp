#include "sandbox/backend.h"

#include "sandbox/limits/limits_applier.h"
#include "sandbox/limits/limits_host.h"

namespace lw::sandbox {

void markAllAbsent(ProbeReport& r, const std::string& why) {
  for (Capability c : kAllCapabilities) r.capabilities[c] = {Support::Absent, why};
  for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {Support::Absent, why};
}

std::string_view toString(Support s) {
  switch (s) {
    case Support::Enforced: return "enforced";
    case Support::Partial: return "partial";
    case Support::Absent: return "absent";
  }
  return "absent";
}

Isolation observedIsolation(const ProbeReport& r) {
  const Isolation claimed = isolationOf(r.backend);
  if (claimed == Isolation::L3 && r.kernelSeparation.empty()) return Isolation::L1;
  return claimed;
}

process::SpawnRequest spawnRequestFor(const StepSpec& spec) {
  process::SpawnRequest req;
  req.argv = spec.argv;
  req.env = spec.env;  // already the allow-listed step environment, nothing inherited
  req.cwd = (spec.workdir.empty() ? spec.workspace : spec.workdir).string();
  req.passFd = spec.passFd;
  req.maxOutputBytes = spec.maxOutputBytes;
  req.onOutput = spec.onOutput;
  return req;
}

std::vector<limits::Enforcement> Backend::limitsEnforcement(const ResourceLimits& l) {
  return limits::planLimits(l, limits::observedHostLimitFacts(), "report", {"", std::string(limits::kNoPrivateTmp)})
      .enforcement;
}

}  // namespace lw::sandbox
