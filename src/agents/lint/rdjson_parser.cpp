#include "agents/lint/rdjson_parser.h"

#include "agents/lint/lint_json.h"

namespace lw::agents::lint {

namespace json = boost::json;

namespace {

// The proto's enum in JSON: its name, or its number as protojson allows.
std::optional<Severity> severityOf(const JsonReader& r, const json::object& o, const std::string& path) {
  const json::value* v = o.if_contains("severity");
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (v->is_string()) {
    std::string_view s = v->as_string();
    if (s == "ERROR") return Severity::Error;
    if (s == "WARNING") return Severity::Warning;
    if (s == "INFO") return Severity::Notice;
    if (s == "UNKNOWN_SEVERITY") return std::nullopt;
  } else if (v->is_int64() && v->as_int64() >= 0 && v->as_int64() <= 3) {
    constexpr std::optional<Severity> byNumber[] = {std::nullopt, Severity::Error, Severity::Warning, Severity::Notice};
    return byNumber[v->as_int64()];
  }
  Location l;
  l.path = path.empty() ? "severity" : path + ".severity";
  r.fail(l.path + " is not one of ERROR, WARNING, INFO, UNKNOWN_SEVERITY", l);
}

TextRange rangeOf(const JsonReader& r, const json::object* range, const std::string& path) {
  TextRange t;
  if (range == nullptr) return t;
  if (const json::object* start = r.object(*range, "start", path)) {
    t.startLine = r.position(*start, "line", path + ".start");
    t.startColumn = r.position(*start, "column", path + ".start");
  }
  if (const json::object* end = r.object(*range, "end", path)) {
    t.endLine = r.position(*end, "line", path + ".end");
    t.endColumn = r.position(*end, "column", path + ".end");
  }
  return t;
}

std::optional<std::string> suggestionOf(const JsonReader& r, const json::object& diagnostic, const LintDiagnostic& d,
                                        const std::string& path) {
  const json::array* suggestions = r.array(diagnostic, "suggestions", path);
  if (suggestions == nullptr || suggestions->empty()) return std::nullopt;
  std::string spath = path.empty() ? "suggestions[0]" : path + ".suggestions[0]";
  const json::object& s = r.object((*suggestions)[0], spath);
  TextRange range = rangeOf(r, r.object(s, "range", spath), spath + ".range");
  return suggestionFor(d, range, r.string(s, "text", spath).value_or(""));
}

void readDiagnostic(const JsonReader& r, const json::object& o, std::optional<Severity> fallback,
                    const std::string& path, ParsedOutput& out) {
  LintDiagnostic d;
  d.message = r.string(o, "message", path).value_or("");
  auto sub = [&](std::string_view key) { return path.empty() ? std::string(key) : path + "." + std::string(key); };
  if (const json::object* location = r.object(o, "location", path)) {
    d.path = r.string(*location, "path", sub("location")).value_or("");
    TextRange range = rangeOf(r, r.object(*location, "range", sub("location")), sub("location.range"));
    d.line = range.startLine;
    d.column = range.startColumn;
    d.endLine = range.endLine > range.startLine ? range.endLine : 0;
  }
  d.severity = severityOf(r, o, path);
  if (!d.severity) d.severity = fallback;
  if (const json::object* code = r.object(o, "code", path)) d.rule = r.string(*code, "value", sub("code")).value_or("");
  d.suggestion = suggestionOf(r, o, d, path);
  addDiagnostic(out, std::move(d));
}

ParsedOutput readResult(const JsonReader& r, const json::value& v) {
  ParsedOutput out;
  const json::object& result = r.object(v, "");
  std::optional<Severity> fallback = severityOf(r, result, "");
  const json::array* diagnostics = r.array(result, "diagnostics", "");
  if (diagnostics == nullptr) return out;
  for (std::size_t i = 0; i < diagnostics->size(); ++i) {
    std::string path = indexed("", "diagnostics", i);
    readDiagnostic(r, r.object((*diagnostics)[i], path), fallback, path, out);
  }
  return out;
}

}  // namespace

Result<ParsedOutput> parseRdjson(std::string_view text) {
  if (text.size() > kMaxOutputBytes) return outputTooLarge("rdjson", text.size());
  JsonReader reader("rdjson");
  try {
    return readResult(reader, reader.parse(text));
  } catch (MalformedOutput& e) {
    return std::move(e.error);
  }
}

Result<ParsedOutput> parseRdjsonl(std::string_view text) {
  if (text.size() > kMaxOutputBytes) return outputTooLarge("rdjsonl", text.size());
  JsonReader reader("rdjsonl");
  ParsedOutput out;
  int lineNo = 0;
  try {
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++lineNo;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      json::value v = reader.parse(line, lineNo);
      readDiagnostic(reader, reader.object(v, "line " + std::to_string(lineNo)), std::nullopt, "", out);
    }
  } catch (MalformedOutput& e) {
    if (e.error.location && e.error.location->line == 0) e.error.location->line = lineNo;
    return std::move(e.error);
  }
  return out;
}

}  // namespace lw::agents::lint
