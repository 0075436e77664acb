// The model's findings as the step reports them (findings.json): placed on
// the diff or not at all, and cut down to what is worth a maintainer's time.
#pragma once

#include <vector>

#include "agents/review/model_output.h"
#include "core/finding.h"
#include "diff/unified_diff.h"

namespace lw::agents::review {

// The finding `review/<rule>`. Its lines are kept only when both ends are in
// one hunk of the diff (a suggestion only then too); when only the first is,
// that line alone without the suggestion; when neither, the finding keeps
// its path but no line, so the publisher puts it in the review body — never
// inline — and the message names the lines the model meant.
Finding toFinding(const ModelFinding& m, const diff::DiffIndex& diff);

// The findings at least as severe as `minSeverity` and as confident as
// `minConfidence`, one per (path, lines, rule), then at most `maxFindings`:
// the most severe first, then the most confident (stable otherwise).
std::vector<ModelFinding> keepWorthReporting(std::vector<ModelFinding> findings, Severity minSeverity,
                                             double minConfidence, int maxFindings);

}  // namespace lw::agents::review
