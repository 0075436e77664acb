// JSON Schema validation by valijson (draft 7 keywords, with draft 2020-12's
// rule that 1.0 is an integer). A keyword valijson would ignore (one of
// 2020-12's own) is refused rather than half applied.
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
std::optional<SchemaError> validateJson(const boost::json::value& schema, const boost::json::value& value);

}  // namespace lw::verify
