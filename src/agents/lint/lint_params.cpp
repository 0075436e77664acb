#include "agents/lint/lint_params.h"

#include "agents/lint/checkstyle_parser.h"
#include "agents/lint/rdjson_parser.h"
#include "agents/lint/sarif_parser.h"

namespace lw::agents::lint {

namespace json = boost::json;

namespace {

Error badParam(const std::string& name, const std::string& what) {
  Error e = makeError(ErrorCode::TaskpackInvalid, "builtin/lint: with." + name + " " + what,
                      "`loopwright explain` lists builtin/lint's parameters", "with." + name);
  Location l;
  l.path = "with." + name;
  e.location = l;
  return e;
}

Result<std::string> stringParam(const json::object& with, const std::string& name) {
  const json::value* v = with.if_contains(name);
  if (v == nullptr || !v->is_string()) return badParam(name, "is not a string");
  return std::string(v->as_string());
}

Result<std::vector<std::string>> commandParam(const json::object& with) {
  const json::value* v = with.if_contains("command");
  if (v == nullptr || !v->is_array() || v->as_array().empty()) {
    return badParam("command", "must be the linter's argv, a non-empty list of strings");
  }
  std::vector<std::string> argv;
  for (const json::value& a : v->as_array()) {
    if (!a.is_string()) return badParam("command", "must be a list of strings");
    argv.emplace_back(a.as_string());
  }
  return argv;
}

std::optional<OutputFormat> formatNamed(const std::string& name) {
  if (name == "sarif") return OutputFormat::Sarif;
  if (name == "rdjson") return OutputFormat::Rdjson;
  if (name == "rdjsonl") return OutputFormat::Rdjsonl;
  if (name == "checkstyle") return OutputFormat::Checkstyle;
  if (name == "pattern") return OutputFormat::Pattern;
  return std::nullopt;
}

// The scalar parameters, each of which falls back to nothing: the catalogue
// filled in every default before the agent started.
Status readChoices(const json::object& with, LintParams& p) {
  Result<std::string> mode = stringParam(with, "filterMode");
  if (!mode) return mode.error();
  auto filter = parseFilterMode(*mode);
  if (!filter) return badParam("filterMode", "is not one of added, diff_context, file, nofilter");
  p.filterMode = *filter;
  Result<std::string> severity = stringParam(with, "severity");
  if (!severity) return severity.error();
  auto s = parseSeverity(*severity);
  if (!s) return badParam("severity", "is not one of error, warning, notice");
  p.severity = *s;
  Result<std::string> prefix = stringParam(with, "rulePrefix");
  if (!prefix) return prefix.error();
  p.rulePrefix = *prefix;
  const json::value* max = with.if_contains("maxFindings");
  if (max == nullptr || !max->is_int64() || max->as_int64() < 1)
    return badParam("maxFindings", "is not a positive integer");
  p.maxFindings = static_cast<std::size_t>(max->as_int64());
  return Ok{};
}

}  // namespace

Result<LintParams> readLintParams(const json::object& with) {
  LintParams p;
  Result<std::vector<std::string>> command = commandParam(with);
  if (!command) return command.error();
  p.command = std::move(*command);
  Result<std::string> format = stringParam(with, "format");
  if (!format) return format.error();
  auto f = formatNamed(*format);
  if (!f) return badParam("format", "is not one of sarif, rdjson, rdjsonl, checkstyle, pattern");
  p.format = *f;
  p.formatName = *format;
  if (p.format == OutputFormat::Pattern) {
    Result<std::string> text = stringParam(with, "pattern");
    if (!text) return text.error();
    Result<LinePattern> compiled = LinePattern::compile(*text);
    if (!compiled) return compiled.error();
    p.pattern = std::move(*compiled);
  }
  if (Status s = readChoices(with, p); !s) return s.error();
  return p;
}

Result<ParsedOutput> parseOutput(const LintParams& params, std::string_view text) {
  switch (params.format) {
    case OutputFormat::Sarif: return parseSarif(text);
    case OutputFormat::Rdjson: return parseRdjson(text);
    case OutputFormat::Rdjsonl: return parseRdjsonl(text);
    case OutputFormat::Checkstyle: return parseCheckstyle(text);
    case OutputFormat::Pattern: return parseLines(*params.pattern, text);
  }
  return parseSarif(text);
}

}  // namespace lw::agents::lint
