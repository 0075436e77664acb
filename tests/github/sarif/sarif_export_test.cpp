#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/fingerprint.h"
#include "github/sarif/sarif_export.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

Finding f(Severity s, std::string rule, std::string path, int line, int endLine = 0) {
  Finding x;
  x.step = "security";
  x.ruleId = std::move(rule);
  x.severity = s;
  x.message = "why and how to fix";
  x.path = std::move(path);
  x.line = line;
  x.endLine = endLine;
  return x;
}

}  // namespace

TEST_CASE("sarif export: levels and URIs") {
  CHECK(sarifLevel(Severity::Error) == "error");
  CHECK(sarifLevel(Severity::Warning) == "warning");
  CHECK(sarifLevel(Severity::Notice) == "note");
  CHECK(sarifUri("src/a b/c#1.c") == "src/a%20b/c%231.c");
  CHECK(sarifUri("dir:x/é.c") == "dir%3Ax/%C3%A9.c");  // a ':' would read as a scheme
}

TEST_CASE("sarif export: one run, a rule per id at its most severe level, a result per located finding") {
  std::vector<Finding> findings = {f(Severity::Warning, "sec/a", "src/x.c", 3, 5),
                                   f(Severity::Notice, "sec/b", "b.c", 0), f(Severity::Error, "sec/a", "src/y.c", 9),
                                   f(Severity::Error, "sec/c", "", 0)};
  SarifLog log = sarifLog(findings, "0.1.0");
  CHECK(log.results == 3);
  CHECK(log.leftOut == 1);
  const json::object& doc = log.document.as_object();
  CHECK(doc.at("version") == "2.1.0");
  CHECK(doc.at("$schema") == kSarifSchemaUri);
  REQUIRE(doc.at("runs").as_array().size() == 1);
  const json::object& run = doc.at("runs").as_array()[0].as_object();
  const json::object& driver = run.at("tool").at("driver").as_object();
  CHECK(driver.at("name") == "loopwright");
  CHECK(driver.at("version") == "0.1.0");
  const json::array& rules = driver.at("rules").as_array();
  REQUIRE(rules.size() == 2);  // sec/c had no location and no result
  CHECK(rules[0].at("id") == "sec/a");
  CHECK(rules[0].at("defaultConfiguration").at("level") == "error");
  CHECK(rules[1].at("id") == "sec/b");
  CHECK(rules[1].at("defaultConfiguration").at("level") == "note");
  CHECK(run.at("properties").at("findingsWithoutPath") == 1);

  const json::array& results = run.at("results").as_array();
  REQUIRE(results.size() == 3);
  const json::object& r0 = results[0].as_object();
  CHECK(r0.at("ruleId") == "sec/a");
  CHECK(r0.at("ruleIndex") == 0);
  CHECK(r0.at("level") == "warning");
  CHECK(r0.at("message").at("text") == "why and how to fix");
  const json::object& loc = r0.at("locations").as_array()[0].at("physicalLocation").as_object();
  CHECK(loc.at("artifactLocation").at("uri") == "src/x.c");
  CHECK(loc.at("artifactLocation").at("uriBaseId") == "%SRCROOT%");
  CHECK(loc.at("region").at("startLine") == 3);
  CHECK(loc.at("region").at("endLine") == 5);
  CHECK(r0.at("partialFingerprints").at(kSarifFingerprintKey) == json::value(fingerprint(findings[0])));
  CHECK(results[1].at("ruleIndex") == 1);
  // Line 0 is the file as a whole: no region.
  CHECK_FALSE(results[1].at("locations").as_array()[0].at("physicalLocation").as_object().contains("region"));
  CHECK(results[2].at("locations").as_array()[0].at("physicalLocation").at("region").at("endLine") == 9);
}

TEST_CASE("sarif export: no findings is a valid empty run") {
  SarifLog log = sarifLog({}, "0.1.0");
  const json::object& run = log.document.at("runs").as_array()[0].as_object();
  CHECK(run.at("results").as_array().empty());
  CHECK(run.at("tool").at("driver").at("rules").as_array().empty());
  CHECK_FALSE(run.contains("properties"));
}
