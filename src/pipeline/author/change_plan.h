// Whether an author step's proposed change may be published
// (docs/author-steps.md, "The patch"). Pure: the settled step record and the
// change as its patch was written in; `accepted` and `refusedBecause` out.
// This is where every reason to refuse a change is decided: the step's own
// outcome today, the task contract's checks beside it.
#pragma once

#include <string>

#include "pipeline/run/run_record.h"

namespace lw::pipeline {

// Why `change` may not be published, or empty: a reason already recorded
// when it was made (no patch), the step not passing, or no file changed.
std::string refusalOf(const StepRecord& step, const AuthorChange& change);

// Sets change.accepted and change.refusedBecause from refusalOf.
void decideChange(const StepRecord& step, AuthorChange& change);

}  // namespace lw::pipeline
