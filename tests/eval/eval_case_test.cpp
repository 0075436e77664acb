#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "eval/eval_case.h"
#include "schemas/embedded.h"
#include "verify/outputs/json_schema.h"

using namespace lw;
using namespace lw::eval;

namespace {

// "file:line:col path: message" of every diagnostic, in order.
std::vector<std::string> problems(const Result<EvalCase>& r) {
  std::vector<std::string> out;
  if (r) return out;
  for (const Diagnostic& d : r.error().diagnostics)
    out.push_back(d.location.toString() + " " + d.location.path + ": " + d.message);
  return out;
}

}  // namespace

TEST_CASE("eval case: a full case.yaml is read with its expectations and must-not entries") {
  auto c = parseEvalCase(R"(description: eval() on a request parameter
base: main
patch: change.patch
title: Parse the count
tolerance: 1
expect:
  - {path: src/greet.py, lines: [3, 4], rule: eval-of-input, step: review}
  - {path: scripts/install.sh, lines: 7, tag: quote}
mustNot:
  - {path: README.md}
)",
                         "cases/eval/case.yaml", "eval");
  REQUIRE(c);
  CHECK(c->name == "eval");
  CHECK(c->base == "main");
  CHECK(c->patchFile == "change.patch");
  CHECK(c->event == "pull_request.opened");
  CHECK(c->tolerance == 1);
  REQUIRE(c->expect.size() == 2);
  CHECK(c->expect[0].lines.first == 3);
  CHECK(c->expect[0].lines.last == 4);
  CHECK(c->expect[0].rule == "eval-of-input");
  CHECK(c->expect[0].step == "review");
  CHECK(c->expect[1].lines.first == 7);
  CHECK(c->expect[1].lines.last == 7);
  CHECK(c->expect[1].tag == "quote");
  CHECK(c->expect[1].location.line == 8);
  REQUIRE(c->mustNot.size() == 1);
  CHECK(c->mustNot[0].lines.wholeFile());
}

TEST_CASE("eval case: every mistake is reported at once with file:line:col and its YAML path") {
  auto c = parseEvalCase(R"(patch: ../x.patch
head: abc
event: push
tolerance: -1
expect:
  - {path: /etc/passwd, lines: [5, 2]}
  - {lines: 3, rule: r, colour: red}
)",
                         "c/case.yaml", "c");
  REQUIRE_FALSE(c);
  CHECK(c.error().code == ErrorCode::EvalCaseInvalid);
  CHECK(codeName(c.error().code) == "EVAL_CASE_INVALID");
  CHECK(c.error().message == "c/case.yaml: 8 problems");
  auto p = problems(c);
  REQUIRE(p.size() == 8);
  CHECK(p[0] ==
        "c/case.yaml:3:8 event: 'push' is not one of 'pull_request.opened', 'pull_request.synchronize' or "
        "'pull_request.reopened'");
  CHECK(p[1] == "c/case.yaml:4:12 tolerance: '-1' is not a whole number from 0 to 100");
  CHECK(p[2] == "c/case.yaml:6:32 expect[0].lines: the range ends before it starts");
  CHECK(p[3] == "c/case.yaml:6:12 expect[0].path: '/etc/passwd' is not repository-relative");
  CHECK(p[4] == "c/case.yaml:7:25 expect[1].colour: unknown key 'colour'");
  CHECK(p[5] == "c/case.yaml:7:5 expect[1].path: required key 'path' is missing");
  CHECK(p[6] == "c/case.yaml:1:1 : give exactly one of head and patch");
  CHECK(p[7] == "c/case.yaml:1:8 patch: '../x.patch' is not a file beside case.yaml");
}

TEST_CASE("eval case: text that is not YAML is EVAL_CASE_INVALID with where the parser stopped") {
  auto c = parseEvalCase("expect: [\n  {path: a\n", "x/case.yaml", "x");
  REQUIRE_FALSE(c);
  CHECK(c.error().code == ErrorCode::EvalCaseInvalid);
  REQUIRE(c.error().diagnostics.size() == 1);
  CHECK(c.error().diagnostics[0].location.line > 0);
}

TEST_CASE("eval case: the embedded schema agrees with the parser on what a case may say") {
  const auto schema = boost::json::parse(schemas::eval_case);
  struct Row {
    const char* yaml;
    const char* json;
  };
  const Row valid[] = {{"patch: change.patch\nexpect: [{path: a.py, lines: 3, rule: r}]\n",
                        R"({"patch": "change.patch", "expect": [{"path": "a.py", "lines": 3, "rule": "r"}]})"},
                       {"head: HEAD~1\nbase: HEAD~2\nmustNot: [{path: b, lines: [1, 2]}]\n",
                        R"({"head": "HEAD~1", "base": "HEAD~2", "mustNot": [{"path": "b", "lines": [1, 2]}]})"}};
  for (const Row& r : valid) {
    CHECK(parseEvalCase(r.yaml, "case.yaml", "c"));
    CHECK_FALSE(verify::validateJson(schema, boost::json::parse(r.json)));
  }
  const Row invalid[] = {{"head: a\npatch: b\n", R"({"head": "a", "patch": "b"})"},
                         {"patch: p\nexpect: [{lines: 3}]\n", R"({"patch": "p", "expect": [{"lines": 3}]})"},
                         {"patch: p\nwhat: 1\n", R"({"patch": "p", "what": 1})"},
                         {"patch: sub/p\n", R"({"patch": "sub/p"})"}};
  for (const Row& r : invalid) {
    CAPTURE(r.yaml);
    CHECK_FALSE(parseEvalCase(r.yaml, "case.yaml", "c"));
    CHECK(verify::validateJson(schema, boost::json::parse(r.json)));
  }
}
