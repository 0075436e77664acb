#include "sandbox/backend.h"

#include "sandbox/limits/limits_applier.h"
#include "sandbox/limits/limits_host.h"

namespace lw::sandbox {

std::string_view toString(Support s) {
  switch (s) {
    case Support::Enforced: return "enforced";
    case Support::Partial: return "partial";
    case Support::Absent: return "absent";
  }
  return "absent";
}

std::vector<limits::Enforcement> Backend::limitsEnforcement(const ResourceLimits& l) {
  return limits::planLimits(l, limits::observedHostLimitFacts(), "report",
                            {"", std::string(limits::kNoPrivateTmp)})
      .enforcement;
}

}  // namespace lw::sandbox
