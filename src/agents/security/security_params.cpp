#include "agents/security/security_params.h"

namespace lw::agents::security {

namespace json = boost::json;

namespace {

Error badParam(const std::string& name, const std::string& expected) {
  return makeError(ErrorCode::TaskpackInvalid, "builtin/security: with." + name + " must be " + expected,
                   "see `loopwright explain` for builtin/security's parameters", "with." + name);
}

}  // namespace

Result<ScanOptions> readSecurityParams(const json::object& params) {
  ScanOptions o;
  if (const json::value* v = params.if_contains("disable"); v != nullptr && !v->is_null()) {
    if (!v->is_array()) return badParam("disable", "a list of rule ids");
    for (const json::value& id : v->get_array()) {
      if (!id.is_string()) return badParam("disable", "a list of rule ids");
      o.disabled.emplace_back(id.get_string());
    }
  }
  if (const json::value* v = params.if_contains("minSeverity"); v != nullptr && !v->is_null()) {
    std::optional<Severity> s = v->is_string() ? parseSeverity(v->get_string()) : std::nullopt;
    if (!s) return badParam("minSeverity", "one of error, warning, notice");
    o.minSeverity = *s;
  }
  if (const json::value* v = params.if_contains("dependencies"); v != nullptr && !v->is_null()) {
    if (!v->is_bool()) return badParam("dependencies", "true or false");
    o.dependencies = v->get_bool();
  }
  if (const json::value* v = params.if_contains("maxFindings"); v != nullptr && !v->is_null()) {
    if (!v->is_int64() || v->get_int64() < 1 || v->get_int64() > 1000) return badParam("maxFindings", "an integer from 1 to 1000");
    o.maxFindings = static_cast<int>(v->get_int64());
  }
  return o;
}

std::string repositoryOwnerOf(const json::value& event) {
  const json::object* e = event.if_object();
  const json::value* repo = e != nullptr ? e->if_contains("repository") : nullptr;
  const json::value* owner = repo != nullptr && repo->is_object() ? repo->get_object().if_contains("owner") : nullptr;
  const json::value* login = owner != nullptr && owner->is_object() ? owner->get_object().if_contains("login") : nullptr;
  return login != nullptr && login->is_string() ? std::string(login->get_string()) : std::string();
}

}  // namespace lw::agents::security
