// builtin/lint's parsers on what real tools print (clang's analyzer SARIF,
// shellcheck's checkstyle and gcc-style lines, reviewdog's documented
// rdjson/rdjsonl) and on malformed output: an OUTPUT_INVALID with a
// location, never a crash.
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "agents/lint/checkstyle_parser.h"
#include "agents/lint/lint_paths.h"
#include "agents/lint/pattern_parser.h"
#include "agents/lint/rdjson_parser.h"
#include "agents/lint/sarif_parser.h"
#include "lint_test_support.h"
#include "support/host_requirement.h"

using namespace lw;
using namespace lw::agents::lint;

namespace {

const char* kScript =
    "#!/bin/sh\n"
    "echo $1\n"
    "x=`ls`\n";

const char* kCSource =
    "#include <stdlib.h>\n"
    "int f(int *p) {\n"
    "  if (p) return *p;\n"
    "  return *p;\n"
    "}\n";

std::string dataFile(const std::string& name) {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/lint/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const LintDiagnostic* withRule(const ParsedOutput& out, const std::string& rule) {
  for (const LintDiagnostic& d : out.diagnostics) {
    if (d.rule == rule) return &d;
  }
  return nullptr;
}

void requireMalformed(const Result<ParsedOutput>& r, int line, int column, const std::string& path) {
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::OutputInvalid);
  REQUIRE(r.error().location.has_value());
  CHECK(r.error().location->line == line);
  CHECK(r.error().location->column == column);
  CHECK(r.error().location->path == path);
}

}  // namespace

TEST_CASE("lint sarif: clang's static analyzer output read with file URIs made repository paths") {
  LW_REQUIRE_HOST(test::toolInPath("clang"), "clang is not installed (Debian package clang)");
  test::TempDir ws;
  ws.write("src/null.c", kCSource);
  auto run = test::runTool({"clang", "--analyze", "--analyzer-output", "sarif", "-o", "-", "src/null.c"}, ws.root);
  auto parsed = parseSarif(run.output);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  REQUIRE(parsed->diagnostics.size() == 1);
  const LintDiagnostic& d = parsed->diagnostics[0];
  CHECK(d.rule == "core.NullDereference");
  CHECK(d.line == 4);
  CHECK(d.column == 10);
  CHECK_FALSE(d.severity.has_value());  // clang gives no level: builtin/lint's `severity` applies
  CHECK(d.message.find("null pointer") != std::string::npos);
  CHECK(repositoryPath(d.path, {ws.root}) == std::optional<std::string>("src/null.c"));
}

