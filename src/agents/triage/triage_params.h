// builtin/triage's `with:` (policy/builtin/builtin_catalog.cpp), read from the
// resolved parameters the agent is given.
#pragma once

#include <boost/json/object.hpp>

#include "core/result.h"

namespace lw::agents::triage {

struct TriageParams {
  double duplicateThreshold = 0.5;
  int maxDuplicates = 3;
  bool labels = true;
  bool useModel = false;
  bool checkForms = true;
};

// USAGE_ERROR naming the parameter when one is missing or of the wrong type.
Result<TriageParams> readTriageParams(const boost::json::object& params);

}  // namespace lw::agents::triage
