#include "agents/lint/sarif_parser.h"

#include <map>

#include "agents/lint/lint_json.h"
#include "agents/lint/lint_paths.h"

namespace lw::agents::lint {

namespace json = boost::json;

namespace {

constexpr std::string_view kFormat = "sarif";

// What a run says about its rules and its base URIs.
struct RunContext {
  const json::object* run = nullptr;
  std::string path;  // "runs[0]"
  std::vector<const json::object*> rules;
  std::map<std::string, const json::object*> rulesById;
  const json::object* globalMessageStrings = nullptr;
};

RunContext readRun(const JsonReader& r, const json::object& run, const std::string& path) {
  RunContext c;
  c.run = &run;
  c.path = path;
  const json::object* tool = r.object(run, "tool", path);
  const json::object* driver = tool ? r.object(*tool, "driver", path + ".tool") : nullptr;
  if (driver == nullptr) return c;
  std::string driverPath = path + ".tool.driver";
  c.globalMessageStrings = r.object(*driver, "globalMessageStrings", driverPath);
  if (const json::array* rules = r.array(*driver, "rules", driverPath)) {
    for (std::size_t i = 0; i < rules->size(); ++i) {
      const json::object& rule = r.object((*rules)[i], indexed(driverPath, "rules", i));
      c.rules.push_back(&rule);
      if (auto id = r.string(rule, "id", indexed(driverPath, "rules", i))) c.rulesById.emplace(*id, &rule);
    }
  }
  return c;
}

// SARIF §3.27.6-7: the rule is named by ruleId, rule.id, or an index into
// the driver's rules.
std::pair<std::string, const json::object*> ruleOf(const JsonReader& r, const RunContext& c, const json::object& result,
                                                   const std::string& path) {
  std::optional<std::string> id = r.string(result, "ruleId", path);
  int index = result.contains("ruleIndex") ? r.position(result, "ruleIndex", path) : -1;
  if (const json::object* ref = r.object(result, "rule", path)) {
    if (!id) id = r.string(*ref, "id", path + ".rule");
    if (index < 0 && ref->contains("index")) index = r.position(*ref, "index", path + ".rule");
  }
  const json::object* rule = nullptr;
  if (id) {
    auto it = c.rulesById.find(*id);
    if (it != c.rulesById.end()) rule = it->second;
  }
  if (rule == nullptr && index >= 0 && static_cast<std::size_t>(index) < c.rules.size()) {
    rule = c.rules[static_cast<std::size_t>(index)];
    if (!id) id = r.string(*rule, "id", c.path + ".tool.driver.rules[" + std::to_string(index) + "]");
  }
  return {id.value_or(""), rule};
}

std::optional<Severity> levelSeverity(const JsonReader& r, const std::string& level, const std::string& path) {
  if (level == "error") return Severity::Error;
  if (level == "warning") return Severity::Warning;
  if (level == "note" || level == "none") return Severity::Notice;
  Location l;
  l.path = path;
  r.fail(path + " is \"" + level + "\", not one of error, warning, note, none", l);
}

std::optional<Severity> severityOf(const JsonReader& r, const json::object& result, const json::object* rule,
                                   const std::string& path) {
  if (auto level = r.string(result, "level", path)) return levelSeverity(r, *level, path + ".level");
  if (rule == nullptr) return std::nullopt;
  const json::object* config = r.object(*rule, "defaultConfiguration", "rule");
  if (config == nullptr) return std::nullopt;
  if (auto level = r.string(*config, "level", "rule.defaultConfiguration")) {
    return levelSeverity(r, *level, "rule.defaultConfiguration.level");
  }
  return std::nullopt;
}

// SARIF §3.11.5: "{0}" in a message string is replaced by arguments[0].
std::string withArguments(const std::string& text, const json::array* arguments) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::size_t close = text.find('}', i);
    if (text[i] == '{' && close != std::string::npos && close > i + 1 && close - i <= 4 && arguments != nullptr &&
        text.find_first_not_of("0123456789", i + 1) == close) {
      std::size_t n = std::stoul(text.substr(i + 1, close - i - 1));
      if (n < arguments->size() && (*arguments)[n].is_string()) {
        out += std::string((*arguments)[n].as_string());
        i = close;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string messageOf(const JsonReader& r, const RunContext& c, const json::object& result, const json::object* rule,
                      const std::string& path) {
  const json::object* message = r.object(result, "message", path);
  if (message == nullptr) return {};
  std::string mpath = path + ".message";
  const json::array* arguments = r.array(*message, "arguments", mpath);
  if (auto text = r.string(*message, "text", mpath)) return withArguments(*text, arguments);
  if (auto id = r.string(*message, "id", mpath)) {
    for (const json::object* strings :
         {rule ? r.object(*rule, "messageStrings", "rule") : nullptr, c.globalMessageStrings}) {
      const json::object* entry = strings ? r.object(*strings, *id, "messageStrings") : nullptr;
      if (entry == nullptr) continue;
      if (auto text = r.string(*entry, "text", "messageStrings." + *id)) return withArguments(*text, arguments);
    }
  }
  return r.string(*message, "markdown", mpath).value_or("");
}

bool isAbsoluteReference(const std::string& uri) {
  return (!uri.empty() && uri[0] == '/') || uri.find(':') != std::string::npos;
}

// SARIF §3.4.4: a uriBaseId names an entry of originalUriBaseIds, which may
// itself be relative to another; an unknown one is left to mean the
// workspace (tools write "%SRCROOT%" and let the consumer decide).
std::string baseUri(const JsonReader& r, const RunContext& c, const std::optional<std::string>& id, int depth) {
  if (!id || depth > 4) return {};
  const json::object* bases = r.object(*c.run, "originalUriBaseIds", c.path);
  const json::object* base = bases ? r.object(*bases, *id, c.path + ".originalUriBaseIds") : nullptr;
  if (base == nullptr) return {};
  std::string bpath = c.path + ".originalUriBaseIds." + *id;
  std::string uri = r.string(*base, "uri", bpath).value_or("");
  if (isAbsoluteReference(uri)) return uri;
  std::string outer = baseUri(r, c, r.string(*base, "uriBaseId", bpath), depth + 1);
  if (!outer.empty() && outer.back() != '/') outer += '/';
  return outer + uri;
}

// The artifact's path as a file path (still to be made repository-relative);
// "" for a location without one.
std::string artifactPath(const JsonReader& r, const RunContext& c, const json::object& artifact,
                         const std::string& path) {
  std::optional<std::string> uri = r.string(artifact, "uri", path);
  std::optional<std::string> baseId = r.string(artifact, "uriBaseId", path);
  if (!uri && artifact.contains("index")) {
    int index = r.position(artifact, "index", path);
    const json::array* artifacts = r.array(*c.run, "artifacts", c.path);
    if (artifacts != nullptr && static_cast<std::size_t>(index) < artifacts->size()) {
      std::string apath = indexed(c.path, "artifacts", static_cast<std::size_t>(index));
      const json::object* location =
          r.object(r.object((*artifacts)[static_cast<std::size_t>(index)], apath), "location", apath);
      if (location != nullptr) return artifactPath(r, c, *location, apath + ".location");
    }
  }
  if (!uri) return {};
  std::string full = *uri;
  if (!isAbsoluteReference(full)) {
    std::string base = baseUri(r, c, baseId, 0);
    if (!base.empty() && base.back() != '/') base += '/';
    full = base + full;
  }
  std::optional<std::string> file = uriToPath(full);
  if (!file) {
    Location l;
    l.path = path + ".uri";
    r.fail(l.path + " \"" + *uri + "\" is not a file URI (or has a bad %-escape)", l);
  }
  return *file;
}

TextRange regionOf(const JsonReader& r, const json::object* region, const std::string& path) {
  TextRange g;
  if (region == nullptr) return g;
  g.startLine = r.position(*region, "startLine", path);
  g.startColumn = r.position(*region, "startColumn", path);
  g.endLine = r.position(*region, "endLine", path);
  g.endColumn = r.position(*region, "endColumn", path);
  return g;
}

// The first fix's one replacement, when it is in the result's own file and
// replaces exactly the result's lines.
std::optional<std::string> suggestionOf(const JsonReader& r, const RunContext& c, const json::object& result,
                                        const LintDiagnostic& d, const std::string& path) {
  const json::array* fixes = r.array(result, "fixes", path);
  if (fixes == nullptr || fixes->empty()) return std::nullopt;
  std::string fpath = path + ".fixes[0]";
  const json::array* changes = r.array(r.object((*fixes)[0], fpath), "artifactChanges", fpath);
  if (changes == nullptr || changes->size() != 1) return std::nullopt;
  std::string cpath = fpath + ".artifactChanges[0]";
  const json::object& change = r.object((*changes)[0], cpath);
  const json::object* artifact = r.object(change, "artifactLocation", cpath);
  const json::array* replacements = r.array(change, "replacements", cpath);
  if (artifact == nullptr || replacements == nullptr || replacements->size() != 1) return std::nullopt;
  if (artifactPath(r, c, *artifact, cpath + ".artifactLocation") != d.path) return std::nullopt;
  std::string rpath = cpath + ".replacements[0]";
  const json::object& replacement = r.object((*replacements)[0], rpath);
  TextRange deleted = regionOf(r, r.object(replacement, "deletedRegion", rpath), rpath + ".deletedRegion");
  const json::object* inserted = r.object(replacement, "insertedContent", rpath);
  std::string text = inserted ? r.string(*inserted, "text", rpath + ".insertedContent").value_or("") : "";
  return suggestionFor(d, deleted, std::move(text));
}

void locate(const JsonReader& r, const RunContext& c, const json::object& result, LintDiagnostic& d,
            const std::string& path) {
  const json::array* locations = r.array(result, "locations", path);
  if (locations == nullptr || locations->empty()) return;
  std::string lpath = path + ".locations[0]";
  const json::object* physical = r.object(r.object((*locations)[0], lpath), "physicalLocation", lpath);
  if (physical == nullptr) return;
  std::string ppath = lpath + ".physicalLocation";
  if (const json::object* artifact = r.object(*physical, "artifactLocation", ppath)) {
    d.path = artifactPath(r, c, *artifact, ppath + ".artifactLocation");
  }
  TextRange g = regionOf(r, r.object(*physical, "region", ppath), ppath + ".region");
  d.line = g.startLine;
  d.endLine = g.endLine > g.startLine ? g.endLine : 0;
  d.column = g.startColumn;
}

// SARIF §3.27.9 / §3.35.3: a result that passed or does not apply is no
// finding, nor is one with an accepted suppression (status absent means
// accepted).
bool reportable(const JsonReader& r, const json::object& result, const std::string& path) {
  std::string kind = r.string(result, "kind", path).value_or("fail");
  if (kind == "pass" || kind == "notApplicable") return false;
  const json::array* suppressions = r.array(result, "suppressions", path);
  if (suppressions == nullptr) return true;
  for (std::size_t i = 0; i < suppressions->size(); ++i) {
    std::string spath = indexed(path, "suppressions", i);
    std::string status = r.string(r.object((*suppressions)[i], spath), "status", spath).value_or("accepted");
    if (status == "accepted") return false;
  }
  return true;
}

void readResult(const JsonReader& r, const RunContext& c, const json::object& result, const std::string& path,
                ParsedOutput& out) {
  if (!reportable(r, result, path)) {
    ++out.ignored;
    return;
  }
  LintDiagnostic d;
  auto [id, rule] = ruleOf(r, c, result, path);
  d.rule = id;
  d.severity = severityOf(r, result, rule, path);
  d.message = messageOf(r, c, result, rule, path);
  locate(r, c, result, d, path);
  d.suggestion = suggestionOf(r, c, result, d, path);
  addDiagnostic(out, std::move(d));
}

ParsedOutput readLog(const JsonReader& r, const json::value& log) {
  ParsedOutput out;
  const json::array* runs = r.array(r.object(log, ""), "runs", "");
  if (runs == nullptr) r.fail("no \"runs\" array (is this a SARIF log?)", Location{});
  for (std::size_t i = 0; i < runs->size(); ++i) {
    std::string rpath = indexed("", "runs", i);
    RunContext c = readRun(r, r.object((*runs)[i], rpath), rpath);
    const json::array* results = r.array(*c.run, "results", rpath);
    if (results == nullptr) continue;
    for (std::size_t j = 0; j < results->size(); ++j) {
      std::string path = indexed(rpath, "results", j);
      readResult(r, c, r.object((*results)[j], path), path, out);
    }
  }
  return out;
}

}  // namespace

Result<ParsedOutput> parseSarif(std::string_view text) {
  if (text.size() > kMaxOutputBytes) return outputTooLarge(kFormat, text.size());
  JsonReader reader(kFormat);
  try {
    return readLog(reader, reader.parse(text));
  } catch (MalformedOutput& e) {
    return std::move(e.error);
  }
}

}  // namespace lw::agents::lint
