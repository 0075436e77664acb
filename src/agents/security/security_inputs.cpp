#include "agents/security/security_inputs.h"

#include "agents/security/scan.h"
#include "github/diff.h"
#include "policy/tool_names.h"

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

Result<std::string> readHeadFile(BridgeClient& bridge, const std::string& path, std::ostream& log) {
  Result<json::value> r = bridge.call(tools::kGithubFile, json::object{{"path", path}, {"ref", "head"}});
  if (!r) {
    Error e = std::move(r).error();
    e.message = "github.file " + path + ": " + e.message;
    return e;
  }
  if (truncated(*r)) log << "builtin/security: " << path << " is truncated by github.file; scanned as far as it goes\n";
  return stringField(*r, "content", tools::kGithubFile);
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
  Result<github::DiffIndex> diff = github::DiffIndex::parse(*text);
  if (!diff)
    return makeError(ErrorCode::OutputInvalid, "github.pulls.diff: " + diff.error().message,
                     "the diff must be a unified diff in git's format", tools::kGithubPullsDiff);
  std::vector<ChangedFile> files = changedFilesFromDiff(*diff);
  for (ChangedFile& f : files) {
    if (!needsContent(kindOf(f))) continue;
    Result<std::string> content = readHeadFile(bridge, f.path, log);
    if (!content) return std::move(content).error();
    f.content = std::move(*content);
  }
  return files;
}

}  // namespace lw::agents::security
