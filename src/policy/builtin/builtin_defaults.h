// A built-in's own sandbox defaults (BuiltinStep::isolation, ::networkMode)
// applied to a step's effective policy. A built-in that runs untrusted code
// (builtin/reproduce) asks for more than the taskpack's defaults: the
// taskpack may raise that level with spec.isolation, and only the step's own
// `isolation:` or `sandbox: {networkMode}` lowers it, explicitly. Pure.
#pragma once

#include "policy/model/effective_policy.h"
#include "policy/model/taskpack.h"

namespace lw {

// For a built-in step with defaults: minIsolation becomes the built-in's
// level when the step writes no `isolation:` and the taskpack's level is
// lower; networkMode becomes the built-in's when the step's own sandbox
// does not set one. Each change is recorded in `why`. Nothing for a `run:`
// step or a built-in without defaults.
void applyBuiltinSandboxDefaults(const Step& step, EffectiveSandbox& sb, FieldOrigins& why);

}  // namespace lw
