// The author steps' changes a publication carries: only accepted ones, with
// their patch text read from the step's patch file. A refused change is
// published nowhere; only its refusal reaches the step summary.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"
#include "github/publish/publication.h"
#include "pipeline/run/run_record.h"

namespace lw::pipeline {

// Reads a patch file; the real one is bounded (kMaxPublishedPatchBytes).
using PatchReader = std::function<Result<std::string>(const std::string& path)>;

// A larger patch is not put in a publication (the outbox keeps it whole).
inline constexpr std::size_t kMaxPublishedPatchBytes = 8u << 20;

Result<std::string> readPatchFile(const std::string& path);

// The commit time a branch commit gets: `startedAt` ("2026-01-02T03:04:05Z")
// in seconds since the epoch; 0 when it does not parse.
std::int64_t epochSecondsOf(const std::string& startedAt);

// Adds to `req` every accepted change of the stages that ran; for a refused
// change, or one whose patch cannot be read, a line in its step's row.
// `publicName` turns a runner path into public text.
void addProposedChanges(const RunRecord& run, const PatchReader& read,
                        const std::function<std::string(const std::string&)>& publicName,
                        github::PublicationRequest& req);

}  // namespace lw::pipeline
