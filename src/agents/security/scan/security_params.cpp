#include "agents/security/scan/security_params.h"

#include "agents/params.h"

namespace lw::agents::security {

namespace json = boost::json;

Result<ScanOptions> readSecurityParams(const json::object& params) {
  const ParamReader with("security", params);
  ScanOptions o;
  if (!with.strings("disable", o.disabled)) return with.bad("disable", "a list of rule ids");
  if (!with.severity("minSeverity", o.minSeverity)) return with.bad("minSeverity", "one of error, warning, notice");
  if (!with.boolean("dependencies", o.dependencies)) return with.bad("dependencies", "true or false");
  std::string persona(toString(o.persona));
  if (!with.string("persona", persona) || !parsePersona(persona))
    return with.bad("persona", "one of default, pedantic, auditor");
  o.persona = *parsePersona(persona);
  double maxFindings = o.maxFindings;
  if (!with.number("maxFindings", maxFindings) || maxFindings < 1 || maxFindings > 1000 ||
      maxFindings != static_cast<int>(maxFindings))
    return with.bad("maxFindings", "an integer from 1 to 1000");
  o.maxFindings = static_cast<int>(maxFindings);
  return o;
}

std::string repositoryOwnerOf(const json::value& event) {
  const json::object* e = event.if_object();
  const json::value* repo = e != nullptr ? e->if_contains("repository") : nullptr;
  const json::value* owner = repo != nullptr && repo->is_object() ? repo->get_object().if_contains("owner") : nullptr;
  const json::value* login =
      owner != nullptr && owner->is_object() ? owner->get_object().if_contains("login") : nullptr;
  return login != nullptr && login->is_string() ? std::string(login->get_string()) : std::string();
}

}  // namespace lw::agents::security
