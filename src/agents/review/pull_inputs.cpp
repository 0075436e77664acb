#include "agents/review/pull_inputs.h"

#include "core/json_fields.h"
#include "policy/model/tool_names.h"

namespace lw::agents::review {

namespace json = boost::json;
namespace jf = lw::json_fields;

namespace {

Error invalidAnswer(const std::string& tool, const jf::FieldError& e) {
  return makeError(ErrorCode::OutputInvalid, tool + " answered out of contract: " + e.path + ": " + e.what(),
                   "the bridge's GitHub read tools are described in docs/builtin-steps.md", e.path);
}

}  // namespace

Result<PullInfo> readPullInfo(const json::value& v) {
  try {
    const json::object& o = jf::object(v, "");
    PullInfo p;
    p.number = static_cast<int>(jf::integer(o, "number", ""));
    p.title = jf::optStr(o, "title", "").value_or("");
    p.body = jf::optStr(o, "body", "").value_or("");
    p.baseSha = jf::optStr(o, "baseSha", "").value_or("");
    p.headSha = jf::optStr(o, "headSha", "").value_or("");
    return p;
  } catch (const jf::FieldError& e) {
    return invalidAnswer(tools::kGithubPull, e);
  }
}

Result<PullFiles> readPullFiles(const json::value& v) {
  try {
    const json::object& o = jf::object(v, "");
    PullFiles out;
    out.truncated = jf::optBool(o, "truncated", "").value_or(false);
    const json::array& files = jf::array(jf::field(o, "files", ""), "files");
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::string at = "files[" + std::to_string(i) + "]";
      const json::object& f = jf::object(files[i], at);
      ChangedFile c;
      c.path = jf::str(f, "path", at);
      c.previousPath = jf::optStr(f, "previousPath", at).value_or("");
      c.status = jf::str(f, "status", at);
      c.binary = jf::optBool(f, "binary", at).value_or(false);
      out.files.push_back(std::move(c));
    }
    return out;
  } catch (const jf::FieldError& e) {
    return invalidAnswer(tools::kGithubPullsFiles, e);
  }
}

Result<PullDiff> readPullDiff(const json::value& v) {
  try {
    const json::object& o = jf::object(v, "");
    PullDiff d;
    d.base = jf::str(o, "base", "");
    d.head = jf::str(o, "head", "");
    d.incremental = jf::optBool(o, "incremental", "").value_or(false);
    d.diff = jf::str(o, "diff", "");
    d.truncated = jf::optBool(o, "truncated", "").value_or(false);
    return d;
  } catch (const jf::FieldError& e) {
    return invalidAnswer(tools::kGithubPullsDiff, e);
  }
}

}  // namespace lw::agents::review
