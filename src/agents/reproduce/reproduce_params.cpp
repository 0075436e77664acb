#include "agents/reproduce/reproduce_params.h"

#include "agents/params.h"

namespace lw::agents::reproduce {

namespace json = boost::json;

namespace {

bool wholeIn(double v, double min, double max) { return v >= min && v <= max && v == static_cast<long long>(v); }

}  // namespace

Result<ReproduceParams> readReproduceParams(const json::object& params) {
  const ParamReader with("reproduce", params);
  ReproduceParams r;
  double wall = static_cast<double>(r.wallTimeMs);
  double output = static_cast<double>(r.maxOutputBytes);
  double lines = static_cast<double>(r.commentLines);
  if (!with.number("wallTimeMs", wall) || !wholeIn(wall, 1000, 3600000))
    return with.bad("wallTimeMs", "an integer from 1000 to 3600000");
  if (!with.number("maxOutputBytes", output) || !wholeIn(output, 1024, 16777216))
    return with.bad("maxOutputBytes", "an integer from 1024 to 16777216");
  if (!with.number("commentLines", lines) || !wholeIn(lines, 1, 500))
    return with.bad("commentLines", "an integer from 1 to 500");
  if (!with.strings("fields", r.fields)) return with.bad("fields", "a list of strings");
  if (!with.strings("errorFields", r.errorFields)) return with.bad("errorFields", "a list of strings");
  if (!with.boolean("labels", r.labels)) return with.bad("labels", "true or false");
  r.wallTimeMs = static_cast<long long>(wall);
  r.maxOutputBytes = static_cast<std::size_t>(output);
  r.commentLines = static_cast<std::size_t>(lines);
  return r;
}

}  // namespace lw::agents::reproduce