TEST_CASE("lint sarif: rule index, default level, message strings, base URIs, fixes and suppressions") {
  const char* log = R"json({"version": "2.1.0", "runs": [{
    "tool": {"driver": {"name": "t", "rules": [
      {"id": "T1", "defaultConfiguration": {"level": "error"},
       "messageStrings": {"default": {"text": "'{0}' is unused here ({1})"}}},
      {"id": "T2"}]}},
    "originalUriBaseIds": {"SRC": {"uri": "file:///work/repo/"}, "LIB": {"uri": "lib/", "uriBaseId": "SRC"}},
    "results": [
      {"ruleIndex": 0, "message": {"id": "default", "arguments": ["x", "twice"]},
       "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a%20b.c", "uriBaseId": "SRC"},
                      "region": {"startLine": 3, "startColumn": 5, "endLine": 4}}}]},
      {"rule": {"id": "T2"}, "level": "note", "message": {"text": "trailing space"},
       "locations": [{"physicalLocation": {"artifactLocation": {"uri": "x.c", "uriBaseId": "LIB"},
                      "region": {"startLine": 7}}}],
       "fixes": [{"artifactChanges": [{"artifactLocation": {"uri": "x.c", "uriBaseId": "LIB"},
                  "replacements": [{"deletedRegion": {"startLine": 7, "startColumn": 1, "endLine": 8, "endColumn": 1},
                                    "insertedContent": {"text": "int y;\n"}}]}]}]},
      {"ruleId": "T2", "level": "warning", "message": {"text": "partial fix"},
       "locations": [{"physicalLocation": {"artifactLocation": {"uri": "x.c"}, "region": {"startLine": 9}}}],
       "fixes": [{"artifactChanges": [{"artifactLocation": {"uri": "x.c"},
                  "replacements": [{"deletedRegion": {"startLine": 9, "startColumn": 4, "endColumn": 6},
                                    "insertedContent": {"text": "ab"}}]}]}]},
      {"ruleId": "T2", "message": {"text": "suppressed"}, "suppressions": [{"kind": "inSource"}]},
      {"ruleId": "T2", "kind": "pass", "message": {"text": "passed"}}
    ]}]})json";
  auto parsed = parseSarif(log);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  CHECK(parsed->ignored == 2);
  REQUIRE(parsed->diagnostics.size() == 3);
  const LintDiagnostic& a = parsed->diagnostics[0];
  CHECK(a.rule == "T1");
  CHECK(a.severity == std::optional<Severity>(Severity::Error));
  CHECK(a.message == "'x' is unused here (twice)");
  CHECK(a.path == "/work/repo/a b.c");
  CHECK(a.line == 3);
  CHECK(a.endLine == 4);
  CHECK(a.column == 5);
  const LintDiagnostic& b = parsed->diagnostics[1];
  CHECK(b.rule == "T2");
  CHECK(b.severity == std::optional<Severity>(Severity::Notice));
  CHECK(b.path == "/work/repo/lib/x.c");
  CHECK(b.suggestion == std::optional<std::string>("int y;"));
  CHECK(parsed->diagnostics[2].severity == std::optional<Severity>(Severity::Warning));
  CHECK_FALSE(parsed->diagnostics[2].suggestion.has_value());  // not a whole-line edit
}

TEST_CASE("lint rdjson: reviewdog's documented DiagnosticResult") {
  auto parsed = parseRdjson(dataFile("reviewdog.rdjson"));
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  REQUIRE(parsed->diagnostics.size() == 2);
  const LintDiagnostic& a = parsed->diagnostics[0];
  CHECK(a.path == "src/main.go");
  CHECK(a.line == 14);
  CHECK(a.column == 15);
  CHECK(a.rule == "RULE1");
  CHECK(a.severity == std::optional<Severity>(Severity::Error));
  const LintDiagnostic& b = parsed->diagnostics[1];
  CHECK(b.severity == std::optional<Severity>(Severity::Warning));  // the result's severity
  CHECK(b.suggestion == std::optional<std::string>("x := 1"));
  CHECK(repositoryPath(b.path, {"/ws"}) == std::optional<std::string>("src/util.go"));
}

TEST_CASE("lint rdjsonl: one Diagnostic per line, blank lines skipped") {
  auto parsed = parseRdjsonl(dataFile("reviewdog.rdjsonl"));
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  REQUIRE(parsed->diagnostics.size() == 3);
  CHECK(parsed->diagnostics[0].severity == std::optional<Severity>(Severity::Error));
  CHECK(parsed->diagnostics[1].rule == "R2");
  CHECK(parsed->diagnostics[1].line == 20);
  CHECK(parsed->diagnostics[1].endLine == 22);
  CHECK_FALSE(parsed->diagnostics[1].suggestion.has_value());  // a part of one line, not lines 20-22
  CHECK(parsed->diagnostics[2].severity == std::optional<Severity>(Severity::Notice));
  CHECK(parsed->diagnostics[2].line == 0);
}

