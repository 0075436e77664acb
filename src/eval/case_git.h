// The git side of an eval case, through libgit2: its change made real in the
// repository under evaluation, and a linked worktree checked out at its head
// for the run. Writes objects (the patched head commit) and a worktree that
// removeWorktree takes away again; never a ref that outlives the call.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.h"
#include "eval/case_import.h"
#include "eval/eval_case.h"

namespace lw::eval {

struct CaseChange {
  std::string base;  // full commit ids
  std::string head;
  std::string diff;  // base..head, unified, as `git diff` prints it
};

// Resolves the case's base, and its head or its patch (read from
// `caseDir`, applied to the base and committed with a fixed author and
// time, so the same case gives the same head). IO_ERROR naming the case
// when a revision is unknown or the patch does not apply.
Result<CaseChange> makeChange(const std::filesystem::path& repo, const EvalCase& c,
                              const std::filesystem::path& caseDir);

// The fix commit `rev` of `repo`: its id, subject and the diff from it to
// its first parent. USAGE_ERROR for a commit without a parent.
Result<FixCommit> readFixCommit(const std::filesystem::path& repo, const std::string& rev);

}  // namespace lw::eval
