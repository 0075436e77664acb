// `run --sarif FILE`: the run's accepted findings, every step's, written as
// one SARIF 2.1.0 file (github/sarif/sarif_export.h).
#pragma once

#include <string>

#include "core/result.h"
#include "github/sarif/sarif_export.h"
#include "pipeline/run/run_record.h"

namespace lw::cli {

// Writes atomically; fails with IO_ERROR naming `path`. The log's counts
// say how many findings had no path and were left out.
Result<github::SarifLog> writeSarifFile(const pipeline::RunRecord& run, const std::string& path);

}  // namespace lw::cli
