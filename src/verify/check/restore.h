// Puts changed paths back as the baseline recorded them. Every operation is
// relative to a directory descriptor opened component by component without
// following symlinks, so a symlink planted by the step cannot redirect a
// restore outside the repository. Irreversible: added paths are deleted.
#pragma once

#include <string>
#include <vector>

#include "verify/baseline/baseline.h"
#include "verify/baseline/change.h"

namespace lw::verify {

// Restores every change whose remedy is Remedy::Undo; sets Change::restored
// on those that were. Returns what failed, one line each (empty: everything
// to undo that was restorable was restored).
std::vector<std::string> restoreChanges(const Baseline& baseline, std::vector<Change>& changes);

}  // namespace lw::verify
