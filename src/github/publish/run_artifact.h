// The fork split's hand-over (docs/fork-pull-requests.md): the pull_request
// job, whose token cannot write, leaves its publication request in the run
// directory it uploads as an artifact; the workflow_run job, whose token
// can, publishes it. The artifact was made by a job that ran a fork's code
// (and maybe a fork's workflow file), so it is only ever read as data,
// bounded and validated, and where it is posted is decided by the
// workflow_run event and the API, never by the artifact.
#pragma once

#include <cstddef>
#include <string>

#include <boost/json/value.hpp>

#include "core/result.h"
#include "github/actions/workflow_run.h"
#include "github/publish/publication.h"
#include "github/rest/pulls.h"

namespace lw::github {

// The file in the run directory (beside run.json) the artifact carries.
inline constexpr const char* kArtifactRequestFile = "publication.json";
// Far above a real request (the review body alone is capped at 65,536
// characters, findings at the check runs' limits); an artifact that is
// larger was not written by loopwright.
inline constexpr std::size_t kMaxArtifactRequestBytes = 8u << 20;
// The event of the runs whose artifacts are published.
inline constexpr const char* kArtifactEvent = "pull_request";

// Writes <dir>/publication.json. Fails with IO_ERROR.
Status writeArtifactRequest(const std::string& dir, const PublicationRequest& request);

// publication.json as read, before a request is built from it (building is
// the costly part of reading a large one: github/publish/artifact_bounds.h checks
// the caps on the document first).
struct ArtifactDocument {
  std::string file;
  boost::json::value json;
  std::size_t bytes = 0;
  int number = 0;  // the pull request it names
};

// Reads <dir>/publication.json: a regular file (no symlink, FIFO or
// device), at most kMaxArtifactRequestBytes, JSON naming a pull request
// number. Fails with PUBLICATION_FAILED naming the file.
Result<ArtifactDocument> readArtifactDocument(const std::string& dir);

// The request `doc` holds: a valid publication request of a pull request
// with a 40-hex head and a known conclusion, carrying no triage. Fails with
// PUBLICATION_FAILED naming the file and JSON path. What it may hold besides
// is bounded by the base taskpack (artifact_bounds.h).
Result<PublicationRequest> artifactRequestOf(const ArtifactDocument& doc);

// Pure. The request as it may be posted, when the artifact agrees with
// the workflow_run event (a pull_request run on this repository, on the
// artifact's head, for this pull request) and with the pull request as the
// API has it now (same head repository, same head commit). Its id and
// repository are then the event's. Fails with PUBLICATION_FAILED; a head
// that moved on says that the newer push is reviewed by its own run.
Result<PublicationRequest> admitArtifact(PublicationRequest request, const WorkflowRun& run, const PullInfo& pull);

}  // namespace lw::github
