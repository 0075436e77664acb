// The SARIF file `run --sarif` writes, checked against the SARIF 2.1.0
// schema's definitions for every object we emit (sarif-schema-2.1.0.json:
// sarifLog, run, tool, toolComponent, reportingDescriptor,
// reportingConfiguration, result, location, physicalLocation,
// artifactLocation, region, message; each closed, as the schema's are) and
// against what GitHub code scanning requires on top of it: every result has
// a physical location with a relative artifact URI, ruleIndex names its rule.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "cli/sarif_file.h"
#include "github/publish/fingerprint.h"
#include "verify/outputs/json_schema.h"

using namespace lw;
using namespace lw::pipeline;
using namespace lw::cli;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSarifSubset = R"({
  "type": "object", "required": ["version", "runs"], "additionalProperties": false,
  "properties": {
    "$schema": {"type": "string"},
    "version": {"enum": ["2.1.0"]},
    "runs": {"type": "array", "minItems": 1, "maxItems": 1, "items": {
      "type": "object", "required": ["tool"], "additionalProperties": false,
      "properties": {
        "tool": {"type": "object", "required": ["driver"], "additionalProperties": false, "properties": {
          "driver": {"type": "object", "required": ["name"], "additionalProperties": false, "properties": {
            "name": {"type": "string", "minLength": 1},
            "version": {"type": "string"},
            "semanticVersion": {"type": "string"},
            "informationUri": {"type": "string"},
            "rules": {"type": "array", "items": {
              "type": "object", "required": ["id"], "additionalProperties": false, "properties": {
                "id": {"type": "string", "minLength": 1},
                "shortDescription": {"type": "object", "required": ["text"], "additionalProperties": false,
                                     "properties": {"text": {"type": "string"}}},
                "defaultConfiguration": {"type": "object", "additionalProperties": false, "properties": {
                  "level": {"enum": ["none", "note", "warning", "error"]}}}}}}}}}},
        "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
        "properties": {"type": "object"},
        "results": {"type": "array", "items": {
          "type": "object", "required": ["message"], "additionalProperties": false, "properties": {
            "ruleId": {"type": "string"},
            "ruleIndex": {"type": "integer", "minimum": -1},
            "level": {"enum": ["none", "note", "warning", "error"]},
            "message": {"type": "object", "required": ["text"], "additionalProperties": false,
                        "properties": {"text": {"type": "string"}}},
            "partialFingerprints": {"type": "object", "additionalProperties": false,
                                    "properties": {"loopwright/v1": {"type": "string"}}},
            "properties": {"type": "object"},
            "locations": {"type": "array", "items": {
              "type": "object", "additionalProperties": false, "properties": {
                "physicalLocation": {"type": "object", "additionalProperties": false, "properties": {
                  "artifactLocation": {"type": "object", "additionalProperties": false, "properties": {
                    "uri": {"type": "string"}, "uriBaseId": {"type": "string"}}},
                  "region": {"type": "object", "additionalProperties": false, "properties": {
                    "startLine": {"type": "integer", "minimum": 1},
                    "endLine": {"type": "integer", "minimum": 1}}}}}}}}}}}}}}
  }
})";

// GitHub's ingestion rules beyond the schema; "" when the log passes.
std::string githubProblem(const json::value& log) {
  const json::object& run = log.at("runs").as_array()[0].as_object();
  const json::array& rules = run.at("tool").at("driver").at("rules").as_array();
  for (const json::value& r : run.at("results").as_array()) {
    const json::object& o = r.as_object();
    if (!o.contains("locations") || o.at("locations").as_array().empty()) return "a result without a location";
    const json::value* phys = o.at("locations").as_array()[0].as_object().if_contains("physicalLocation");
    if (!phys) return "a location without physicalLocation";
    std::string uri(phys->at("artifactLocation").at("uri").as_string());
    if (uri.empty() || uri[0] == '/' || uri.find("://") != std::string::npos) return "uri not relative: " + uri;
    if (const json::value* region = phys->as_object().if_contains("region"))
      if (region->at("endLine").as_int64() < region->at("startLine").as_int64()) return "endLine before startLine";
    std::size_t index = static_cast<std::size_t>(o.at("ruleIndex").as_int64());
    if (index >= rules.size() || rules[index].at("id") != o.at("ruleId")) return "ruleIndex does not name ruleId";
  }
  return "";
}

