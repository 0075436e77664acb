// The identity of a finding across runs; the hidden markers that carry it
// are in github/publish/markers.h.
#pragma once

#include <string>

#include "core/finding.h"

namespace lw::github {

// A stable 16-hex-digit fingerprint of a finding: step, rule, path, lines
// and message. The same finding at the same place has the same fingerprint
// in every run; FNV-1a, so it is the same on every platform and version.
std::string fingerprint(const Finding& f);

}  // namespace lw::github
