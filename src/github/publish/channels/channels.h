// The channels the Publisher drives, one file each; internal to src/github.
// Below the Publisher (github/publish/channels/publisher.h), which calls them.
#pragma once

#include <iosfwd>
#include <optional>
#include <set>
#include <string>

#include "diff/unified_diff.h"
#include "github/publish/channel_outcome.h"
#include "github/publish/inert_request.h"
#include "github/publish/outbox.h"
#include "github/rest/own_login.h"
#include "github/rest/rest_client.h"
#include "github/rest/url_paths.h"

namespace lw::github {

struct PublishContext {
  RestClient& api;
  Outbox& outbox;
  OutboxEntry& entry;         // its progress; its request as the step wrote it
  const InertRequest& inert;  // the request every channel publishes
  std::string ownLogin;
  DiffSource* diffSource;
  std::ostream& log;
  std::optional<diff::DiffIndex> diff;  // set by the review channel when known
  std::set<std::string> carried;        // fingerprints now visible on GitHub
  const PublicationRequest& request() const { return inert.get(); }
  std::string repoPath() const { return "/repos/" + request().repo.owner + "/" + request().repo.name; }
};

// Maps a final response to a channel state (2xx Posted, 403/404 refusals
// PermissionDenied, anything else Failed) with a detail text.
ChannelOutcome outcomeOf(const std::string& channel, const Result<HttpResponse>& r, const std::string& what);

// Six hex digits derived from the name: the same label, the same colour.
std::string labelColour(const std::string& name);
// The sticky comment: marker, labels, completeness, duplicates, step comments.
std::string triageCommentBody(const PublicationRequest& request);

ChannelOutcome publishReview(PublishContext& ctx);
std::vector<ChannelOutcome> publishChecks(PublishContext& ctx);
std::vector<ChannelOutcome> publishTriage(PublishContext& ctx);

// Renders the step summary; bounded by kMaxStepSummaryBytes minus `used`.
std::string renderStepSummary(const PublicationRequest& request, const PublicationOutcome& outcome,
                              const std::string& outboxFile, std::size_t used);

}  // namespace lw::github
