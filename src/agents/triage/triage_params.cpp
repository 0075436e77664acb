#include "agents/triage/triage_params.h"

#include <string>

namespace lw::agents::triage {

namespace json = boost::json;

namespace {

Error badParam(const char* name, const char* want) {
  return makeError(ErrorCode::UsageError, std::string("builtin/triage: with.") + name + " must be " + want,
                   "see `loopwright explain` for builtin/triage's parameters", name);
}

bool readBool(const json::object& p, const char* name, bool& out) {
  const json::value* v = p.if_contains(name);
  if (!v) return true;  // the catalogue's default stays
  if (!v->is_bool()) return false;
  out = v->get_bool();
  return true;
}

bool readNumber(const json::object& p, const char* name, double& out) {
  const json::value* v = p.if_contains(name);
  if (!v) return true;
  if (!v->is_number()) return false;
  out = v->to_number<double>();
  return true;
}

}  // namespace

Result<TriageParams> readTriageParams(const json::object& params) {
  TriageParams t;
  double maxDuplicates = t.maxDuplicates;
  if (!readNumber(params, "duplicateThreshold", t.duplicateThreshold) || t.duplicateThreshold < 0 ||
      t.duplicateThreshold > 1)
    return badParam("duplicateThreshold", "a number from 0 to 1");
  if (!readNumber(params, "maxDuplicates", maxDuplicates) || maxDuplicates < 0 || maxDuplicates > 10 ||
      maxDuplicates != static_cast<int>(maxDuplicates))
    return badParam("maxDuplicates", "an integer from 0 to 10");
  t.maxDuplicates = static_cast<int>(maxDuplicates);
  if (!readBool(params, "labels", t.labels)) return badParam("labels", "true or false");
  if (!readBool(params, "useModel", t.useModel)) return badParam("useModel", "true or false");
  if (!readBool(params, "checkForms", t.checkForms)) return badParam("checkForms", "true or false");
  return t;
}

}  // namespace lw::agents::triage
