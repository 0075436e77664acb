// ProbeReport as JSON: what `sandbox backends --json` prints and what the
// on-disk probe cache stores.
#pragma once

#include <optional>

#include <boost/json/value.hpp>

#include "sandbox/backend.h"

namespace lw::sandbox {

// {"backend", "available", "unavailableReason", "version",
//  "capabilities": {name: {"status", "reason"}}, "networkModes": {…}}
boost::json::value toJson(const ProbeReport& report);

// The inverse; nullopt for anything malformed (a corrupt cache is re-probed).
std::optional<ProbeReport> probeReportFromJson(const boost::json::value& json);

}  // namespace lw::sandbox
