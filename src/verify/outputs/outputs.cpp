#include "verify/outputs/outputs.h"

#include <boost/json.hpp>

#include "schemas/embedded.h"
#include "verify/check/path_policy.h"
#include "verify/outputs/json_schema.h"

namespace lw::verify {

std::string_view findingsSchemaText() { return schemas::findings; }
std::string_view triageSchemaText() { return schemas::triage; }

namespace {

namespace json = boost::json;

Error invalid(const std::string& source, const std::string& path, const std::string& message) {
  Error e = makeError(ErrorCode::OutputInvalid, source + ": " + path + ": " + message,
                      "see schemas/" + std::string(source.find("triage") != std::string::npos ? "triage" : "findings") +
                          ".schema.json for the format",
                      source);
  Location loc;
  loc.file = source;
  loc.path = path;
  e.location = loc;
  return e;
}

Result<json::value> parseAndValidate(std::string_view text, std::string_view schemaText, const std::string& source) {
  if (text.size() > kMaxOutputBytes)
    return invalid(source, "$", "larger than " + std::to_string(kMaxOutputBytes) + " bytes");
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return invalid(source, "$", "not JSON: " + ec.message());
  json::value schema = json::parse(schemaText);
  if (auto err = validateJson(schema, v)) return invalid(source, err->path, err->message);
  return v;
}

std::string optString(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? std::string(v->get_string()) : std::string();
}

int optInt(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->to_number<int>() : 0;
}

}  // namespace

Result<std::vector<Finding>> parseFindings(std::string_view text, const std::string& step, const std::string& source) {
  auto v = parseAndValidate(text, findingsSchemaText(), source);
  if (!v) return v.error();
  std::vector<Finding> out;
  const json::array& list = v->as_object().at("findings").as_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json::object& o = list[i].as_object();
    std::string at = "$.findings[" + std::to_string(i) + "]";
    Finding f;
    f.step = step;
    f.ruleId = optString(o, "ruleId");
    f.severity = *parseSeverity(optString(o, "severity"));
    f.message = optString(o, "message");
    f.path = optString(o, "path");
    f.line = optInt(o, "line");
    f.endLine = optInt(o, "endLine");
    if (o.contains("suggestion")) f.suggestion = optString(o, "suggestion");
    if (!f.path.empty()) {
      bool escapes = false;
      std::string norm = normalizeRelative(f.path, escapes);
      if (f.path[0] == '/' || escapes || norm != f.path)
        return invalid(source, at + ".path", "must be a plain repository-relative path");
    }
    if (f.endLine != 0 && f.line == 0) return invalid(source, at + ".endLine", "needs line");
    if (f.endLine != 0 && f.endLine < f.line) return invalid(source, at + ".endLine", "must not be before line");
    if ((f.line != 0 || f.suggestion) && f.path.empty())
      return invalid(source, at + ".path", "line and suggestion need a path");
    out.push_back(std::move(f));
  }
  return out;
}

Result<TriageResult> parseTriage(std::string_view text, const std::string& step, const std::string& source) {
  auto v = parseAndValidate(text, triageSchemaText(), source);
  if (!v) return v.error();
  const json::object& o = v->as_object();
  TriageResult t;
  t.step = step;
  for (const json::value& l : o.at("labels").as_array()) t.labels.emplace_back(l.get_string());
  for (const json::value& d : o.at("duplicates").as_array()) {
    const json::object& x = d.as_object();
    t.duplicates.push_back({optInt(x, "number"), optString(x, "reason")});
  }
  if (const json::value* c = o.if_contains("complete")) t.complete = c->get_bool();
  if (const json::value* r = o.if_contains("reproducible")) t.reproducible = r->get_bool();
  t.comment = optString(o, "comment");
  return t;
}

}  // namespace lw::verify
