#include "agents/output.h"

#include <boost/json/serialize.hpp>

#include "core/file_io.h"
#include "core/json_text.h"

namespace lw::agents {

namespace json = boost::json;

namespace {

json::object toJson(const Finding& f) {
  json::object o{{"ruleId", f.ruleId}, {"severity", toString(f.severity)}, {"message", f.message}};
  if (!f.path.empty()) o["path"] = f.path;
  if (f.line > 0) o["line"] = f.line;
  if (f.endLine > 0) o["endLine"] = f.endLine;
  if (f.suggestion) o["suggestion"] = *f.suggestion;
  return o;
}

// schemas/coverage.schema.json bounds each reason at 1024 characters; cut
// well inside, since repairing a sequence cut in half can add bytes.
constexpr std::size_t kMaxReasonBytes = 1000;
// ... and the dropped findings at 500 (maxItems).
constexpr std::size_t kMaxDropped = 500;

std::string bounded(const std::string& reason) {
  return reason.size() <= kMaxReasonBytes ? reason : reason.substr(0, kMaxReasonBytes - 3) + "...";
}

}  // namespace

Status writeFindings(const std::filesystem::path& outDir, const std::vector<Finding>& findings) {
  json::array list;
  for (const Finding& f : findings) list.push_back(toJson(f));
  return writeFileAtomic((outDir / "findings.json").string(),
                         json::serialize(json::object{{"findings", std::move(list)}}) + "\n", false);
}

Status writeCoverage(const std::filesystem::path& outDir, Coverage coverage) {
  for (FileCoverage& f : coverage.files) f.reason = bounded(f.reason);
  coverage.reason = bounded(coverage.reason);
  if (coverage.dropped.size() > kMaxDropped) coverage.dropped.resize(kMaxDropped);
  for (DroppedFinding& d : coverage.dropped) d.reason = bounded(d.reason);
  // Paths come from the pull request: not necessarily UTF-8.
  return writeFileAtomic((outDir / "coverage.json").string(), toJsonText(toJson(coverage)) + "\n", false);
}

}  // namespace lw::agents