TEST_CASE("lint checkstyle: shellcheck -f checkstyle read with Boost.PropertyTree") {
  LW_REQUIRE_HOST(test::toolInPath("shellcheck"), "shellcheck is not installed (Debian package shellcheck)");
  test::TempDir ws;
  ws.write("s.sh", kScript);
  auto run = test::runTool({"shellcheck", "-f", "checkstyle", "s.sh"}, ws.root);
  CHECK(run.exitCode == 1);  // shellcheck exits 1 when it finds something
  auto parsed = parseCheckstyle(run.output);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  const LintDiagnostic* quote = withRule(*parsed, "ShellCheck.SC2086");
  REQUIRE(quote != nullptr);
  CHECK(quote->path == "s.sh");
  CHECK(quote->line == 2);
  CHECK(quote->column == 6);
  CHECK(quote->severity == std::optional<Severity>(Severity::Notice));
  const LintDiagnostic* unused = withRule(*parsed, "ShellCheck.SC2034");
  REQUIRE(unused != nullptr);
  CHECK(unused->severity == std::optional<Severity>(Severity::Warning));
  CHECK(unused->message == "x appears unused. Verify use (or export if used externally).");  // entities decoded
}

TEST_CASE("lint pattern: shellcheck -f gcc lines by %f:%l:%c: %s: %m [%r]") {
  LW_REQUIRE_HOST(test::toolInPath("shellcheck"), "shellcheck is not installed (Debian package shellcheck)");
  test::TempDir ws;
  ws.write("s.sh", kScript);
  auto run = test::runTool({"shellcheck", "-f", "gcc", "s.sh"}, ws.root);
  auto pattern = LinePattern::compile("%f:%l:%c: %s: %m [%r]");
  REQUIRE(pattern.ok());
  auto parsed = parseLines(*pattern, run.output + "a line no pattern matches\n");
  REQUIRE(parsed.ok());
  CHECK(parsed->ignored == 1);
  const LintDiagnostic* unused = withRule(*parsed, "SC2034");
  REQUIRE(unused != nullptr);
  CHECK(unused->path == "s.sh");
  CHECK(unused->line == 3);
  CHECK(unused->column == 1);
  CHECK(unused->severity == std::optional<Severity>(Severity::Warning));
  CHECK(unused->message == "x appears unused. Verify use (or export if used externally).");
  CHECK(withRule(*parsed, "SC2086")->severity == std::optional<Severity>(Severity::Notice));
}

TEST_CASE("lint pattern: a file name with a colon, an end line, and bad patterns located") {
  auto p = LinePattern::compile("%f:%l-%e: %m");
  REQUIRE(p.ok());
  auto d = p->match("c:/x/y.c:10-12: too long");
  REQUIRE(d.has_value());
  CHECK(d->path == "c:/x/y.c");
  CHECK(d->line == 10);
  CHECK(d->endLine == 12);
  CHECK(d->message == "too long");
  CHECK_FALSE(p->match("no numbers: here").has_value());

  struct Case {
    const char* pattern;
    int column;
  };
  for (Case c : {Case{"%f:%l:%x %m", 7}, Case{"%f:%l %m %l", 10}, Case{"%f:%l %m %", 10}, Case{"%l %m", 1}}) {
    std::string pattern = c.pattern;
    CAPTURE(pattern);
    auto bad = LinePattern::compile(c.pattern);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::TaskpackInvalid);
    REQUIRE(bad.error().location.has_value());
    CHECK(bad.error().location->column == c.column);
    CHECK(bad.error().location->path == "with.pattern");
  }
}

TEST_CASE("lint pattern: a line too long for std::regex is counted, not matched") {
  auto p = LinePattern::compile("%f:%l: %m");
  REQUIRE(p.ok());
  std::string longLine = "a.c:1: " + std::string(kMaxPatternLine, 'x');
  auto parsed = parseLines(*p, longLine + "\n" + "a.c:2: short\n");
  REQUIRE(parsed.ok());
  CHECK(parsed->ignored == 1);
  REQUIRE(parsed->diagnostics.size() == 1);
  CHECK(parsed->diagnostics[0].line == 2);
}

TEST_CASE("lint malformed: sarif that is not JSON is located by line and column") {
  requireMalformed(parseSarif("{\"runs\": [\n  {\"results\": [}\n]}"), 2, 16, "");
  requireMalformed(parseSarif("{\"runs\": []} trailing"), 1, 14, "");
  requireMalformed(parseSarif("{\"runs\": [{\"results\""), 1, 21, "");
}

