// Hidden markers in what loopwright posts, so that a re-run recognises its
// own comments and reviews instead of posting them again. Markers are HTML
// comments, invisible in rendered Markdown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace lw::github {

// A stable 16-hex-digit fingerprint of a finding: step, rule, path, lines
// and message. The same finding at the same place has the same fingerprint
// in every run; FNV-1a, so it is the same on every platform and version.
std::string fingerprint(const Finding& f);

// "<!-- loopwright:finding:<fp> -->"
std::string findingMarker(const std::string& fp);
// "<!-- loopwright:resolved:<fp> -->": the comment was resolved by a later run.
std::string resolvedMarker(const std::string& fp);
// "<!-- loopwright:review:<head sha>:<publication id> -->"
std::string reviewMarker(const std::string& headSha, const std::string& publicationId);
// What a review marker says: the head the review was made at, and the run.
struct ReviewMarker {
  std::string headSha;
  std::string publicationId;
};
// The first review marker in `body`; nullopt when there is none or it is
// malformed (the head must be 40 or 64 hex digits).
std::optional<ReviewMarker> parseReviewMarker(std::string_view body);
// "<!-- loopwright:partial -->": the review's head was not reviewed whole (a
// step failed or its coverage was incomplete), so no later run may take it
// as the last reviewed head.
std::string partialReviewMarker();
bool hasPartialReviewMarker(std::string_view body);
// "<!-- loopwright:triage -->", the sticky triage comment.
std::string triageMarker();

// Fingerprints of the finding markers in a body (resolved ones excluded).
std::vector<std::string> findingMarkersIn(std::string_view body);
bool hasResolvedMarker(std::string_view body);

}  // namespace lw::github
