// A built-in step (`uses: builtin/<name>`) read against the catalogue
// (policy/builtin/builtin_catalog.h): its `with:` parameters, its default role, and
// the checks that need the whole taskpack (a lane for the steps that call a
// model; no container backend, which cannot see loopwright's executable).
#pragma once

#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "core/result.h"
#include "policy/builtin/builtin_catalog.h"
#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

// "security" for uses: builtin/security; empty for a `run:` step.
std::string_view builtinName(const Step& step);
// The catalogue entry of a built-in step; null for a `run:` step or an
// unknown name (already reported by validation).
const BuiltinStep* builtinOf(const Step& step);

// Checks the text of `uses:`: builtin/<name> of a built-in this version
// ships (an unknown name gets a did-you-mean).
void checkUses(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, const std::string& uses);

// Once a step's keys are read: a built-in step's `with:` (readBuiltinParams)
// and its role, the catalogue's unless `role:` is given; `with:` on a step
// that is not a built-in is an error.
void readStepBuiltin(YamlSchemaReader& reader, const YAML::Node& stepNode, const std::string& stepPath,
                     const std::vector<MapEntry>& entries, Step& step);

// Reads `with` (an undefined node when the step has none) into step.with and
// step.params, every parameter of `builtin` given its value or its default.
// Each problem is a diagnostic at its node: an unknown parameter (with a
// did-you-mean), a wrong type, a value outside the choices or the bounds, a
// required parameter missing (reported at `stepNode`).
void readBuiltinParams(YamlSchemaReader& reader, const BuiltinStep& builtin, const YAML::Node& with,
                       const std::string& withPath, const YAML::Node& stepNode, const std::string& stepPath,
                       Step& step);

// `loopwright agent`'s --params: `given` checked against `builtin` (known
// names, types, choices, bounds, required) with every default filled in.
// USAGE_ERROR naming the first parameter that is wrong.
Result<boost::json::object> resolveParams(const BuiltinStep& builtin, const boost::json::object& given);

// True when the step calls model.complete: granted in `tools:`, a built-in
// that needs a lane, or builtin/triage with useModel: true.
bool stepCallsModel(const Step& step);

// The bridge tools a built-in grants beside the step's `tools:` (its
// catalogue tools, and model.complete for triage with useModel: true);
// empty for a `run:` step.
std::vector<std::string> builtinGrants(const Step& step);

// What explain shows of a built-in step: {uses, summary, role, tools (the
// grants it adds), params: [{name, type, value, isDefault, description}]};
// null for a `run:` step.
boost::json::value builtinJson(const Step& step);

// Whole-taskpack checks of the built-in steps, once every part is read:
// a step that calls a model with no lane of its own gets the taskpack's only
// lane (or a diagnostic when there is none or several), and a built-in that
// could be placed on docker is refused (a container does not see the
// loopwright executable the step runs).
void checkBuiltinSteps(YamlSchemaReader& reader, Taskpack& taskpack);

}  // namespace lw
