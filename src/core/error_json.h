// Errors as JSON objects: {code, message, hint, subject, location, diagnostics}.
#pragma once

#include <boost/json/value.hpp>

#include "core/error.h"

namespace lw {

boost::json::value toJson(const Location& location);
boost::json::value toJson(const Error& error);

}  // namespace lw
