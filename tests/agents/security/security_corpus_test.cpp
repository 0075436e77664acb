// Every case of tests/data/security/cases: each planted risk found on its
// line with its rule, nothing else, and no warning or error on the safe twins.
#include <doctest/doctest.h>

#include <optional>
#include <set>
#include <string>

#include "agents/security/rules.h"
#include "agents/security/scan/scan.h"
#include "security_corpus_fixture.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

std::set<std::string> found(const test::SecurityCase& c) {
  ScanOptions o;
  o.maxFindings = 1000;
  o.repositoryOwner = "example-org";
  std::optional<Persona> persona = parsePersona(c.persona);
  REQUIRE(persona.has_value());
  o.persona = *persona;
  std::set<std::string> out;
  for (const Finding& f : scanChangedFiles(c.files, o))
    out.insert(f.path + ":" + std::to_string(f.line) + " " + f.ruleId);
  return out;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += "  " + x + "\n";
  return out.empty() ? "  (none)\n" : out;
}

}  // namespace

TEST_CASE("security corpus: every planted risk is found on its line and the safe twins hold no warning or error") {
  std::vector<test::SecurityCase> corpus = test::loadSecurityCorpus();
  REQUIRE(corpus.size() >= 40);
  int vulnerable = 0, safe = 0;
  for (const test::SecurityCase& c : corpus) {
    CAPTURE(c.name);
    std::set<std::string> got = found(c);
    INFO("expected:\n" << joined(c.expected) << "found:\n" << joined(got));
    CHECK(got == c.expected);
    if (c.name.ends_with("-vuln")) {
      ++vulnerable;
      CHECK_FALSE(c.expected.empty());
    } else {
      REQUIRE(c.name.ends_with("-safe"));
      ++safe;
      // A safe twin may still carry a notice (security/dangerous-trigger on
      // every pull_request_target), never a warning or an error.
      for (const std::string& e : c.expected) {
        CAPTURE(e);
        const RuleInfo* rule = findRule(e.substr(e.find(' ') + 1));
        REQUIRE(rule != nullptr);
        CHECK(rule->severity == Severity::Notice);
      }
    }
  }
  CHECK(vulnerable == safe);
}

TEST_CASE("security corpus: every rule has a vulnerable case that expects it") {
  std::set<std::string> expected;
  for (const test::SecurityCase& c : test::loadSecurityCorpus())
    for (const std::string& e : c.expected) expected.insert(e.substr(e.find(' ') + 1));
  for (const RuleInfo& r : allRules()) {
    CAPTURE(r.id);
    CHECK(expected.count(std::string(r.id)) == 1);
  }
}
