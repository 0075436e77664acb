#include "github/sarif/sarif_export.h"

#include <cctype>
#include <map>

#include <boost/json.hpp>

#include "github/publish/fingerprint.h"
#include "github/rest/url_paths.h"

namespace lw::github {

namespace json = boost::json;

namespace {

int rank(Severity s) { return s == Severity::Error ? 0 : s == Severity::Warning ? 1 : 2; }

std::string ruleIdOf(const Finding& f) { return f.ruleId.empty() ? std::string("loopwright/unnamed") : f.ruleId; }

// Rules in order of first appearance, each with the most severe level of its findings.
json::array rulesOf(const std::vector<Finding>& located, std::map<std::string, std::size_t>& index) {
  std::vector<std::pair<std::string, Severity>> rules;
  for (const Finding& f : located) {
    auto [it, fresh] = index.emplace(ruleIdOf(f), rules.size());
    if (fresh)
      rules.emplace_back(it->first, f.severity);
    else if (rank(f.severity) < rank(rules[it->second].second))
      rules[it->second].second = f.severity;
  }
  json::array out;
  for (const auto& [id, severity] : rules)
    out.push_back(json::object{{"id", id},
                               {"shortDescription", json::object{{"text", id}}},
                               {"defaultConfiguration", json::object{{"level", sarifLevel(severity)}}}});
  return out;
}

json::object resultOf(const Finding& f, std::size_t ruleIndex) {
  json::object artifact{{"uri", sarifUri(f.path)}, {"uriBaseId", "%SRCROOT%"}};
  json::object physical{{"artifactLocation", std::move(artifact)}};
  if (f.line > 0)  // line 0 is the file as a whole: no region
    physical["region"] = json::object{{"startLine", f.line}, {"endLine", f.endLine > f.line ? f.endLine : f.line}};
  return json::object{{"ruleId", ruleIdOf(f)},
                      {"ruleIndex", ruleIndex},
                      {"level", sarifLevel(f.severity)},
                      {"message", json::object{{"text", f.message}}},
                      {"locations", json::array{json::object{{"physicalLocation", std::move(physical)}}}},
                      {"partialFingerprints", json::object{{kSarifFingerprintKey, fingerprint(f)}}},
                      {"properties", json::object{{"step", f.step}}}};
}

}  // namespace

std::string_view sarifLevel(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Notice: return "note";
  }
  return "warning";
}

std::string sarifUri(const std::string& path) { return urlEncodePath(path); }

SarifLog sarifLog(const std::vector<Finding>& findings, const std::string& version) {
  SarifLog log;
  std::vector<Finding> located;
  for (const Finding& f : findings) {
    if (f.path.empty())
      ++log.leftOut;
    else
      located.push_back(f);
  }
  std::map<std::string, std::size_t> index;
  json::array rules = rulesOf(located, index);
  json::array results;
  for (const Finding& f : located) results.push_back(resultOf(f, index.at(ruleIdOf(f))));
  log.results = results.size();
  json::object driver{{"name", "loopwright"},
                      {"version", version},
                      {"semanticVersion", version},
                      {"informationUri", "https://github.com/loopwright/action"},
                      {"rules", std::move(rules)}};
  json::object run{{"tool", json::object{{"driver", std::move(driver)}}},
                   {"columnKind", "utf16CodeUnits"},
                   {"results", std::move(results)}};
  if (log.leftOut > 0) run["properties"] = json::object{{"findingsWithoutPath", log.leftOut}};
  log.document =
      json::object{{"$schema", kSarifSchemaUri}, {"version", "2.1.0"}, {"runs", json::array{std::move(run)}}};
  return log;
}

}  // namespace lw::github
