// What an agent leaves in its out dir, in the step contract's files
// (schemas/findings.schema.json, schemas/triage.schema.json,
// schemas/coverage.schema.json).
#pragma once

#include <filesystem>
#include <vector>

#include "core/finding.h"
#include "core/result.h"
#include "core/step_coverage.h"

namespace lw::agents {

// findings.json; `step` of each finding is not written (the pipeline sets it).
Status writeFindings(const std::filesystem::path& outDir, const std::vector<Finding>& findings);

// triage.json as the schema wants it: at most 20 labels and duplicates,
// each bounded, the comment cut to the schema's length on a character
// boundary.
Status writeTriage(const std::filesystem::path& outDir, const TriageResult& result);

// coverage.json, written atomically, each reason cut to the schema's bound.
// IO_ERROR when it cannot be written.
Status writeCoverage(const std::filesystem::path& outDir, Coverage coverage);

}  // namespace lw::agents
