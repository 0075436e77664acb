#include "agents/triage/triage_params.h"

#include <string>

#include "agents/params.h"

namespace lw::agents::triage {

namespace json = boost::json;

Result<TriageParams> readTriageParams(const json::object& params) {
  const ParamReader with("triage", params);
  TriageParams t;
  double maxDuplicates = t.maxDuplicates;
  if (!with.number("duplicateThreshold", t.duplicateThreshold) || t.duplicateThreshold < 0 || t.duplicateThreshold > 1)
    return with.bad("duplicateThreshold", "a number from 0 to 1");
  if (!with.number("maxDuplicates", maxDuplicates) || maxDuplicates < 0 || maxDuplicates > 10 ||
      maxDuplicates != static_cast<int>(maxDuplicates))
    return with.bad("maxDuplicates", "an integer from 0 to 10");
  t.maxDuplicates = static_cast<int>(maxDuplicates);
  if (!with.boolean("labels", t.labels)) return with.bad("labels", "true or false");
  if (!with.boolean("useModel", t.useModel)) return with.bad("useModel", "true or false");
  if (!with.boolean("checkForms", t.checkForms)) return with.bad("checkForms", "true or false");
  return t;
}

}  // namespace lw::agents::triage
