// Hidden markers in what loopwright posts, so that a re-run recognises its
// own comments and reviews instead of posting them again. Only the
// publisher writes them, and each says where its finding came from: this
// repository's own run (trusted) or a fork's artifact. They are read only
// from the HTML nodes of GitHub's own parse of a body (cmark-gfm): text a
// step wrote is never HTML once neutralised (github/markdown/inert_markdown.h), so
// it can never hold one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace lw::github {

// Where a publication's findings come from, least trusted first.
enum class Origin { Artifact, Trusted };
std::string_view toString(Origin o);
std::optional<Origin> originNamed(std::string_view name);

// "<!-- loopwright:finding:<fp>:<origin>:<severity>:<step> -->": enough to
// count the finding in a later run's conclusion while it stays open
// (github/publish/carry_forward.h). `step` is made a name ([A-Za-z0-9._-]).
std::string findingMarker(const std::string& fp, Origin origin, Severity severity, const std::string& step);
// "<!-- loopwright:resolved:<fp>:<origin> -->": a later run resolved the comment.
std::string resolvedMarker(const std::string& fp, Origin origin);
// "<!-- loopwright:review:<head sha>:<publication id>:<origin> -->"
std::string reviewMarker(const std::string& headSha, const std::string& publicationId, Origin origin);
// "<!-- loopwright:partial -->": the review's head was not reviewed whole (a
// step failed or its coverage was incomplete), so no later run may take it
// as the last reviewed head.
std::string partialReviewMarker();
// "<!-- loopwright:triage -->", the sticky triage comment.
std::string triageMarker();

struct FindingMark {
  std::string fingerprint;
  Origin origin = Origin::Artifact;
  std::optional<Severity> severity;  // nullopt in markers of 1.0
  std::string step;                  // "" in markers of 1.0
  std::string literal;               // the marker as it stands in the body
};

struct ReviewMark {
  std::string headSha;  // 40 or 64 hex digits
  std::string publicationId;
  Origin origin = Origin::Artifact;
};

// Every marker of a body. Markers of 1.0 (no origin) count as a fork's:
// nothing vouches for where they came from.
struct BodyMarkers {
  std::vector<FindingMark> findings;
  std::vector<FindingMark> resolved;
  std::optional<ReviewMark> review;  // the first review marker
  bool partial = false;
  bool triage = false;
};
BodyMarkers markersIn(std::string_view body);

// Fingerprints of the finding markers of `origin` or a more trusted one, in
// a body that no resolved marker closed.
std::vector<std::string> openFindingsIn(std::string_view body, Origin atLeast);

// Whether an HTML literal of a body is markup the publisher writes: one of
// its markers, or the <details> around a resolved comment's old text.
bool isPublisherMarkup(std::string_view literal);

}  // namespace lw::github
