#include "pipeline/author/proposed_changes.h"

#include <ctime>
#include <iomanip>
#include <sstream>

#include "core/file_io.h"

namespace lw::pipeline {

namespace {

github::StepRow* rowOf(github::PublicationRequest& req, const std::string& stage, const std::string& step) {
  for (github::StepRow& r : req.steps)
    if (r.stage == stage && r.step == step) return &r;
  return nullptr;
}

// The step table's event column is where a step's notable events are read.
void noteOnRow(github::PublicationRequest& req, const StepRecord& s, const std::string& note) {
  if (github::StepRow* row = rowOf(req, s.stage, s.step)) row->guardrailEvents.push_back(note);
}

// The patch file's path inside the run's out dir: the public name of where
// the whole patch is (the out dir is the run's artifact).
std::string insideOutDir(const std::string& path, const RunRecord& run) {
  const std::string dir = run.outDir.empty() || run.outDir.back() == '/' ? run.outDir : run.outDir + "/";
  if (!dir.empty() && path.compare(0, dir.size(), dir) == 0) return path.substr(dir.size());
  return "";  // elsewhere: the reader is told only that it is in the out dir
}

}  // namespace

Result<std::string> readPatchFile(const std::string& path) {
  return readBoundedFile(path, kMaxPublishedPatchBytes, ErrorCode::PublicationFailed);
}

std::int64_t epochSecondsOf(const std::string& startedAt) {
  std::tm tm{};
  std::istringstream in(startedAt);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  if (in.fail()) return 0;
  return static_cast<std::int64_t>(timegm(&tm));
}

void addProposedChanges(const RunRecord& run, const PatchReader& read,
                        const std::function<std::string(const std::string&)>& publicName,
                        github::PublicationRequest& req) {
  for (const StageRecord& stage : run.stages) {
    if (!stage.ran) continue;
    for (const StepRecord& s : stage.steps) {
      if (!s.change) continue;
      const AuthorChange& c = *s.change;
      if (!c.accepted) {
        noteOnRow(req, s, "change refused, published nowhere: " + c.refusedBecause);
        continue;
      }
      auto patch = read(c.patchFile);
      if (!patch) {
        noteOnRow(req, s, "change not published: " + publicName(patch.error().message));
        continue;
      }
      if (patch->empty()) continue;  // nothing changed: nothing to propose
      req.changes.push_back({s.stage, s.step, c.baseCommit, std::move(patch).value(), insideOutDir(c.patchFile, run),
                             epochSecondsOf(run.startedAt)});
    }
  }
}

}  // namespace lw::pipeline
