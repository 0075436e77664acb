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

}  // namespace lw::sandbox
