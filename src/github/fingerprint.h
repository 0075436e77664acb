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
// "<!-- loopwright:triage -->", the sticky triage comment.
std::string triageMarker();

// Fingerprints of the finding markers in a body (resolved ones excluded).
std::vector<std::string> findingMarkersIn(std::string_view body);
bool hasResolvedMarker(std::string_view body);

}  // namespace lw::github
