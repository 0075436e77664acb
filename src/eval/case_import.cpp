#include "eval/case_import.h"

#include <sstream>

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include "diff/unified_diff.h"

namespace lw::eval {
namespace {

// The added lines of a hunk, first to last; else its new-side lines.
LineRange hunkRange(const diff::DiffHunk& h) {
  LineRange r{0, 0};
  for (const diff::DiffLine& l : h.lines) {
    if (l.kind != '+') continue;
    if (r.first == 0) r.first = l.newLine;
    r.last = l.newLine;
  }
  if (r.first == 0 && h.newCount > 0) r = {h.newStart, h.newStart + h.newCount - 1};
  if (r.first == 0 && h.newStart > 0) r = {h.newStart, h.newStart};  // a hunk that leaves nothing of a region
  return r;
}

// A YAML double-quoted scalar: JSON's string syntax is YAML's.
std::string quoted(const std::string& s) { return boost::json::serialize(boost::json::string(s)); }

}  // namespace

Result<std::vector<FindingPattern>> expectationsOf(const std::string& revertDiff) {
  auto index = diff::DiffIndex::parse(revertDiff);
  if (!index) return makeError(ErrorCode::IoError, "the fix's diff does not parse: " + index.error().message);
  std::vector<FindingPattern> out;
  for (const diff::DiffFile& f : index->files()) {
    if (f.newPath.empty() || f.binary) continue;
    for (const diff::DiffHunk& h : f.hunks) {
      LineRange r = hunkRange(h);
      if (r.first == 0) continue;
      FindingPattern p;
      p.path = f.newPath;
      p.lines = r;
      out.push_back(std::move(p));
    }
  }
  if (out.empty())
    return makeError(ErrorCode::UsageError, "the fix changes no line of a text file that its revert keeps",
                     "import a commit that fixes lines of code");
  return out;
}

std::string caseYaml(const FixCommit& fix, const std::vector<FindingPattern>& expect, const std::string& patchFile) {
  std::ostringstream y;
  y << "# Cut by `loopwright eval import --commit " << fix.sha << "`: the change is the fix\n"
    << "# reverted (the bug put back); a good review finds the lines the fix touched.\n"
    << "description: " << quoted("the bug fixed by " + fix.sha.substr(0, 12) + ": " + fix.subject) << "\n"
    << "base: " << fix.sha << "\n"
    << "patch: " << patchFile << "\n"
    << "title: " << quoted("Revert \"" + fix.subject + "\"") << "\n"
    << "expect:\n";
  for (const FindingPattern& p : expect)
    y << "  - {path: " << quoted(p.path) << ", lines: [" << p.lines.first << ", " << p.lines.last << "]}\n";
  return y.str();
}

}  // namespace lw::eval
