#include "agents/security/scan/security_inputs.h"

#include "agents/security/scan/scan.h"
#include "diff/unified_diff.h"
#include "policy/model/tool_names.h"

namespace lw::agents::security {

namespace json = boost::json;

namespace {

Error invalidAnswer(const std::string& tool, const std::string& what) {
  return makeError(ErrorCode::OutputInvalid, tool + " answered without " + what,
                   "the bridge's GitHub read tools are described in docs/builtin-steps.md", tool);
}

Result<std::string> stringField(const json::value& answer, const char* field, const std::string& tool) {
  const json::object* o = answer.if_object();
  const json::value* v = o != nullptr ? o->if_contains(field) : nullptr;
  if (v == nullptr || !v->is_string()) return invalidAnswer(tool, std::string("a string '") + field + "'");
  return std::string(v->get_string());
}

bool truncated(const json::value& answer) {
  const json::object* o = answer.if_object();
  const json::value* t = o != nullptr ? o->if_contains("truncated") : nullptr;
  return t != nullptr && t->is_bool() && t->get_bool();
}

// Fills in f.content and f.truncated.
Status readHeadFile(BridgeClient& bridge, ChangedFile& f, std::ostream& log) {
  Result<json::value> r = bridge.call(tools::kGithubFile, json::object{{"path", f.path}, {"ref", "head"}});
  if (!r) {
    Error e = std::move(r).error();
    e.message = "github.file " + f.path + ": " + e.message;
    return e;
  }
  Result<std::string> content = stringField(*r, "content", tools::kGithubFile);
  if (!content) return std::move(content).error();
  f.content = std::move(*content);
  f.truncated = truncated(*r);
  // A workflow or action file is then reported as not checked (scan.cpp),
  // any other is scanned as far as it goes.
  if (f.truncated) log << "builtin/security: " << f.path << " is truncated by github.file\n";
  return Ok{};
}

FileKind kindOf(const ChangedFile& f) {
  bool firstLineAdded = !f.addedLines.empty() && f.addedLines.front() == 1;
  return classify(f.path, firstLineAdded ? std::string_view(f.addedText.front()) : std::string_view{});
}

}  // namespace

Result<std::vector<ChangedFile>> readChangedFiles(BridgeClient& bridge, std::ostream& log) {
  Result<json::value> answer = bridge.call(tools::kGithubPullsDiff, {});
  if (!answer) {
    Error e = std::move(answer).error();
    e.message = "github.pulls.diff: " + e.message;
    return e;
  }
  Result<std::string> text = stringField(*answer, "diff", tools::kGithubPullsDiff);
  if (!text) return std::move(text).error();
  if (truncated(*answer)) log << "builtin/security: the diff is truncated; the files past its end are not scanned\n";
  Result<diff::DiffIndex> diff = diff::DiffIndex::parse(*text);
  if (!diff)
    return makeError(ErrorCode::OutputInvalid, "github.pulls.diff: " + diff.error().message,
                     "the diff must be a unified diff in git's format", tools::kGithubPullsDiff);
  std::vector<ChangedFile> files = changedFilesFromDiff(*diff);
  for (ChangedFile& f : files) {
    if (!needsContent(kindOf(f))) continue;
    Status read = readHeadFile(bridge, f, log);
    if (!read) return std::move(read).error();
  }
  return files;
}

}  // namespace lw::agents::security
