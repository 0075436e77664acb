// coverage.json's file list and verdict from what each stage decided: the
// selection's skips, the chunker's clips, and what happened to each chunk.
// Skipping generated, vendored, lock, binary, removed and excluded files is
// by design and keeps a review complete; anything else left out of the
// files meant to be reviewed makes it incomplete, with the reasons.
#pragma once

#include "agents/review/chunking.h"
#include "agents/review/coverage.h"
#include "agents/review/file_selection.h"
#include "agents/review/review_run.h"

namespace lw::agents::review {

// Each selected file: reviewed when every chunk with a part of it was;
// skipped, with the first failed chunk's reason, when none was; clipped
// otherwise (or when the chunker clipped one of its hunks). Then the
// selection's skipped files. `complete` and `reason` from all of that, the
// run's stop and budget, and `diffTruncated`.
Coverage summarizeCoverage(const Selection& selection, const ChunkPlan& plan, const RunResult& run, bool diffTruncated);

}  // namespace lw::agents::review
