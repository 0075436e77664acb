// The pure half of the pull-request review: which findings become inline
// comments, which go to the review body, which were already posted by an
// earlier run, and which of our own earlier comments are now outdated; and
// the request bodies that carry the decision.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"
#include "diff/unified_diff.h"
#include "github/publish/channels/resolve_plan.h"
#include "github/publish/markers.h"
#include "policy/model/taskpack.h"

namespace lw::github {

struct InlineComment {
  Finding finding;
  std::string fingerprint;
  diff::CommentPlacement placement;
  std::string path;
  Origin origin = Origin::Trusted;  // what its marker says
};

struct BodyFinding {
  Finding finding;
  std::string fingerprint;
};

struct ReviewPlan {
  Origin origin = Origin::Trusted;  // what the markers of this review say
  std::vector<InlineComment> inlineComments;
  std::vector<BodyFinding> outsideDiff;  // not on a line of the diff
  std::vector<BodyFinding> overflow;     // on the diff, over the inline budget
  std::vector<std::int64_t> resolve;     // our comments whose finding is gone
  std::size_t alreadyPosted = 0;         // skipped: an earlier run posted them
  bool hasNew() const { return !inlineComments.empty() || !outsideDiff.empty() || !overflow.empty(); }
};

// Errors first, then by path and line; ties keep their order.
std::vector<Finding> rankFindings(std::vector<Finding> findings);

// `diff` null means the diff is unknown: every finding goes to the body.
// `posted` holds the fingerprints found in our earlier comments and reviews
// (of this origin or a more trusted one); the plan's markers carry
// `resolve.origin`.
// `resolveIn`: the files in which gone findings are resolved (resolve_plan.h;
// nullopt: every file).
ReviewPlan planReview(const std::vector<Finding>& findings, const diff::DiffIndex* diff,
                      const std::set<std::string>& posted, const std::vector<OwnComment>& own, int maxInline,
                      const ResolveRule& resolve = {});

// The Markdown of one inline comment, with a `suggestion` block when the
// finding has one and its range was not clipped, and the hidden marker.
std::string inlineCommentBody(const InlineComment& c);

// GitHub's limit on a review or comment body is 65,536 characters.
inline constexpr std::size_t kMaxBodyChars = 65536;

// The review body: the run marker, counts, and the body findings with their
// markers; truncated with a note naming where the rest is (the check run and
// the step summary) when over kMaxBodyChars.
std::string reviewBody(const ReviewPlan& plan, const std::string& headSha, const std::string& publicationId,
                       int maxInline);

// "COMMENT", or "REQUEST_CHANGES" when the mode asks for it and a finding
// reaches the fail level.
std::string reviewEvent(const ReviewPlan& plan, ReviewMode mode, FailOn failOn);

// POST /repos/{owner}/{repo}/pulls/{n}/reviews body. `event` empty makes a
// pending review (used to probe which comments GitHub refuses).
boost::json::value reviewPayload(const std::vector<InlineComment>& comments, const std::string& headSha,
                                 const std::string& body, const std::string& event);

// The body an outdated comment of ours is edited to: its finding markers
// become resolved markers of the same origin.
std::string resolvedCommentBody(const std::string& oldBody, const std::string& headSha);

}  // namespace lw::github
