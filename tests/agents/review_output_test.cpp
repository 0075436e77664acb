#include <doctest/doctest.h>

#include "agents/review/model_output.h"

using namespace lw;
using namespace lw::agents::review;

namespace {

const std::vector<std::string> kPaths = {"src/a.py", "src/b.py"};

const char* kValid = R"J({"findings":[{"path":"src/a.py","startLine":3,"endLine":4,"severity":"error",
  "rule":"sql-injection","message":"The query concatenates user input.","suggestion":"cur.execute(q, (x,))",
  "confidence":0.9},{"path":"src/b.py","startLine":7,"endLine":7,"severity":"notice","rule":"naming",
  "message":"Unclear name.","confidence":0.5}]})J";

// The JSON paths of an invalid answer's problems.
std::vector<std::string> problemPaths(const Error& e) {
  std::vector<std::string> out;
  for (const Diagnostic& d : e.diagnostics) out.push_back(d.location.path);
  return out;
}

std::string finding(const std::string& fields) { return R"({"findings":[{)" + fields + "}]}"; }

const std::string kGood =
    R"("path":"src/a.py","startLine":1,"endLine":1,"severity":"warning","rule":"r","message":"m","confidence":1)";

}  // namespace

TEST_CASE("review output: a valid answer is read field by field") {
  auto r = parseModelOutput(kValid, kPaths, false);
  REQUIRE(r);
  REQUIRE(r->findings.size() == 2);
  CHECK(r->offChange.empty());
  const ModelFinding& f = r->findings[0];
  CHECK(f.path == "src/a.py");
  CHECK(f.startLine == 3);
  CHECK(f.endLine == 4);
  CHECK(f.severity == Severity::Error);
  CHECK(f.rule == "sql-injection");
  CHECK(f.suggestion == std::optional<std::string>("cur.execute(q, (x,))"));
  CHECK(f.confidence == doctest::Approx(0.9));
  CHECK_FALSE(r->findings[1].suggestion);
  auto none = parseModelOutput(R"({"findings": []})", kPaths, false);
  REQUIRE(none);
  CHECK(none->findings.empty());
}

TEST_CASE("review output: a ```json fence around the object is tolerated, nothing else") {
  CHECK(parseModelOutput(std::string("```json\n") + kValid + "\n```", kPaths, false));
  CHECK(parseModelOutput(std::string("  ```\n") + kValid + "\n```\n", kPaths, false));
  CHECK_FALSE(parseModelOutput(std::string("Here are the findings:\n") + kValid, kPaths, false));
  CHECK_FALSE(parseModelOutput(std::string("```python\n") + kValid + "\n```", kPaths, false));
  CHECK_FALSE(parseModelOutput(std::string(kValid) + "\nHope this helps!", kPaths, false));
  CHECK(stripJsonFence("```json\n{}\n```") == "{}\n");
}

TEST_CASE("review output: malformed and partial answers are OUTPUT_INVALID") {
  SUBCASE("not JSON") {
    auto r = parseModelOutput("I found no problems.", kPaths, false);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::OutputInvalid);
  }
  SUBCASE("cut off in the middle") {
    const std::string half = std::string(kValid).substr(0, 120);
    CHECK_FALSE(parseModelOutput(half, kPaths, false));
  }
  SUBCASE("stopped at the token limit though it parses") {
    auto r = parseModelOutput(kValid, kPaths, true);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("cut off at the token limit") != std::string::npos);
  }
  SUBCASE("not the contract's shape") {
    CHECK_FALSE(parseModelOutput("[]", kPaths, false));
    CHECK_FALSE(parseModelOutput(R"({"findings": {}})", kPaths, false));
    CHECK_FALSE(parseModelOutput(R"({"results": []})", kPaths, false));
    CHECK_FALSE(parseModelOutput(R"({"findings": [], "verdict": "approve"})", kPaths, false));
  }
}

