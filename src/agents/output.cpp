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

// At most `max` bytes, never ending inside a character (the schema's
// bounds; JSON must stay valid UTF-8).
std::string utf8Prefix(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut);
}

json::object triageJson(const TriageResult& result) {
  json::array labels, duplicates;
  for (std::size_t i = 0; i < result.labels.size() && i < 20; ++i)
    if (!result.labels[i].empty() && result.labels[i].size() <= 50) labels.emplace_back(result.labels[i]);
  for (std::size_t i = 0; i < result.duplicates.size() && i < 20; ++i) {
    const auto& d = result.duplicates[i];
    const std::string reason = utf8Prefix(d.reason, 1000);
    duplicates.push_back(json::object{{"number", d.number}, {"reason", reason.empty() ? "similar" : reason}});
  }
  json::object o{{"labels", std::move(labels)}, {"duplicates", std::move(duplicates)}};
  if (result.complete) o["complete"] = *result.complete;
  if (result.reproducible) o["reproducible"] = *result.reproducible;
  if (!result.comment.empty()) o["comment"] = utf8Prefix(result.comment, 65536);
  return o;
}

}  // namespace

Status writeFindings(const std::filesystem::path& outDir, const std::vector<Finding>& findings) {
  json::array list;
  for (const Finding& f : findings) list.push_back(toJson(f));
  return writeFileAtomic((outDir / "findings.json").string(),
                         json::serialize(json::object{{"findings", std::move(list)}}) + "\n", false);
}

Status writeTriage(const std::filesystem::path& outDir, const TriageResult& result) {
  return writeFileAtomic((outDir / "triage.json").string(), json::serialize(triageJson(result)) + "\n", false);
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
