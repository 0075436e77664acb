#include "cli/error_report.h"

#include <ostream>

#include <boost/json/serialize.hpp>

#include "cli/exit_codes.h"
#include "core/error_json.h"
#include "core/json_text.h"

namespace lw::cli {

int reportError(Io& io, const Error& error) {
  if (io.json) {
    printJson(io.out, toJson(error));
    return exitCodeFor(error.code);
  }
  io.err << "loopwright: error[" << codeName(error.code) << "]: ";
  if (error.location && error.location->known()) io.err << error.location->toString() << ": ";
  io.err << error.message << "\n";
  for (const Diagnostic& d : error.diagnostics) {
    io.err << "  ";
    if (!d.location.toString().empty()) io.err << d.location.toString() << ": ";
    if (!d.location.path.empty()) io.err << d.location.path << ": ";
    io.err << d.message << "\n";
    if (!d.hint.empty()) io.err << "    hint: " << d.hint << "\n";
  }
  if (!error.hint.empty()) io.err << "hint: " << error.hint << "\n";
  return exitCodeFor(error.code);
}

void printJson(std::ostream& out, const boost::json::value& value) { out << toJsonText(value) << "\n"; }

}  // namespace lw::cli
