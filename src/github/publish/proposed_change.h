// An author step's accepted change as publication carries it: the patch text
// itself (not a path on the runner), so an outbox entry resumed by a later
// run still has it.
#pragma once

#include <cstdint>
#include <string>

#include <boost/json/value.hpp>

namespace lw::github {

struct ProposedChange {
  std::string stage;
  std::string step;
  std::string baseCommit;  // the commit the patch applies to
  std::string patch;       // `git diff --binary` text
  // Where a reader finds the whole patch: its path inside the run's out dir
  // (kept as the run's artifact), never a path on the runner.
  std::string fullPatchAt;
  // The branch commit's time (seconds since the epoch): fixed when the run
  // is recorded, so a retried push makes the same commit.
  std::int64_t committedAt = 0;
};

boost::json::value toJson(const ProposedChange& change);
// Throws json_fields::FieldError naming `path` and the bad field.
ProposedChange proposedChangeFromJson(const boost::json::value& json, const std::string& path);

}  // namespace lw::github