Finding finding(Severity s, std::string rule, std::string path, int line, int endLine = 0) {
  Finding f;
  f.ruleId = std::move(rule);
  f.severity = s;
  f.message = "message for " + path;
  f.path = std::move(path);
  f.line = line;
  f.endLine = endLine;
  return f;
}

}  // namespace

TEST_CASE("sarif file: every accepted finding of every step in one SARIF 2.1.0 file GitHub code scanning takes") {
  RunRecord run;
  StageRecord review;
  review.name = "review";
  StepRecord sec;
  sec.step = "security";
  sec.findings = {finding(Severity::Error, "workflow/injection", ".github/workflows/ci.yml", 12, 14),
                  finding(Severity::Warning, "deps/new", "package.json", 0)};
  for (auto& f : sec.findings) f.step = "security";
  StepRecord lint;
  lint.step = "lint";
  lint.findings = {finding(Severity::Notice, "SC2086", "scripts/run me.sh", 3),
                   finding(Severity::Warning, "review/scope", "", 0)};
  for (auto& f : lint.findings) f.step = "lint";
  review.steps = {sec, lint};
  run.stages.push_back(review);
  StageRecord other;
  other.name = "docs";
  StepRecord docs;
  docs.step = "docs";
  docs.findings = {finding(Severity::Warning, "workflow/injection", "README.md", 1)};
  other.steps = {docs};
  run.stages.push_back(other);

  std::string path = (fs::temp_directory_path() / ("lw-sarif-" + std::to_string(::getpid()) + ".sarif")).string();
  auto written = writeSarifFile(run, path);
  REQUIRE_MESSAGE(written.ok(), (written.ok() ? "" : written.error().message));
  CHECK(written->results == 4);
  CHECK(written->leftOut == 1);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(path);
  json::value log = json::parse(text.str());
  auto schemaError = verify::validateJson(json::parse(kSarifSubset), log);
  CHECK_MESSAGE(!schemaError, (schemaError ? schemaError->path + ": " + schemaError->message : ""));
  CHECK(githubProblem(log) == "");
  const json::array& results = log.at("runs").as_array()[0].at("results").as_array();
  CHECK(results[2].at("locations").as_array()[0].at("physicalLocation").at("artifactLocation").at("uri") ==
        "scripts/run%20me.sh");
  CHECK(results[3].at("ruleIndex") == 0);  // the docs stage's finding shares the rule of the first
  CHECK(results[0].at("partialFingerprints").at("loopwright/v1") == json::value(github::fingerprint(sec.findings[0])));
}

TEST_CASE("sarif file: the checker itself refuses what GitHub refuses") {
  json::value bad = json::parse(R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r"}]}},
    "results":[{"ruleId":"r","ruleIndex":0,"message":{"text":"m"},"locations":[]}]}]})");
  CHECK_FALSE(verify::validateJson(json::parse(kSarifSubset), bad));
  CHECK(githubProblem(bad) == "a result without a location");
  json::value absolute = json::parse(R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r"}]}},
    "results":[{"ruleId":"r","ruleIndex":0,"message":{"text":"m"},
      "locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///a.c"}}}]}]}]})");
  CHECK(githubProblem(absolute).rfind("uri not relative", 0) == 0);
  json::value level = json::parse(R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},
    "results":[{"message":{"text":"m"},"level":"notice"}]}]})");
  CHECK(verify::validateJson(json::parse(kSarifSubset), level));
}

TEST_CASE("sarif file: an unwritable path is an IO error naming it") {
  auto written = writeSarifFile(RunRecord{}, "/nonexistent-dir/x.sarif");
  REQUIRE_FALSE(written.ok());
  CHECK(written.error().message.find("/nonexistent-dir/x.sarif") != std::string::npos);
}
