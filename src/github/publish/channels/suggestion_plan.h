// The pure half of publishing an author's patch as review suggestions
// (docs/author-steps.md, "Publishing the change"): which hunks of the patch
// become ```suggestion comments, on which lines, and what goes to the review
// body as a patch instead. A suggestion replaces lines of the pull request's
// head, so a hunk qualifies only when every line it replaces is a RIGHT-side
// line of one hunk of the pull request's diff; binary files, added, deleted,
// renamed or re-moded files never do.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "core/finding.h"
#include "diff/unified_diff.h"
#include "github/publish/proposed_change.h"

namespace lw::github {

inline constexpr const char* kSuggestionRule = "loopwright/suggested-change";
inline constexpr const char* kPatchRule = "loopwright/patch";

// One part of a change as the review carries it. `finding` is a suggestion
// (path, line, endLine, suggestion: the new lines) or, with an empty path,
// the rest of the change that cannot be one; `patch` is that part as patch
// text, shown in the review body whenever the finding ends up there.
struct PatchPiece {
  Finding finding;
  std::string patch;
  std::string fullPatchAt;  // where the whole patch is (public text)
};

struct SuggestionPlan {
  std::vector<PatchPiece> pieces;
};

// `prDiff` null (the diff is unknown) or a change made on another commit than
// `headSha`: the whole change goes to the body.
SuggestionPlan planSuggestions(const std::vector<ProposedChange>& changes, const diff::DiffIndex* prDiff,
                               const std::string& headSha);

std::vector<Finding> findingsOf(const SuggestionPlan& plan);

// The patches of the pieces whose fingerprints are in `inBody`, as fenced
// `diff` blocks for the review body, at most `maxChars`; what is cut is
// counted and the whole patch's place named. Control and bidi characters are
// removed and loopwright's hidden-marker syntax broken, so patch text can
// neither hide content nor forge a marker; "" when nothing is in the body.
std::string patchAppendix(const SuggestionPlan& plan, const std::set<std::string>& inBody, std::size_t maxChars);

}  // namespace lw::github
