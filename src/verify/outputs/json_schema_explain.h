// The validator's messages: valijson decides whether a document is valid and
// where it is wrong; this says what is wrong there in the project's stable
// words ("must be at most 50 characters"), which tests and users read.
#pragma once

#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "verify/outputs/json_schema.h"

namespace lw::verify {

// `steps` lead from the document's root to the wrong value (property names
// and array indexes). The schema node for it is found through properties,
// additionalProperties and items; the first of its keywords the value breaks
// names the error. Where no node or keyword explains it (a $ref, an anyOf, a
// pattern), the error carries `fallback`, valijson's own description.
SchemaError explainSchemaError(const boost::json::value& schema, const boost::json::value& document,
                               const std::vector<std::string>& steps, const std::string& fallback);

}  // namespace lw::verify
