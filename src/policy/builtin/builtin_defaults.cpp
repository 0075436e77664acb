#include "policy/builtin/builtin_defaults.h"

#include "policy/builtin/builtin_params.h"

namespace lw {

void applyBuiltinSandboxDefaults(const Step& step, EffectiveSandbox& sb, FieldOrigins& why) {
  const BuiltinStep* b = builtinOf(step);
  if (b == nullptr) return;
  const std::string origin = "default of builtin/" + std::string(b->name);
  if (b->isolation && !step.isolation && static_cast<int>(sb.minIsolation) < static_cast<int>(*b->isolation)) {
    sb.minIsolation = *b->isolation;
    why["isolation"] = origin + " (the step's own isolation: lowers it)";
  }
  if (b->networkMode && !(step.sandbox && step.sandbox->networkMode)) {
    sb.networkMode = *b->networkMode;
    why["networkMode"] = origin + " (the step's own sandbox.networkMode changes it)";
  }
}

}  // namespace lw
