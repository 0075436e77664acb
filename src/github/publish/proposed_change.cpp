#include "github/publish/proposed_change.h"

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

json::value toJson(const ProposedChange& c) {
  return json::object{{"stage", c.stage},
                      {"step", c.step},
                      {"baseCommit", c.baseCommit},
                      {"patch", c.patch},
                      {"fullPatchAt", c.fullPatchAt},
                      {"committedAt", c.committedAt}};
}

ProposedChange proposedChangeFromJson(const json::value& v, const std::string& path) {
  const json::object& o = object(v, path);
  ProposedChange c;
  c.stage = str(o, "stage", path);
  c.step = str(o, "step", path);
  c.baseCommit = str(o, "baseCommit", path);
  c.patch = str(o, "patch", path);
  c.fullPatchAt = optStr(o, "fullPatchAt", path).value_or("");
  c.committedAt = optInt(o, "committedAt", path).value_or(0);
  return c;
}

}  // namespace lw::github
