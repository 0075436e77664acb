// The built-in steps this version ships (`uses: builtin/<name>`), as data:
// what each does, the role and bridge tools it runs with, and the parameters
// its `with:` accepts. `validate` checks a step's `with:` against it and
// `explain` prints it; the agents themselves (src/agents/) read the resolved
// parameters, so the two can never disagree about a name or a default.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "policy/model/vocabulary.h"

namespace lw {

enum class ParamType { String, Integer, Number, Boolean, StringList, Enum };

struct BuiltinParam {
  std::string_view name;
  ParamType type = ParamType::String;
  // The value when `with:` omits it, as JSON text ("25", "\"added\"", "[]");
  // empty for a required parameter.
  std::string_view defaultJson;
  std::string_view description;
  std::vector<std::string_view> choices;  // Enum only
  double min = 0;                         // Integer / Number bounds, inclusive
  double max = 0;                         // 0 with min 0: unbounded
};

struct BuiltinStep {
  std::string_view name;     // "review" for uses: builtin/review
  std::string_view summary;  // one line, for explain and the docs
  Role role = Role::Reviewer;
  // Granted in addition to the step's own `tools:`: what the agent calls.
  std::vector<std::string_view> tools;
  bool needsLane = false;  // calls model.complete: the step must name a lane (or the taskpack has one)
  std::vector<BuiltinParam> params;
  // The level and network mode the built-in runs at unless the step's own
  // `isolation:` / `sandbox: {networkMode}` say otherwise: spec.isolation may
  // raise the level, never lower it, and spec.sandbox's networkMode does not
  // apply (policy/builtin/builtin_defaults.h).
  std::optional<Isolation> isolation;
  std::optional<NetworkMode> networkMode;
};

const std::vector<BuiltinStep>& builtinSteps();
const BuiltinStep* findBuiltinStep(std::string_view name);
const BuiltinParam* findParam(const BuiltinStep& step, std::string_view name);

std::string_view toString(ParamType t);

}  // namespace lw