TEST_CASE("lint malformed: sarif members of the wrong type are located by JSON path") {
  requireMalformed(parseSarif("[]"), 0, 0, "");
  requireMalformed(parseSarif("{}"), 0, 0, "");
  requireMalformed(parseSarif(R"({"runs": [{"results": [{"message": "x"}]}]})"), 0, 0, "runs[0].results[0].message");
  requireMalformed(
      parseSarif(R"({"runs": [{"results": [{"locations": [{"physicalLocation": {"region": {"startLine": -3}}}]}]}]})"),
      0, 0, "runs[0].results[0].locations[0].physicalLocation.region.startLine");
  requireMalformed(parseSarif(R"({"runs": [{"results": [{"level": "fatal"}]}]})"), 0, 0, "runs[0].results[0].level");
  requireMalformed(
      parseSarif(
          R"({"runs": [{"results": [{"locations": [{"physicalLocation": {"artifactLocation": {"uri": "https://x/y.c"}}}]}]}]})"),
      0, 0, "runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri");
}

TEST_CASE("lint malformed: rdjson, rdjsonl and checkstyle errors carry their place") {
  requireMalformed(parseRdjson(R"({"diagnostics": [{"location": {"range": {"start": {"line": "7"}}}}]})"), 0, 0,
                   "diagnostics[0].location.range.start.line");
  requireMalformed(parseRdjson(R"({"diagnostics": [{"severity": "LOUD"}]})"), 0, 0, "diagnostics[0].severity");
  requireMalformed(parseRdjsonl("{\"message\": \"ok\"}\n{\"message\": }\n"), 2, 13, "");
  requireMalformed(parseRdjsonl("{\"message\": \"ok\"}\n\n[1]\n"), 3, 0, "line 3");
  requireMalformed(parseCheckstyle("<checkstyle>\n<file name='a'>\n<error line='1'\n</checkstyle>"), 4, 0, "");
  requireMalformed(parseCheckstyle("<checkstyle><file name='a'><error line='x1'/></file></checkstyle>"), 0, 0,
                   "checkstyle.file[0].error[0]");
  requireMalformed(parseCheckstyle("<report/>"), 0, 0, "checkstyle");
}

TEST_CASE("lint malformed: nesting deep enough to exhaust a recursive parser is refused") {
  std::string json(200000, '[');
  CHECK(parseSarif(json).error().code == ErrorCode::OutputInvalid);
  CHECK(parseRdjsonl(json).error().code == ErrorCode::OutputInvalid);
  std::string xml;
  for (int i = 0; i < 200000; ++i) xml += "<a>";
  auto r = parseCheckstyle("<checkstyle>" + xml);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("nested more than") != std::string::npos);
}

TEST_CASE("lint paths: URIs and paths made repository-relative") {
  std::vector<std::filesystem::path> roots{"/ws/repo", "/real/repo"};
  CHECK(uriToPath("file:///ws/repo/a%20b.c") == std::optional<std::string>("/ws/repo/a b.c"));
  CHECK(uriToPath("file://localhost/ws/x.c") == std::optional<std::string>("/ws/x.c"));
  CHECK_FALSE(uriToPath("file://other/ws/x.c").has_value());
  CHECK_FALSE(uriToPath("https://example.com/x.c").has_value());
  CHECK_FALSE(uriToPath("a%2").has_value());
  CHECK(repositoryPath("./src/../lib/x.c", roots) == std::optional<std::string>("lib/x.c"));
  CHECK(repositoryPath("/ws/repo/lib/x.c", roots) == std::optional<std::string>("lib/x.c"));
  CHECK(repositoryPath("/real/repo/x.c", roots) == std::optional<std::string>("x.c"));
  CHECK(repositoryPath("/ws/repo/", roots) == std::nullopt);
  CHECK(repositoryPath("/ws/repository/x.c", roots) == std::nullopt);
  CHECK(repositoryPath("../x.c", roots) == std::nullopt);
  CHECK(repositoryPath("/etc/passwd", roots) == std::nullopt);
  CHECK(repositoryPath("", roots) == std::optional<std::string>(""));
}
