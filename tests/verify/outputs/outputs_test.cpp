#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <boost/json.hpp>

#include "schemas/embedded.h"
#include "verify/outputs/json_schema.h"
#include "verify/outputs/outputs.h"

using namespace lw::verify;
namespace json = boost::json;

namespace {
std::string readSource(const std::string& rel) {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("verify outputs: the compiled-in schemas are the files in schemas/, byte for byte") {
  std::set<std::string> onDisk;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LOOPWRIGHT_SOURCE_DIR) + "/schemas"))
    if (entry.path().filename().string().ends_with(".schema.json")) onDisk.insert(entry.path().filename().string());
  std::set<std::string> embedded;
  for (const auto& schema : lw::schemas::kAll) {
    embedded.insert(std::string(schema.file));
    CAPTURE(schema.file);
    CHECK(schema.text == readSource("schemas/" + std::string(schema.file)));
  }
  CHECK(embedded == onDisk);
  CHECK(findingsSchemaText() == lw::schemas::findings);
  CHECK(triageSchemaText() == lw::schemas::triage);
}

TEST_CASE("verify outputs: valid findings become Finding values") {
  auto r = parseFindings(R"({"findings":[
      {"ruleId":"security/sqli","severity":"error","message":"m","path":"src/a.c","line":3,"endLine":4,"suggestion":"x"},
      {"ruleId":"docs/missing","severity":"notice","message":"whole change"}]})",
                         "security");
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  CHECK((*r)[0].step == "security");
  CHECK((*r)[0].severity == lw::Severity::Error);
  CHECK((*r)[0].endLine == 4);
  CHECK((*r)[0].suggestion == std::optional<std::string>("x"));
  CHECK((*r)[1].path.empty());
}

TEST_CASE("verify outputs: invalid findings are refused with the path of the first error") {
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
      {R"({"findings":[{"ruleId":"r","severity":"fatal","message":"m"}]})",
       "findings.json: $.findings[0].severity: must be one of \"error\", \"warning\", \"notice\""},
      {R"({"findings":[{"ruleId":"r","severity":"error"}]})",
       "findings.json: $.findings[0]: missing required property 'message'"},
      {R"({"findings":[],"extra":1})", "findings.json: $.extra: unknown property 'extra'"},
      {R"({"findings":[{"ruleId":"r","severity":"error","message":"m","path":"a","line":0}]})",
       "findings.json: $.findings[0].line: must be at least 1"},
      {R"({"findings":[{"ruleId":"r","severity":"error","message":"m","path":"a","line":"3"}]})",
       "findings.json: $.findings[0].line: must be integer, not string"},
      {R"({"findings":[{"ruleId":"","severity":"error","message":"m"}]})",
       "findings.json: $.findings[0].ruleId: must be at least 1 characters"},
      {R"({"findings":[{"ruleId":"r","severity":"error","message":"m","path":"../etc/passwd"}]})",
       "findings.json: $.findings[0].path: must be a plain repository-relative path"},
      {R"({"findings":[{"ruleId":"r","severity":"error","message":"m","path":"a","line":5,"endLine":4}]})",
       "findings.json: $.findings[0].endLine: must not be before line"},
      {R"({"findings":[)", "findings.json: $: not JSON: "},
  };
  for (const Row& row : rows) {
    std::string text = row.text;
    CAPTURE(text);
    auto r = parseFindings(row.text, "s");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == lw::ErrorCode::OutputInvalid);
    std::string message = r.error().message;
    CAPTURE(message);
    CHECK(message.starts_with(row.message));
  }
}

TEST_CASE("verify outputs: bounds on array sizes and string lengths") {
  std::string many = R"({"findings":[)";
  for (int i = 0; i < 1001; ++i)
    many += std::string(i ? "," : "") + R"({"ruleId":"r","severity":"notice","message":"m"})";
  many += "]}";
  auto r = parseFindings(many, "s");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "findings.json: $.findings: must have at most 1000 items");
  std::string label(51, 'x');
  auto t = parseTriage(R"({"labels":[")" + label + R"("],"duplicates":[]})", "t");
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().message == "triage.json: $.labels[0]: must be at most 50 characters");
  // Lengths count characters, not bytes: 50 two-byte characters fit.
  std::string wide;
  for (int i = 0; i < 50; ++i) wide += "é";
  CHECK(parseTriage(R"({"labels":[")" + wide + R"("],"duplicates":[]})", "t").ok());
}

