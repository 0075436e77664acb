#include "pipeline/step/coverage_output.h"

#include <boost/json.hpp>

#include "schemas/embedded.h"
#include "verify/check/path_policy.h"
#include "verify/outputs/json_schema.h"

namespace lw::pipeline {
namespace {

namespace json = boost::json;

Error invalid(const std::string& path, const std::string& message) {
  Error e = makeError(ErrorCode::OutputInvalid, "coverage.json: " + path + ": " + message,
                      "see schemas/coverage.schema.json for the format", "coverage.json");
  Location loc;
  loc.file = "coverage.json";
  loc.path = path;
  e.location = loc;
  return e;
}

// The same rule as findings' paths: repository-relative, normalised, inside.
bool plainRelative(const std::string& path) {
  bool escapes = false;
  std::string norm = verify::normalizeRelative(path, escapes);
  return path[0] != '/' && !escapes && norm == path;
}

}  // namespace

Result<Coverage> parseCoverage(std::string_view text) {
  if (text.size() > kMaxCoverageBytes)
    return invalid("$", "larger than " + std::to_string(kMaxCoverageBytes) + " bytes");
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return invalid("$", "not JSON: " + ec.message());
  if (auto err = verify::validateJson(json::parse(schemas::coverage), v)) return invalid(err->path, err->message);
  // Valid against the schema, so reading it cannot throw.
  Coverage c = readCoverage(v, "");
  for (std::size_t i = 0; i < c.files.size(); ++i)
    if (!plainRelative(c.files[i].path))
      return invalid("$.files[" + std::to_string(i) + "].path", "must be a plain repository-relative path");
  return c;
}

Coverage invalidCoverage(const Error& why) {
  Coverage c;
  c.complete = false;
  c.reason = "coverage.json was refused (" + why.message + ")";
  return c;
}

}  // namespace lw::pipeline
