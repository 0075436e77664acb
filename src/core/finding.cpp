#include "core/finding.h"

namespace lw {

std::string_view toString(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Notice: return "notice";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(std::string_view s) {
  if (s == "error") return Severity::Error;
  if (s == "warning") return Severity::Warning;
  if (s == "notice") return Severity::Notice;
  return std::nullopt;
}

}  // namespace lw
