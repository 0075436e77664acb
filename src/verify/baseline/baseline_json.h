// A baseline as a JSON file, for `loopwright verify snapshot` and `check`
// run as separate processes. The captured bytes stay in the baseline's store
// file, which the JSON names.
#pragma once

#include <string>

#include "core/result.h"
#include "verify/baseline/baseline.h"

namespace lw::verify {

// Writes the baseline to `file` (mode 0600). IO_ERROR when it cannot.
Status saveBaseline(const Baseline& baseline, const std::string& file);

// Reads a file written by saveBaseline. IO_ERROR naming the file and the
// first field that is missing or malformed.
Result<Baseline> loadBaseline(const std::string& file);

}  // namespace lw::verify
