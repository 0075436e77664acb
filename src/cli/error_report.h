// How errors reach the user: "loopwright: error[CODE]: message", one line per
// diagnostic with its file:line:col, and "hint:"; with --json one object.
#pragma once

#include <boost/json/value.hpp>

#include "cli/command.h"
#include "core/error.h"

namespace lw::cli {

// Prints the error (text to io.err, or JSON to io.out) and returns its exit status.
int reportError(Io& io, const Error& error);

// Prints a JSON value followed by a newline.
void printJson(std::ostream& out, const boost::json::value& value);

}  // namespace lw::cli
