#include "agents/review/review_params.h"

namespace lw::agents::review {

namespace json = boost::json;

namespace {

Error badParam(const std::string& name, const std::string& expected) {
  return makeError(ErrorCode::TaskpackInvalid, "builtin/review: with." + name + " must be " + expected,
                   "see `loopwright explain` for builtin/review's parameters", "with." + name);
}

// Reads one parameter when present; false when it has the wrong type.
bool readNumber(const json::object& p, const char* name, double& out) {
  const json::value* v = p.if_contains(name);
  if (v == nullptr || v->is_null()) return true;
  if (!v->is_number()) return false;
  out = v->to_number<double>();
  return true;
}

bool readString(const json::object& p, const char* name, std::string& out) {
  const json::value* v = p.if_contains(name);
  if (v == nullptr || v->is_null()) return true;
  if (!v->is_string()) return false;
  out = std::string(v->get_string());
  return true;
}

bool readStrings(const json::object& p, const char* name, std::vector<std::string>& out) {
  const json::value* v = p.if_contains(name);
  if (v == nullptr || v->is_null()) return true;
  if (!v->is_array()) return false;
  for (const json::value& s : v->get_array()) {
    if (!s.is_string()) return false;
    out.emplace_back(s.get_string());
  }
  return true;
}

// Integers in the catalogue's bounds at most; larger would not fit the casts.
bool positive(double v) { return v >= 1 && v <= 1e12; }

}  // namespace

Result<ReviewParams> readReviewParams(const json::object& params) {
  ReviewParams r;
  double maxFiles = r.maxFiles, maxTokens = static_cast<double>(r.maxTokens),
         chunkTokens = static_cast<double>(r.chunkTokens), maxFindings = r.maxFindings;
  if (!readNumber(params, "maxFiles", maxFiles) || !positive(maxFiles) || maxFiles > 1e9)
    return badParam("maxFiles", "a positive integer");
  if (!readNumber(params, "maxTokens", maxTokens) || !positive(maxTokens))
    return badParam("maxTokens", "a positive integer");
  if (!readNumber(params, "chunkTokens", chunkTokens) || !positive(chunkTokens))
    return badParam("chunkTokens", "a positive integer");
  if (!readNumber(params, "maxFindings", maxFindings) || !positive(maxFindings) || maxFindings > 1e9)
    return badParam("maxFindings", "a positive integer");
  if (!readNumber(params, "minConfidence", r.minConfidence) || r.minConfidence < 0 || r.minConfidence > 1)
    return badParam("minConfidence", "a number from 0 to 1");
  std::string severity = std::string(toString(r.minSeverity));
  if (!readString(params, "minSeverity", severity) || !parseSeverity(severity))
    return badParam("minSeverity", "one of error, warning, notice");
  if (!readStrings(params, "exclude", r.exclude)) return badParam("exclude", "a list of globs");
  if (!readString(params, "instructions", r.instructions)) return badParam("instructions", "a path");
  r.maxFiles = static_cast<int>(maxFiles);
  r.maxTokens = static_cast<std::int64_t>(maxTokens);
  r.chunkTokens = static_cast<std::int64_t>(chunkTokens);
  r.maxFindings = static_cast<int>(maxFindings);
  r.minSeverity = *parseSeverity(severity);
  return r;
}

}  // namespace lw::agents::review
