// The enforcement of a step's limits as JSON, for the run record and
// `sandbox exec --report`: [{limit, value, enforced, mechanism, note}].
#pragma once

#include <vector>

#include <boost/json/array.hpp>

#include "sandbox/limits/limits_plan.h"

namespace lw::sandbox::limits {

// `value` is a number (bytes for sizes) or null when no limit was asked.
boost::json::array toJson(const std::vector<Enforcement>& enforcement);

}  // namespace lw::sandbox::limits