TEST_CASE("verify outputs: triage results") {
  auto t = parseTriage(
      R"({"labels":["bug"],"duplicates":[{"number":12,"reason":"same crash"}],"complete":false,"comment":"hi"})",
      "triage");
  REQUIRE(t.ok());
  CHECK(t->labels == std::vector<std::string>{"bug"});
  REQUIRE(t->duplicates.size() == 1);
  CHECK(t->duplicates[0].number == 12);
  CHECK(t->complete == std::optional<bool>(false));
  CHECK_FALSE(t->reproducible.has_value());
  auto bad = parseTriage(R"({"labels":[],"duplicates":[{"number":0,"reason":"x"}]})", "triage");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().location->path == "$.duplicates[0].number");
}

TEST_CASE("verify json schema: a keyword the validator would ignore is refused, not ignored") {
  // prefixItems is draft 2020-12's; under draft 7 rules it would pass anything.
  auto err = validateJson(json::parse(R"({"type":"array","prefixItems":[{"type":"string"}]})"), json::parse("[1]"));
  REQUIRE(err.has_value());
  CHECK(err->path == "#schema");
  CHECK(err->message == "unsupported schema keyword 'prefixItems'");
  auto nested = validateJson(json::parse(R"({"properties":{"a":{"items":{"unevaluatedProperties":false}}}})"),
                             json::parse(R"({"a":[{}]})"));
  REQUIRE(nested.has_value());
  CHECK(nested->message == "unsupported schema keyword 'unevaluatedProperties'");
}

TEST_CASE("verify json schema: additionalProperties given as a schema applies to the other properties") {
  // The hand-written subset applied additionalProperties only when false.
  const json::value schema = json::parse(
      R"({"type":"object","properties":{"n":{"type":"string"}},"additionalProperties":{"type":"integer"}})");
  CHECK_FALSE(validateJson(schema, json::parse(R"({"n":"x","count":3})")));
  auto err = validateJson(schema, json::parse(R"({"n":"x","count":"three"})"));
  REQUIRE(err.has_value());
  CHECK(err->path == "$.count");
  CHECK(err->message == "must be integer, not string");
}

TEST_CASE("verify json schema: enum members compare as JSON numbers, 1.0 equal to 1") {
  // The subset compared Boost.JSON kinds: 1.0 (a double) was not the enum's 1.
  const json::value schema = json::parse(R"({"enum":[1,2]})");
  CHECK_FALSE(validateJson(schema, json::parse("1.0")));
  auto err = validateJson(schema, json::parse("3"));
  REQUIRE(err.has_value());
  CHECK(err->message == "must be one of 1, 2");
}

TEST_CASE("verify json schema: pattern and the other draft 7 keywords are applied") {
  const json::value schema = json::parse(R"({"type":"object","properties":{"id":{"type":"string","pattern":"^[a-z]+$"}},
                                             "anyOf":[{"required":["id"]},{"required":["name"]}]})");
  CHECK_FALSE(validateJson(schema, json::parse(R"({"id":"abc"})")));
  auto bad = validateJson(schema, json::parse(R"({"id":"ABC"})"));
  REQUIRE(bad.has_value());
  CHECK(bad->path == "$.id");
  CHECK(validateJson(schema, json::parse(R"({"other":1})")));
}

TEST_CASE("verify json schema: a number with no fractional part is an integer, as draft 2020-12 says") {
  // Our schemas declare draft 2020-12 (§6.1.1 of its validation vocabulary:
  // 1.0 is an integer); a draft-7 validator refuses it.
  const json::value schema = json::parse(R"({"type":"integer","minimum":1})");
  CHECK_FALSE(validateJson(schema, json::parse("3.0")));
  auto err = validateJson(schema, json::parse("3.5"));
  REQUIRE(err.has_value());
  CHECK(err->message == "must be integer, not number");
}
