#include "core/error_json.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lw {

boost::json::value toJson(const Location& location) {
  boost::json::object o;
  o["file"] = location.file;
  o["line"] = location.line;
  o["column"] = location.column;
  o["path"] = location.path;
  return o;
}

boost::json::value toJson(const Error& error) {
  boost::json::object o;
  o["code"] = codeName(error.code);
  o["message"] = error.message;
  o["hint"] = error.hint;
  if (!error.subject.empty()) o["subject"] = error.subject;
  o["location"] = error.location ? toJson(*error.location) : boost::json::value(nullptr);
  boost::json::array diagnostics;
  for (const Diagnostic& d : error.diagnostics) {
    boost::json::object dj;
    dj["location"] = toJson(d.location);
    dj["message"] = d.message;
    dj["hint"] = d.hint;
    diagnostics.push_back(std::move(dj));
  }
  o["diagnostics"] = std::move(diagnostics);
  return o;
}

}  // namespace lw
