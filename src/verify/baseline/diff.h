// Compares a repository with its baseline: every entry of every watched area
// (stat first; content only where stat differs or the baseline was racy),
// the index by meaning rather than bytes, and the refs as libgit2 reads them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "verify/baseline/baseline.h"
#include "verify/baseline/change.h"

namespace lw::verify {

struct DiffResult {
  std::vector<Change> changes;                // file changes by (area, path), then ref changes
  std::vector<std::string> notes;             // what could not be compared, and why
  std::optional<std::vector<RefState>> refs;  // as read after the step; none when unreadable
};

// Fails with IO_ERROR only when an area cannot be walked at all.
Result<DiffResult> diffAgainstBaseline(const Baseline& baseline);

}  // namespace lw::verify