TEST_CASE("review output: hostile fields are each refused with their JSON path") {
  SUBCASE("wrong types") {
    auto r = parseModelOutput(
        finding(R"("path":1,"startLine":"3","endLine":4.5,"severity":2,"rule":[],"message":{},"confidence":"high")"),
        kPaths, false);
    REQUIRE_FALSE(r);
    CHECK(problemPaths(r.error()) == std::vector<std::string>{"findings[0].path", "findings[0].startLine",
                                                              "findings[0].endLine", "findings[0].severity",
                                                              "findings[0].rule", "findings[0].message",
                                                              "findings[0].confidence"});
  }
  SUBCASE("a path that is not in the chunk, in an answer that is otherwise malformed") {
    auto r = parseModelOutput(
        R"({"findings":[{"path":"/etc/passwd","startLine":1,"endLine":1,"severity":"error","rule":"r","message":"m",)"
        R"("confidence":1},{"path":"src/a.py","startLine":1,"endLine":1,"severity":"bad","rule":"r","message":"m",)"
        R"("confidence":1}]})",
        kPaths, false);
    REQUIRE_FALSE(r);
    CHECK(problemPaths(r.error()) == std::vector<std::string>{"findings[1].severity"});
  }
  SUBCASE("huge strings") {
    const std::string big(kMaxMessageBytes + 1, 'x');
    auto r = parseModelOutput(
        finding(kGood.substr(0, kGood.find("\"message\"")) + R"("message":")" + big + R"(","confidence":1)"), kPaths,
        false);
    REQUIRE_FALSE(r);
    CHECK(problemPaths(r.error()) == std::vector<std::string>{"findings[0].message"});
    const std::string bigSuggestion(kMaxSuggestionBytes + 1, 'y');
    CHECK_FALSE(parseModelOutput(finding(kGood + R"(,"suggestion":")" + bigSuggestion + "\""), kPaths, false));
  }
  SUBCASE("out of bounds") {
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":0,"endLine":1,"severity":"error","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":5,"endLine":4,"severity":"error","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":1,"endLine":9000,"severity":"error","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":-3,"endLine":1,"severity":"error","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":1,"endLine":1,"severity":"error","rule":"r","message":"m","confidence":1.5)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":99999999999,"endLine":1,"severity":"error","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
  }
  SUBCASE("a severity or rule outside the vocabulary") {
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":1,"endLine":1,"severity":"critical","rule":"r","message":"m","confidence":1)"),
        kPaths, false));
    CHECK_FALSE(parseModelOutput(
        finding(
            R"("path":"src/a.py","startLine":1,"endLine":1,"severity":"error","rule":"Bad Rule!","message":"m","confidence":1)"),
        kPaths, false));
  }
  SUBCASE("an unknown field") {
    auto r = parseModelOutput(finding(kGood + R"(,"approve":true)"), kPaths, false);
    REQUIRE_FALSE(r);
    CHECK(problemPaths(r.error()) == std::vector<std::string>{"findings[0].approve"});
  }
  SUBCASE("too many findings") {
    std::string many = R"({"findings":[)";
    for (std::size_t i = 0; i <= kMaxFindingsPerAnswer; ++i) many += (i ? "," : "") + std::string("{") + kGood + "}";
    CHECK_FALSE(parseModelOutput(many + "]}", kPaths, false));
  }
  SUBCASE("one bad finding invalidates the answer") {
    auto r = parseModelOutput(R"({"findings":[{)" + kGood + R"(},{"path":"src/a.py"}]})", kPaths, false);
    REQUIRE_FALSE(r);
    CHECK(problemPaths(r.error()).front() == "findings[1].startLine");
  }
}

TEST_CASE("review output: a finding off the change is set aside and the rest of the answer is kept") {
  auto r = parseModelOutput(
      R"({"findings":[{"path":"/etc/passwd","startLine":1,"endLine":1,"severity":"error","rule":"pwned","message":"m",)"
      R"("confidence":1},{)" +
          kGood +
          R"(},{"path":"README.md","startLine":2,"endLine":3,"severity":"warning",)"
          R"("rule":"r","message":"m","confidence":0.5}]})",
      kPaths, false);
  REQUIRE(r);
  REQUIRE(r->findings.size() == 1);
  CHECK(r->findings[0].path == "src/a.py");
  REQUIRE(r->offChange.size() == 2);
  CHECK(r->offChange[0].path == "/etc/passwd");
  CHECK(r->offChange[0].rule == "pwned");
  CHECK(r->offChange[1].path == "README.md");
  CHECK(r->offChange[1].endLine == 3);
}
