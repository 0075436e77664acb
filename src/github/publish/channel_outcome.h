// What a channel of the Publisher reports, and what the whole publication
// came to: the vocabulary the publisher and its channels
// (github/publish/channels/) share, below both.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"
#include "github/publish/publication.h"

namespace lw::github {

class DiffSource {
 public:
  virtual ~DiffSource() = default;
  virtual Result<std::string> unifiedDiff(const PublicationRequest& request) = 0;
};

enum class ChannelState { Posted, AlreadyPosted, Skipped, PermissionDenied, Failed };
std::string_view toString(ChannelState s);

struct ChannelOutcome {
  std::string channel;  // "review", "check: review", "labels", "comment"
  ChannelState state = ChannelState::Skipped;
  std::string detail;
};

struct PublicationOutcome {
  std::string id;
  std::vector<ChannelOutcome> channels;
  std::vector<Finding> annotations;  // printed as workflow-command annotations
  std::vector<Finding> summaryOnly;  // over the annotation limits: only in the summary
  bool complete = false;             // every channel posted or already there
  bool permissionDenied = false;     // some channel was refused 403/404
  // Where the publication stays: done (finished, or refused for good by
  // the token), pending for the next run, or parked after
  // kMaxPublishAttempts failures.
  enum class Kept { Done, Pending, Parked };
  Kept kept = Kept::Done;
  int attempts = 0;
  std::string lastError;  // the failed channels, when not done
};

}  // namespace lw::github
