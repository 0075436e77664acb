// The run record as GitHub publication wants it: findings per stage (each
// stage its own check run), triage results, the step table, a conclusion,
// and the author steps' accepted changes (their patch files are read; with
// publication.patches none, not even that).
#pragma once

#include <string>

#include "github/actions/github_event.h"
#include "github/publish/conclusion.h"
#include "github/publish/publication.h"
#include "pipeline/run/run_record.h"
#include "policy/model/taskpack.h"

namespace lw::pipeline {

// The run's verdict (github/publish/conclusion.h) over the stages that ran: the
// conclusion publication reports and, mapped in cli/, the exit status.
github::Verdict judgeRecord(const RunRecord& run, FailOn failOn);

github::PublicationRequest toPublicationRequest(const RunRecord& run, const github::GithubEvent& event,
                                                const Publication& options);

}  // namespace lw::pipeline
