#include "policy/builtin/builtin_params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

#include <boost/json/parse.hpp>

#include "policy/model/tool_names.h"
#include "policy/yaml/did_you_mean.h"

namespace lw {
namespace {

namespace json = boost::json;

std::string label(const BuiltinStep& b) { return "builtin/" + std::string(b.name); }

std::string paramNames(const BuiltinStep& b) {
  std::string out;
  for (const BuiltinParam& p : b.params) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

bool bounded(const BuiltinParam& p) { return p.min != 0 || p.max != 0; }

std::optional<json::value> readInteger(YamlSchemaReader& reader, const BuiltinParam& p, const YAML::Node& n,
                                       const std::string& path) {
  std::int64_t lo = bounded(p) ? static_cast<std::int64_t>(p.min) : std::numeric_limits<std::int64_t>::min();
  std::int64_t hi = bounded(p) ? static_cast<std::int64_t>(p.max) : std::numeric_limits<std::int64_t>::max();
  if (auto v = reader.integer(n, path, lo, hi)) return json::value(*v);
  return std::nullopt;
}

// 0.5 as "0.5", 1 as "1". (Not std::to_chars/from_chars for doubles: the
// front binary reaches this file, and their libstdc++ objects would link
// libm and ~400 KB into every step's start.)
std::string shortest(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

// A plain decimal: digits, sign, point and exponent only (strtod alone would
// also take hex, inf, nan and leading spaces), all of it consumed.
bool parseDecimal(const std::string& text, double& value) {
  if (text.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// A plain decimal number (no quotes, no YAML 1.1 .inf/.nan) within the bounds.
std::optional<json::value> readNumber(YamlSchemaReader& reader, const BuiltinParam& p, const YAML::Node& n,
                                      const std::string& path) {
  std::string range = bounded(p) ? "a number from " + shortest(p.min) + " to " + shortest(p.max) : "a number";
  double value = 0;
  bool valid = n.IsScalar() && n.Tag() != "!" && !n.Scalar().empty();
  if (valid) {
    const std::string& text = n.Scalar();
    valid = parseDecimal(text, value) && std::isfinite(value);
  }
  if (!valid || (bounded(p) && (value < p.min || value > p.max))) {
    reader.error(n, path,
                 (n.IsScalar() ? "'" + n.Scalar().substr(0, 40) + "'" : std::string("this")) + " is not " + range);
    return std::nullopt;
  }
  return json::value(value);
}

// A list of strings; repeats allowed (an argv may repeat a flag).
std::optional<json::value> readStringList(YamlSchemaReader& reader, const YAML::Node& n, const std::string& path) {
  json::array out;
  bool fine = true;
  bool isList = reader.sequence(n, path, 0, 256, [&](const YAML::Node& item, const std::string& ip) {
    if (auto s = reader.string(item, ip, 4096))
      out.emplace_back(*s);
    else
      fine = false;
  });
  if (!isList || !fine) return std::nullopt;
  return json::value(std::move(out));
}

std::optional<json::value> readValue(YamlSchemaReader& reader, const BuiltinParam& p, const YAML::Node& n,
                                     const std::string& path) {
  switch (p.type) {
    case ParamType::String:
      if (auto s = reader.string(n, path, 4096)) return json::value(*s);
      return std::nullopt;
    case ParamType::Integer: return readInteger(reader, p, n, path);
    case ParamType::Number: return readNumber(reader, p, n, path);
    case ParamType::Boolean:
      if (auto b = reader.boolean(n, path)) return json::value(*b);
      return std::nullopt;
    case ParamType::StringList: return readStringList(reader, n, path);
    case ParamType::Enum:
      if (auto s = reader.oneOf(n, path, p.choices)) return json::value(*s);
      return std::nullopt;
  }
  return std::nullopt;
}

// Reads the `with:` mapping into step.with; unknown and repeated keys are
// reported (with a did-you-mean among the built-in's parameters).
void readWith(YamlSchemaReader& reader, const BuiltinStep& b, const YAML::Node& with, const std::string& withPath,
              Step& step) {
  if (!with.IsMap()) {
    reader.error(with, withPath, "must be a mapping of " + label(b) + "'s parameters",
                 "write 'name: value' lines; its parameters: " + paramNames(b));
    return;
  }
  std::vector<std::string_view> names;
  for (const BuiltinParam& p : b.params) names.push_back(p.name);
  std::set<std::string> seen;
  for (auto it = with.begin(); it != with.end(); ++it) {
    YAML::Node key = it->first;
    YAML::Node value = it->second;
    const std::string k = key.IsScalar() ? key.Scalar() : std::string();
    const std::string path = childPath(withPath, k);
    const BuiltinParam* param = key.IsScalar() ? findParam(b, k) : nullptr;
    if (param == nullptr) {
      auto guess = closestMatch(k, names);
      reader.error(key, path, label(b) + " has no parameter '" + k.substr(0, 80) + "'",
                   guess ? "did you mean '" + *guess + "'?" : "its parameters: " + paramNames(b));
      continue;
    }
    if (!seen.insert(k).second) {
      reader.error(key, path, "parameter '" + k + "' appears twice", "keep one of them");
      continue;
    }
    if (auto v = readValue(reader, *param, value, path)) step.with[k] = std::move(*v);
  }
}

}  // namespace

std::string_view builtinName(const Step& step) {
  if (!step.uses || !step.uses->starts_with("builtin/")) return {};
  return std::string_view(*step.uses).substr(8);
}

const BuiltinStep* builtinOf(const Step& step) {
  std::string_view name = builtinName(step);
  return name.empty() ? nullptr : findBuiltinStep(name);
}

void checkUses(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, const std::string& uses) {
  std::string rest = uses.starts_with("builtin/") ? uses.substr(8) : "";
  bool valid = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
  if (!valid) {
    reader.error(node, path, "'" + uses.substr(0, 80) + "' is not a built-in step",
                 "write uses: builtin/<name>, or run: [command, args…]");
    return;
  }
  if (findBuiltinStep(rest) != nullptr) return;
  std::vector<std::string_view> names;
  std::string list;
  for (const BuiltinStep& b : builtinSteps()) {
    names.push_back(b.name);
    list += (list.empty() ? "" : ", ") + label(b);
  }
  auto guess = closestMatch(rest, names);
  reader.error(node, path, "'" + uses + "' is not a built-in step of this version",
               guess ? "did you mean 'builtin/" + *guess + "'?" : "the built-in steps: " + list);
}

void readStepBuiltin(YamlSchemaReader& reader, const YAML::Node& stepNode, const std::string& stepPath,
                     const std::vector<MapEntry>& entries, Step& step) {
  const YAML::Node with = find(entries, "with");
  const std::string withPath = childPath(stepPath, "with");
  if (!find(entries, "uses").IsDefined()) {
    if (with.IsDefined())
      reader.error(with, withPath, "'with' gives a built-in step its parameters; this step has no 'uses'",
                   "remove 'with', or pass the values to your command in run: [...]");
    return;
  }
  const BuiltinStep* b = builtinOf(step);
  if (b == nullptr) return;  // the name was reported
  if (!find(entries, "role").IsDefined()) step.role = b->role;
  readBuiltinParams(reader, *b, with, withPath, stepNode, stepPath, step);
}

void readBuiltinParams(YamlSchemaReader& reader, const BuiltinStep& builtin, const YAML::Node& with,
                       const std::string& withPath, const YAML::Node& stepNode, const std::string& stepPath,
                       Step& step) {
  if (with.IsDefined()) readWith(reader, builtin, with, withPath, step);
  for (const BuiltinParam& p : builtin.params) {
    if (const json::value* given = step.with.if_contains(p.name)) {
      step.params[p.name] = *given;
    } else if (!p.defaultJson.empty()) {
      json::value v = json::parse(p.defaultJson);
      // A number's default written without a fraction is still a number.
      if (p.type == ParamType::Number && v.is_int64()) v = static_cast<double>(v.get_int64());
      step.params[p.name] = std::move(v);
    } else if (!with.IsDefined() || (with.IsMap() && !with[std::string(p.name)].IsDefined())) {
      // Not reported when `with:` itself was malformed, nor when the value
      // was given and wrong: that error says enough.
      const bool inWith = with.IsDefined();
      reader.error(
          inWith ? with : stepNode, inWith ? withPath : stepPath,
          label(builtin) + " needs the parameter '" + std::string(p.name) + "' (" + std::string(p.description) + ")",
          "add it under with: (see docs/builtin-steps.md)");
    }
  }
}

namespace {

// Why `v` is not a value of `p`; empty when it is.
std::string jsonValueProblem(const BuiltinParam& p, const json::value& v) {
  auto inBounds = [&](double d) { return !bounded(p) || (d >= p.min && d <= p.max); };
  switch (p.type) {
    case ParamType::String: return v.is_string() ? "" : "must be a string";
    case ParamType::Integer:
      return v.is_int64() && inBounds(static_cast<double>(v.get_int64())) ? "" : "must be an integer in bounds";
    case ParamType::Number: return v.is_number() && inBounds(v.to_number<double>()) ? "" : "must be a number in bounds";
    case ParamType::Boolean: return v.is_bool() ? "" : "must be true or false";
    case ParamType::StringList:
      if (!v.is_array()) return "must be a list of strings";
      for (const json::value& item : v.get_array())
        if (!item.is_string()) return "must be a list of strings";
      return "";
    case ParamType::Enum:
      if (v.is_string())
        for (std::string_view c : p.choices)
          if (v.get_string() == c) return "";
      return "must be one of its choices";
  }
  return "has an unknown type";
}

}  // namespace

Result<json::object> resolveParams(const BuiltinStep& builtin, const json::object& given) {
  auto usage = [&](const std::string& message, const std::string& hint) {
    return makeError(ErrorCode::UsageError, label(builtin) + ": " + message, hint, label(builtin));
  };
  for (const auto& [key, value] : given) {
    const BuiltinParam* p = findParam(builtin, key);
    if (p == nullptr) return usage("no parameter '" + std::string(key) + "'", "its parameters: " + paramNames(builtin));
    if (std::string why = jsonValueProblem(*p, value); !why.empty())
      return usage("parameter '" + std::string(key) + "' " + why, std::string(p->description));
  }
  json::object out;
  for (const BuiltinParam& p : builtin.params) {
    if (const json::value* v = given.if_contains(p.name))
      out[p.name] = *v;
    else if (!p.defaultJson.empty())
      out[p.name] = json::parse(p.defaultJson);
    else
      return usage("parameter '" + std::string(p.name) + "' is required", std::string(p.description));
    if (p.type == ParamType::Number && out[p.name].is_int64())
      out[p.name] = static_cast<double>(out[p.name].get_int64());
  }
  return out;
}

bool stepCallsModel(const Step& step) {
  if (std::find(step.tools.begin(), step.tools.end(), tools::kModelComplete) != step.tools.end()) return true;
  const BuiltinStep* b = builtinOf(step);
  if (b == nullptr) return false;
  if (b->needsLane) return true;
  const json::value* useModel = step.params.if_contains("useModel");
  return useModel != nullptr && useModel->is_bool() && useModel->get_bool();
}

std::vector<std::string> builtinGrants(const Step& step) {
  std::vector<std::string> out;
  const BuiltinStep* b = builtinOf(step);
  if (b == nullptr) return out;
  for (std::string_view t : b->tools) out.emplace_back(t);
  if (stepCallsModel(step) && std::find(out.begin(), out.end(), tools::kModelComplete) == out.end())
    out.emplace_back(tools::kModelComplete);
  return out;
}

json::value builtinJson(const Step& step) {
  const BuiltinStep* b = builtinOf(step);
  if (b == nullptr) return nullptr;
  json::array params;
  for (const BuiltinParam& p : b->params) {
    const json::value* v = step.params.if_contains(p.name);
    params.push_back(json::object{{"name", p.name},
                                  {"type", toString(p.type)},
                                  {"value", v ? *v : json::value(nullptr)},
                                  {"isDefault", !step.with.contains(p.name)},
                                  {"description", p.description}});
  }
  json::array tools;
  for (const std::string& t : builtinGrants(step)) tools.emplace_back(t);
  return json::object{{"uses", label(*b)},
                      {"summary", b->summary},
                      {"role", toString(b->role)},
                      {"tools", std::move(tools)},
                      {"params", std::move(params)}};
}

namespace {

const Lane* onlyLane(const Taskpack& tp) { return tp.lanes.size() == 1 ? &tp.lanes.front() : nullptr; }

// The backends the step may be placed on, as written (nullptr: the
// defaults, which never list docker).
const std::vector<BackendId>* writtenBackends(const Taskpack& tp, const Step& step) {
  if (step.sandbox && step.sandbox->preferredBackends) return &*step.sandbox->preferredBackends;
  if (tp.sandbox && tp.sandbox->preferredBackends) return &*tp.sandbox->preferredBackends;
  return nullptr;
}

void checkLane(YamlSchemaReader& reader, const Taskpack& tp, const BuiltinStep& b, Step& step) {
  if (step.lane || !stepCallsModel(step)) return;
  if (const Lane* lane = onlyLane(tp)) {
    step.lane = lane->name;
    return;
  }
  reader.errorAt(step.location,
                 label(b) + " calls model.complete, and the step names no lane" +
                     (tp.lanes.empty() ? " (spec.lanes is empty)" : " (spec.lanes has several)"),
                 tp.lanes.empty() ? "define a model lane under spec.lanes" : "add lane: <name> to the step");
}

void checkNotContainer(YamlSchemaReader& reader, const Taskpack& tp, const BuiltinStep& b, const Step& step) {
  const std::vector<BackendId>* backends = writtenBackends(tp, step);
  if (backends == nullptr || std::find(backends->begin(), backends->end(), BackendId::Docker) == backends->end())
    return;
  reader.errorAt(step.location,
                 label(b) +
                     " cannot run on docker: a container does not see the loopwright "
                     "executable that runs the built-in",
                 "give the step sandbox: {preferredBackends: [linux-bwrap, linux-landlock]}, or "
                 "run your own agent from the runtime profile's image with run: [...]");
}

}  // namespace

void checkBuiltinSteps(YamlSchemaReader& reader, Taskpack& taskpack) {
  for (Stage& stage : taskpack.stages) {
    for (Step& step : stage.steps) {
      const BuiltinStep* b = builtinOf(step);
      if (b == nullptr) continue;
      checkLane(reader, taskpack, *b, step);
      checkNotContainer(reader, taskpack, *b, step);
    }
  }
}

}  // namespace lw
