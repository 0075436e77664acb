// builtin/reproduce's `with:` (policy/builtin/builtin_catalog.cpp), read from the
// resolved parameters the agent is given.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/result.h"

namespace lw::agents::reproduce {

struct ReproduceParams {
  long long wallTimeMs = 60000;
  std::size_t maxOutputBytes = 65536;
  std::size_t commentLines = 40;
  std::vector<std::string> fields = {"Steps to reproduce", "Reproduction", "To reproduce", "How to reproduce",
                                     "Reproduction steps"};
  std::vector<std::string> errorFields = {"Actual behaviour", "Actual behavior", "Actual result", "Error",
                                          "Error message"};
  bool labels = true;
};

// TASKPACK_INVALID naming the parameter when one is of the wrong type or
// out of its bounds.
Result<ReproduceParams> readReproduceParams(const boost::json::object& params);

}  // namespace lw::agents::reproduce
