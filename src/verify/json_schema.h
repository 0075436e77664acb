// A validator for the subset of JSON Schema (draft 2020-12) that loopwright's
// output schemas use: type, required, properties, additionalProperties
// (false), items, enum, minimum, maximum, minLength, maxLength, minItems,
// maxItems. A schema using any other keyword is refused rather than half
// applied.
#pragma once

#include <optional>
#include <string>

#include <boost/json/value.hpp>

#include "core/result.h"

namespace lw::verify {

// The first error's location as "$.findings[3].severity" and what is wrong.
struct SchemaError {
  std::string path;
  std::string message;
};

// nullopt when `value` is valid, else the first error in document order. A schema
// with an unsupported keyword reports it as the error (path "#schema…").
std::optional<SchemaError> validateJson(const boost::json::value& schema,
                                        const boost::json::value& value);

}  // namespace lw::verify
