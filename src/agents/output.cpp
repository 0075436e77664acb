#include "agents/output.h"

#include <boost/json/serialize.hpp>

#include "core/file_io.h"

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

}  // namespace

Status writeFindings(const std::filesystem::path& outDir, const std::vector<Finding>& findings) {
  json::array list;
  for (const Finding& f : findings) list.push_back(toJson(f));
  return writeFileAtomic((outDir / "findings.json").string(),
                         json::serialize(json::object{{"findings", std::move(list)}}) + "\n", false);
}

}  // namespace lw::agents
