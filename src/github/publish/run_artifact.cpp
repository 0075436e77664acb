#include "github/publish/run_artifact.h"

#include <algorithm>
#include <filesystem>
#include <limits>

#include <boost/json.hpp>

#include "core/file_io.h"
#include "core/json_fields.h"
#include "core/json_text.h"

namespace lw::github {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr const char* kArtifactHint =
    "the artifact must be the run directory a loopwright pull_request job uploaded "
    "(docs/fork-pull-requests.md)";

Error artifactError(const std::string& file, const std::string& why, const std::string& path = "") {
  Error e = makeError(ErrorCode::PublicationFailed, "artifact '" + file + "' is invalid: " + why, kArtifactHint, file);
  e.location = Location{.file = file, .line = 0, .column = 0, .path = path};
  return e;
}

Error refused(const std::string& why, const std::string& hint) {
  return makeError(ErrorCode::PublicationFailed, "the artifact was not published: " + why, hint);
}

bool isCommitId(const std::string& s) {
  return s.size() == 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// What a loopwright pull_request run writes; anything else is refused. Its
// options are not looked at: they are the base taskpack's
// (github/publish/artifact_bounds.h).
Status checkRequestShape(const PublicationRequest& r, const std::string& file) {
  if (!r.isPullRequest || r.number <= 0) return artifactError(file, "it is not a pull request's publication", "number");
  if (!isCommitId(r.headSha)) return artifactError(file, "headSha is not a 40-hex commit id", "headSha");
  if (!r.conclusion) return artifactError(file, "it carries no conclusion", "conclusion");
  if (!r.triage.empty())
    return artifactError(file, "it carries triage results; labels and comments are never taken from an artifact",
                         "triage");
  return Ok{};
}

}  // namespace

Status writeArtifactRequest(const std::string& dir, const PublicationRequest& request) {
  return writeFileAtomic((fs::path(dir) / kArtifactRequestFile).string(), toJsonText(toJson(request)) + "\n");
}

Result<ArtifactDocument> readArtifactDocument(const std::string& dir) {
  ArtifactDocument doc;
  doc.file = (fs::path(dir) / kArtifactRequestFile).string();
  std::error_code ec;
  // symlink_status: a link could name any file of the publishing runner; a
  // FIFO would block the read.
  if (fs::symlink_status(doc.file, ec).type() != fs::file_type::regular)
    return artifactError(doc.file, ec ? ec.message() : "not a regular file");
  auto text = readBoundedFile(doc.file, kMaxArtifactRequestBytes, ErrorCode::PublicationFailed);
  if (!text) return artifactError(doc.file, text.error().message);
  doc.bytes = text->size();
  doc.json = json::parse(*text, ec);
  if (ec) return artifactError(doc.file, "not JSON: " + ec.message());
  // An int, as the request reads it: the pull request read by this number
  // is the one the request is posted on.
  const auto number = json_fields::peekInt(doc.json, "number");
  if (!number || *number <= 0 || *number > std::numeric_limits<int>::max())
    return artifactError(doc.file, "it is not a pull request's publication", "number");
  doc.number = static_cast<int>(*number);
  return doc;
}

Result<PublicationRequest> artifactRequestOf(const ArtifactDocument& doc) {
  auto request = publicationFromJson(doc.json);
  if (!request) {
    const Error& e = request.error();
    return artifactError(doc.file, e.message, e.location ? e.location->path : "");
  }
  if (auto s = checkRequestShape(*request, doc.file); !s) return std::move(s).error();
  return request;
}

Result<PublicationRequest> admitArtifact(PublicationRequest request, const WorkflowRun& run, const PullInfo& pull) {
  const std::string where = "pull request #" + std::to_string(request.number);
  if (run.event != kArtifactEvent)
    return refused("the workflow run it came from ran on '" + run.event + "', not " + kArtifactEvent,
                   "trigger the publishing workflow only for the pull_request workflow's runs");
  if (request.repo.fullName() != run.repository.fullName())
    return refused(
        "it names " + request.repo.fullName() + ", but the workflow run is " + run.repository.fullName() + "'s",
        "an artifact is published only on the repository whose workflow made it");
  if (request.headSha != run.headSha)
    return refused("it reviewed " + request.headSha + ", but the workflow run ran on " + run.headSha,
                   "publish the artifact of that workflow run only");
  if (!run.pullNumbers.empty() &&
      std::find(run.pullNumbers.begin(), run.pullNumbers.end(), request.number) == run.pullNumbers.end())
    return refused(where + " is not one the workflow run was for", "publish the artifact of that workflow run only");
  if (pull.headRepo != run.headRepository)
    return refused(where + " comes from " + (pull.headRepo.empty() ? "a deleted repository" : pull.headRepo) +
                       ", but the workflow run ran on " + run.headRepository,
                   "publish the artifact of that workflow run only");
  if (pull.headSha != request.headSha)
    return refused(where + " has moved on: its head is now " + pull.headSha + ", the artifact reviewed " +
                       request.headSha + "; nothing was posted",
                   "the newer push is reviewed by its own run; nothing needs doing");
  request.repo = run.repository;
  request.id = "workflow-run-" + std::to_string(run.id) + "-" + std::to_string(run.attempt);
  // Whatever the artifact says, its findings are a fork's job's claim; what
  // earlier reviews left open is read by a trusted run, never taken from it.
  request.origin = Origin::Artifact;
  for (StageResult& stage : request.stages) stage.carried.clear();
  return request;
}

}  // namespace lw::github
