// Reading a step's `isolation:` and `escalate:` keys (docs/taskpack.md,
// "Isolation and escalation"), and the check that ties them together.
#pragma once

#include <string>

#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

// Reads `entry` (a step's `isolation` or `escalate` key) into `step`;
// every problem is recorded in `reader` with its location.
void readStepIsolationKey(YamlSchemaReader& reader, const MapEntry& entry, const std::string& path, Step& step);

// After the whole step is read: an `escalate.to` must be above the step's
// own `isolation:` (L1 when the step sets none; spec.isolation and the host
// floor are weighed when the step runs, and `explain` shows the outcome).
void checkEscalateLevel(YamlSchemaReader& reader, const Step& step);

}  // namespace lw
