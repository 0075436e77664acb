// A step's `isolation:` and `escalate:`: how they are read (every mistake
// with file:line:col and a did-you-mean) and how the step's level is resolved
// against spec.isolation and the host floor.
#include <doctest/doctest.h>

#include "policy/load/taskpack_loader.h"
#include "policy/resolve/resolve.h"

using namespace lw;

namespace {

std::string taskpackWith(const std::string& specExtra, const std::string& stepA) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specExtra +
         "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
         "        - name: a\n          run: [x]\n" +
         stepA + "        - {name: b, run: [x]}\n";
}

Result<Taskpack> parse(const std::string& specExtra, const std::string& stepA) {
  return parseTaskpack(taskpackWith(specExtra, stepA), "tp.yaml", TaskpackLoadOptions{"/home/alice"});
}

std::string firstProblem(const Result<Taskpack>& r) {
  REQUIRE_FALSE(r.ok());
  REQUIRE(!r.error().diagnostics.empty());
  const Diagnostic& d = r.error().diagnostics.front();
  return std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + " " + d.location.path + ": " +
         d.message + " | " + d.hint;
}

HostConfig floorAt(Isolation level) {
  HostConfig h;
  h.present = true;
  h.file = "/etc/loopwright/host.yaml";
  h.floor.minIsolation = level;
  return h;
}

}  // namespace

TEST_CASE("step isolation: read with escalate on and to") {
  auto r = parse("",
                 "          isolation: L2\n          idempotent: true\n"
                 "          escalate: {on: [LOOP_DETECTED, TIMEOUT], to: L3}\n");
  REQUIRE(r.ok());
  const Step& a = r->stages[0].steps[0];
  CHECK(a.isolation == Isolation::L2);
  CHECK(a.isolationLocation.line == 11);
  REQUIRE(a.escalate);
  CHECK(a.escalate->on == std::vector{EscalationTrigger::LoopDetected, EscalationTrigger::Timeout});
  CHECK(a.escalate->to == Isolation::L3);
  CHECK_FALSE(r->stages[0].steps[1].isolation);
  CHECK_FALSE(r->stages[0].steps[1].escalate);
}

TEST_CASE("step isolation: mistakes are reported where they are, with a did-you-mean") {
  SUBCASE("a trigger that is not in the vocabulary") {
    auto r = parse("", "          escalate: {on: [BREAKER_OPNE], to: L2}\n");
    CHECK(firstProblem(r).starts_with("11:27 spec.stages[0].steps[0].escalate.on[0]: "));
    CHECK(firstProblem(r).find("did you mean 'BREAKER_OPEN'?") != std::string::npos);
  }
  SUBCASE("a level that is not one") {
    auto r = parse("", "          isolation: L4\n");
    CHECK(firstProblem(r).starts_with("11:22 spec.stages[0].steps[0].isolation: "));
  }
  SUBCASE("an unknown key inside escalate") {
    auto r = parse("", "          escalate: {too: L2}\n");
    CHECK(firstProblem(r).find("did you mean 'to'?") != std::string::npos);
  }
  SUBCASE("to at the step's own level") {
    auto r = parse("", "          isolation: L2\n          escalate: {to: L2}\n");
    CHECK(firstProblem(r) ==
          "12:26 spec.stages[0].steps[0].escalate.to: escalate.to L2 is not above the step's isolation L2: "
          "escalation never stays at a level or goes below it | set to: L3 or higher, or remove 'escalate'");
  }
  SUBCASE("to L1 is never above anything") {
    auto r = parse("", "          escalate: {to: L1}\n");
    CHECK(firstProblem(r).find("escalate.to L1 is not above the step's level (L1 by default)") != std::string::npos);
  }
  SUBCASE("a step without its own level escalates above spec.isolation, wherever spec.isolation is written") {
    auto after = parseTaskpack(taskpackWith("", "          escalate: {to: L2}\n") + "  isolation: L2\n", "tp.yaml",
                               TaskpackLoadOptions{"/home/alice"});
    CHECK(firstProblem(after).find("escalate.to L2 is not above spec.isolation L2, the level this step runs at | "
                                   "set to: L3 or higher") != std::string::npos);
    CHECK(parse("  isolation: L1\n", "          escalate: {to: L2}\n").ok());
    CHECK(parse("  isolation: L2\n", "          isolation: L1\n          escalate: {to: L2}\n").ok());
  }
  SUBCASE("a step at L3 has nowhere to go") {
    auto r = parse("", "          isolation: L3\n          escalate: {to: L3}\n");
    CHECK(firstProblem(r).find("| a step at L3 cannot escalate: remove 'escalate'") != std::string::npos);
  }
}

TEST_CASE("step isolation: resolution of step, taskpack and floor levels") {
  struct Case {
    const char* name;
    std::string specExtra, stepA;
    std::optional<Isolation> floor;
    Isolation a, b;
    std::string whyA;
  };
  const std::vector<Case> cases = {
      {"nothing set", "", "", std::nullopt, Isolation::L1, Isolation::L1, "default L1"},
      {"the taskpack's level", "  isolation: L2\n", "", std::nullopt, Isolation::L2, Isolation::L2,
       "taskpack spec.isolation (tp.yaml:5)"},
      {"the step's level over the taskpack's", "  isolation: L1\n", "          isolation: L2\n", std::nullopt,
       Isolation::L2, Isolation::L1, "step isolation (tp.yaml:12)"},
      {"the step's level above the floor", "  isolation: L2\n", "          isolation: L3\n", Isolation::L2,
       Isolation::L3, Isolation::L2, "step isolation (tp.yaml:12)"},
      {"a floor at L3 the taskpack meets", "  isolation: L3\n", "", Isolation::L3, Isolation::L3, Isolation::L3,
       "taskpack spec.isolation (tp.yaml:5)"},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      auto tp = parse(c.specExtra, c.stepA);
      REQUIRE(tp.ok());
      HostConfig host = c.floor ? floorAt(*c.floor) : HostConfig{};
      auto r = resolvePolicies(*tp, host, {false, "/home/alice"});
      REQUIRE(r.ok());
      CHECK((*r)[0].sandbox.minIsolation == c.a);
      CHECK((*r)[1].sandbox.minIsolation == c.b);
      CHECK((*r)[0].origins.at("isolation") == c.whyA);
    }
  }
}

TEST_CASE("step isolation: a step below the floor is POLICY_FLOOR_VIOLATION naming the step's key") {
  auto tp = parse("  isolation: L2\n", "          isolation: L1\n");
  REQUIRE(tp.ok());
  auto r = resolvePolicies(*tp, floorAt(Isolation::L2), {false, "/home/alice"});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::PolicyFloorViolation);
  REQUIRE(r.error().diagnostics.size() == 1);
  CHECK(r.error().diagnostics[0].message ==
        "stage 'review' step 'a' asks for isolation L1, below the minimum L2 required by the host config floor "
        "(/etc/loopwright/host.yaml)");
  CHECK(r.error().diagnostics[0].hint == "set the step's isolation: L2 (or higher)");
}

TEST_CASE("step isolation: idempotent and escalate reach the effective policy") {
  auto tp = parse("", "          idempotent: true\n          escalate: {to: L2}\n");
  REQUIRE(tp.ok());
  auto r = resolvePolicies(*tp, HostConfig{}, {false, "/home/alice"});
  REQUIRE(r.ok());
  CHECK((*r)[0].idempotent);
  REQUIRE((*r)[0].escalate);
  CHECK((*r)[0].escalate->to == Isolation::L2);
  CHECK_FALSE((*r)[1].escalate);
}
