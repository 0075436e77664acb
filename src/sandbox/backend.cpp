#include "sandbox/backend.h"

namespace lw::sandbox {

std::string_view toString(Support s) {
  switch (s) {
    case Support::Enforced: return "enforced";
    case Support::Partial: return "partial";
    case Support::Absent: return "absent";
  }
  return "absent";
}

Status refuseHeldStart(const StepSpec& spec, BackendId backend) {
  if (!spec.holdStart) return Ok{};
  return makeError(ErrorCode::Internal,
                   std::string(toString(backend)) + " cannot hold a step's start until it is resumed",
                   "launch it unheld, after the baseline", std::string(toString(backend)));
}

}  // namespace lw::sandbox
