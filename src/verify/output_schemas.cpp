// The output schemas, compiled in so that an installed binary needs no
// source tree. tests/verify/outputs_test.cpp keeps these equal to
// schemas/*.schema.json.
#include "verify/outputs.h"

namespace lw::verify {

std::string_view findingsSchemaText() {
  return R"lwschema({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://loopwright.dev/schemas/findings.schema.json",
  "title": "loopwright step findings (LOOPWRIGHT_OUT/findings.json)",
  "type": "object",
  "required": ["findings"],
  "additionalProperties": false,
  "properties": {
    "findings": {
      "type": "array",
      "maxItems": 1000,
      "items": {
        "type": "object",
        "required": ["ruleId", "severity", "message"],
        "additionalProperties": false,
        "properties": {
          "ruleId": {"type": "string", "minLength": 1, "maxLength": 128},
          "severity": {"enum": ["error", "warning", "notice"]},
          "message": {"type": "string", "minLength": 1, "maxLength": 65536},
          "path": {"type": "string", "maxLength": 4096},
          "line": {"type": "integer", "minimum": 1, "maximum": 10000000},
          "endLine": {"type": "integer", "minimum": 1, "maximum": 10000000},
          "suggestion": {"type": "string", "maxLength": 65536}
        }
      }
    }
  }
}
)lwschema";
}

std::string_view triageSchemaText() {
  return R"lwschema({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://loopwright.dev/schemas/triage.schema.json",
  "title": "loopwright triage result (LOOPWRIGHT_OUT/triage.json)",
  "type": "object",
  "required": ["labels", "duplicates"],
  "additionalProperties": false,
  "properties": {
    "labels": {
      "type": "array",
      "maxItems": 20,
      "items": {"type": "string", "minLength": 1, "maxLength": 50}
    },
    "duplicates": {
      "type": "array",
      "maxItems": 20,
      "items": {
        "type": "object",
        "required": ["number", "reason"],
        "additionalProperties": false,
        "properties": {
          "number": {"type": "integer", "minimum": 1, "maximum": 2147483647},
          "reason": {"type": "string", "minLength": 1, "maxLength": 1000}
        }
      }
    },
    "complete": {"type": "boolean"},
    "reproducible": {"type": "boolean"},
    "comment": {"type": "string", "maxLength": 65536}
  }
}
)lwschema";
}

}  // namespace lw::verify
