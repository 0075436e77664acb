#include "agents/params.h"

namespace lw::agents {

namespace json = boost::json;

const json::value* ParamReader::present(const char* name) const {
  const json::value* v = params_.if_contains(name);
  return v != nullptr && !v->is_null() ? v : nullptr;
}

bool ParamReader::number(const char* name, double& out) const {
  const json::value* v = present(name);
  if (v == nullptr) return true;
  if (!v->is_number()) return false;
  out = v->to_number<double>();
  return true;
}

bool ParamReader::boolean(const char* name, bool& out) const {
  const json::value* v = present(name);
  if (v == nullptr) return true;
  if (!v->is_bool()) return false;
  out = v->get_bool();
  return true;
}

bool ParamReader::string(const char* name, std::string& out) const {
  const json::value* v = present(name);
  if (v == nullptr) return true;
  if (!v->is_string()) return false;
  out = std::string(v->get_string());
  return true;
}

bool ParamReader::strings(const char* name, std::vector<std::string>& out) const {
  const json::value* v = present(name);
  if (v == nullptr) return true;
  if (!v->is_array()) return false;
  std::vector<std::string> read;
  for (const json::value& s : v->get_array()) {
    if (!s.is_string()) return false;
    read.emplace_back(s.get_string());
  }
  out = std::move(read);
  return true;
}

bool ParamReader::severity(const char* name, Severity& out) const {
  const json::value* v = present(name);
  if (v == nullptr) return true;
  std::optional<Severity> s = v->is_string() ? parseSeverity(v->get_string()) : std::nullopt;
  if (!s) return false;
  out = *s;
  return true;
}

Error ParamReader::bad(const std::string& name, const std::string& expected) const {
  return makeError(ErrorCode::TaskpackInvalid, "builtin/" + agent_ + ": with." + name + " must be " + expected,
                   "see `loopwright explain` for builtin/" + agent_ + "'s parameters", "with." + name);
}

}  // namespace lw::agents
