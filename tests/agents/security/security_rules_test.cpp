// builtin/security's rule engine: untrusted contexts, the shell pipe rule,
// findings only on added lines (with their fallback anchors), the options,
// and the rules table against docs/security-rules.md.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "agents/security/changed_file.h"
#include "agents/security/file_rules/dependency_rules.h"
#include "agents/security/file_rules/shell_rules.h"
#include "agents/security/rules.h"
#include "agents/security/scan/scan.h"
#include "agents/security/scan/security_params.h"
#include "agents/security/workflow/expression_code.h"
#include "agents/security/workflow/shell_commands.h"
#include "agents/security/workflow/untrusted_context.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

ChangedFile withAdded(std::string path, std::string content, std::vector<int> added) {
  ChangedFile all = wholeFileAdded(path, content);
  ChangedFile f;
  f.path = std::move(path);
  f.content = std::move(content);
  for (std::size_t i = 0; i < all.addedLines.size(); ++i)
    for (int a : added)
      if (all.addedLines[i] == a) f.addedLines.push_back(a), f.addedText.push_back(all.addedText[i]);
  return f;
}

std::vector<std::string> summary(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.path + ":" + std::to_string(f.line) + " " + f.ruleId);
  return out;
}

const char* kPrtWorkflow =
    "on: pull_request_target\n"                                                  // 1
    "permissions:\n"                                                             // 2
    "  contents: read\n"                                                         // 3
    "jobs:\n"                                                                    // 4
    "  t:\n"                                                                     // 5
    "    runs-on: ubuntu-latest\n"                                               // 6
    "    steps:\n"                                                               // 7
    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"  // 8
    "        with:\n"                                                            // 9
    "          ref: ${{ github.event.pull_request.head.sha }}\n"                 // 10
    "      - run: make test\n";                                                  // 11

}  // namespace

TEST_CASE("security rules: which expression contexts are untrusted") {
  struct Case {
    const char* expression;
    std::size_t untrusted;
  };
  const Case cases[] = {
      {"${{ github.event.issue.title }}", 1},
      {"${{ github.event.pull_request.body }}", 1},
      {"${{ github.head_ref }}", 1},
      {"${{ github.event.commits[0].message }}", 1},
      {"${{ github.event.commits[0].author['email'] }}", 1},
      {"${{ github.event.pull_request.labels[1].name }}", 1},
      {"${{ toJSON(github.event) }}", 1},
      {"${{ toJSON(github.event.pull_request) }}", 1},
      {"${{ github.event.workflow_run.head_branch }}", 1},
      {"${{ GitHub.Event.Issue.Title }}", 1},
      {"${{ github.event.issue.title || github.event.pull_request.title }}", 2},
      {"${{ github.event.number }}", 0},
      {"${{ github.event.pull_request.head.sha }}", 0},
      {"${{ github.event.pull_request.user.login }}", 0},
      {"${{ github.sha }}", 0},
      {"${{ github.repository }}", 0},
      {"${{ steps.meta.outputs.github_title }}", 0},
      {"${{ secrets.GITHUB_TOKEN }}", 0},
  };
  for (const Case& c : cases) {
    std::string expression = c.expression;
    CAPTURE(expression);
    CHECK(untrustedRefsIn(c.expression).size() == c.untrusted);
  }
  CHECK(expressionsIn("a ${{ x }} b ${{ y }}").size() == 2);
  CHECK(expressionsIn("${{ unterminated").empty());
}

TEST_CASE("security rules: a download piped into an interpreter") {
  struct Case {
    const char* line;
    bool risky;
  };
  const Case cases[] = {
      {"curl -fsSL https://x | sh", true},
      {"curl https://x | sudo -E bash -s -- --yes", true},
      {"wget -qO- https://x | python3 -", true},
      {"curl https://x | FOO=1 /bin/bash", true},
      {"bash <(curl -s https://x)", true},
      {"sh -c \"$(curl -fsSL https://x)\"", true},
      {"CURL https://x | SH", true},
      {"curl https://x | jq .", false},
      {"curl -o install.sh https://x && sh install.sh", false},
      {"curl https://x || sh fallback.sh", false},
      {"echo curling | sh", false},
      {"libcurl-dev | bash", false},
  };
  for (const Case& c : cases) {
    std::string line = c.line;
    CAPTURE(line);
    CHECK(pipesDownloadToShell(c.line) == c.risky);
  }
}

TEST_CASE("security rules: a risk on lines the pull request did not add is not reported") {
  ChangedFile f = withAdded(".github/workflows/t.yml", kPrtWorkflow, {6});
  CHECK(scanChangedFiles({f}, {}).empty());
}

TEST_CASE("security rules: a finding goes on the first added line among its anchors") {
  SUBCASE("the ref line when it is added") {
    ChangedFile f = withAdded(".github/workflows/t.yml", kPrtWorkflow, {1, 10, 11});
    CHECK(summary(scanChangedFiles({f}, {})) ==
          std::vector<std::string>{".github/workflows/t.yml:10 security/untrusted-checkout",
                                   ".github/workflows/t.yml:1 security/dangerous-trigger"});
  }
  SUBCASE("the trigger when only the trigger changed") {
    ChangedFile f = withAdded(".github/workflows/t.yml", kPrtWorkflow, {1});
    CHECK(summary(scanChangedFiles({f}, {})) ==
          std::vector<std::string>{".github/workflows/t.yml:1 security/untrusted-checkout",
                                   ".github/workflows/t.yml:1 security/dangerous-trigger"});
  }
}

TEST_CASE("security rules: the message says what was seen, then why and how to fix") {
  ChangedFile f = wholeFileAdded(".github/workflows/t.yml", kPrtWorkflow);
  ScanOptions errors;
  errors.minSeverity = Severity::Error;
  std::vector<Finding> findings = scanChangedFiles({f}, errors);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(
      findings[0].message.starts_with("On `pull_request_target`, job `t` checks out "
                                      "`${{ github.event.pull_request.head.sha }}` and then runs it (line 11)."));
  CHECK(findings[0].message.find("Check out the base") != std::string::npos);
}

TEST_CASE("security rules: a private key added over several lines is one finding on its first line") {
  std::string key = "-----BEGIN RSA PRIVATE KEY-----\n" + std::string(64, 'A') + "\n" + std::string(64, 'B') +
                    "\n-----END RSA PRIVATE KEY-----\n";
  ChangedFile f = withAdded("deploy/key.pem", "# deploy key\n" + key, {2, 3, 4, 5});
  CHECK(summary(scanChangedFiles({f}, {})) == std::vector<std::string>{"deploy/key.pem:2 security/secret"});
  CHECK(scanChangedFiles({f}, {})[0].message.find("AAAA") == std::string::npos);
}

TEST_CASE("security rules: a workflow that is not YAML is reported as not checked, and its secrets are still found") {
  ChangedFile f = wholeFileAdded(".github/workflows/broken.yml",
                                 "on: [push\njobs: {\n  token: ghp_Abcdefghijklmnopqrstuvwxyz0123456789\n");
  CHECK(summary(scanChangedFiles({f}, {})) ==
        std::vector<std::string>{".github/workflows/broken.yml:2 security/unparsed-workflow",
                                 ".github/workflows/broken.yml:3 security/secret"});
}

TEST_CASE("security rules: a workflow the parser refuses is an error where it stopped, saying what it said") {
  struct Case {
    const char* name;
    const char* path;
    std::string content;
    const char* found;  // "line rule" of the one finding
    const char* detail;
  };
  const Case cases[] = {
      {"broken indentation", ".github/workflows/ci.yml",
       "on: pull_request_target\njobs:\n  build:\n    runs-on: ubuntu-latest\n   steps:\n"
       "      - run: echo \"${{ github.event.pull_request.title }}\"\n",
       "5 security/unparsed-workflow",
       "This workflow file cannot be read (line 5, column 4: YAML syntax error: end of map not found), so none of "
       "the workflow rules were checked on it."},
      {"an unterminated quote", ".github/workflows/ci.yml",
       "on: pull_request_target\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
       "      - run: \"make\n      - run: echo ${{ github.event.pull_request.title }}\n",
       "7 security/unparsed-workflow",
       "This workflow file cannot be read (line 7, column 57: YAML syntax error: illegal EOF in scalar), so none of "
       "the workflow rules were checked on it."},
      {"tab indentation", ".github/workflows/ci.yml",
       "on: pull_request_target\njobs:\n\tbuild:\n\t\truns-on: ubuntu-latest\n", "3 security/unparsed-workflow",
       "This workflow file cannot be read (line 3, column 7: YAML syntax error: illegal map value), so none of the "
       "workflow rules were checked on it."},
      {"a list", "tools/action.yml", "- runs:\n    using: composite\n", "1 security/unparsed-workflow",
       "This action file cannot be read (line 1, column 1: is a list, not a mapping), so none of the workflow rules "
       "were checked on it."},
      {"a single value", ".github/workflows/ci.yaml", "on push, run make\n", "1 security/unparsed-workflow",
       "This workflow file cannot be read (line 1, column 1: is a single value, not a mapping), so none of the "
       "workflow rules were checked on it."},
      {"only a comment", ".github/workflows/ci.yml", "# to do\n", "1 security/unparsed-workflow",
       "This workflow file cannot be read (line 1, column 1: is empty), so none of the workflow rules were checked "
       "on it."},
  };
  for (const Case& c : cases) SUBCASE(c.name) {
      ScanResult scan = scanPullRequest({wholeFileAdded(c.path, c.content)}, {});
      REQUIRE(scan.findings.size() == 1);
      const Finding& f = scan.findings[0];
      CHECK(std::to_string(f.line) + " " + f.ruleId == c.found);
      CHECK(f.severity == Severity::Error);
      CHECK(f.message.starts_with(std::string(c.detail) + " (confidence: high)\n\n"));
      REQUIRE(scan.unchecked.size() == 1);
      CHECK(scan.unchecked[0].path == c.path);
      CHECK(c.detail == "This " + std::string(f.path.ends_with("action.yml") ? "action" : "workflow") +
                            " file cannot be read (" + scan.unchecked[0].reason +
                            "), so none of the workflow rules were checked on it.");
    }
}

TEST_CASE("security rules: a workflow that parses gets its rules and no unparsed finding") {
  ChangedFile f = wholeFileAdded(".github/workflows/ci.yml",
                                 "---\n# build on every push\non: push\npermissions:\n  contents: read\njobs:\n"
                                 "  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
                                 "        with:\n          persist-credentials: false\n"
                                 "      - run: |\n          make\n          make test\n\n\n");
  ScanResult scan = scanPullRequest({f}, {});
  CHECK(scan.findings.empty());
  CHECK(scan.unchecked.empty());
  CHECK_FALSE(coverageOf(scan, {}).has_value());
}

TEST_CASE("security rules: this repository's own workflows and action, and the examples', all parse") {
  namespace fs = std::filesystem;
  const fs::path root = LOOPWRIGHT_SOURCE_DIR;
  std::vector<std::pair<std::string, fs::path>> files{{"action.yml", root / "action.yml"}};
  for (const char* dir : {"", "examples/fork-split/", "examples/pr-review/pr/"})
    for (const fs::directory_entry& e : fs::directory_iterator(root / dir / ".github/workflows"))
      files.emplace_back(".github/workflows/" + e.path().filename().string(), e.path());
  REQUIRE(files.size() >= 7);
  for (const auto& [path, file] : files) {
    std::string name = file.string();
    CAPTURE(name);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(scanPullRequest({wholeFileAdded(path, text.str())}, {}).unchecked.empty());
  }
}

TEST_CASE("security rules: an unparsed workflow goes on the parser's line, else the nearest added line above it") {
  // The parser stops on line 5 (a step indented one space short).
  const char* wf =
      "on: push\n"                    // 1
      "jobs:\n"                       // 2
      "  build:\n"                    // 3
      "    runs-on: ubuntu-latest\n"  // 4
      "   steps:\n"                   // 5
      "      - run: make\n"           // 6
      "      - run: make test\n";     // 7
  SUBCASE("the parser's line when it is added") {
    CHECK(summary(scanChangedFiles({withAdded(".github/workflows/ci.yml", wf, {5, 7})}, {})) ==
          std::vector<std::string>{".github/workflows/ci.yml:5 security/unparsed-workflow"});
  }
  SUBCASE("the nearest added line above it") {
    CHECK(summary(scanChangedFiles({withAdded(".github/workflows/ci.yml", wf, {2, 4, 7})}, {})) ==
          std::vector<std::string>{".github/workflows/ci.yml:4 security/unparsed-workflow"});
  }
  SUBCASE("the first added line when none is above it") {
    std::vector<Finding> found = scanChangedFiles({withAdded(".github/workflows/ci.yml", wf, {6, 7})}, {});
    REQUIRE(summary(found) == std::vector<std::string>{".github/workflows/ci.yml:6 security/unparsed-workflow"});
    CHECK(found[0].message.starts_with("This workflow file cannot be read (line 5, column 4: "));
  }
}

TEST_CASE("security rules: a workflow cut short by github.file is reported, not checked in part") {
  // Past the bound, a job that runs the pull request's title: reading the
  // beginning as the whole would report nothing.
  ChangedFile f = wholeFileAdded(".github/workflows/big.yml",
                                 "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
                                 "    steps:\n      - run: make\n");
  f.truncated = true;
  ScanResult scan = scanPullRequest({f}, {});
  CHECK(summary(scan.findings) == std::vector<std::string>{".github/workflows/big.yml:6 security/unparsed-workflow"});
  REQUIRE(scan.unchecked.size() == 1);
  CHECK(scan.unchecked[0].reason == "line 6: is cut short by github.file's 1 MiB bound after 91 bytes");
}

TEST_CASE("security rules: the coverage lists the files not checked, incomplete unless the rule is disabled") {
  ChangedFile broken = wholeFileAdded(".github/workflows/a.yml", "on: push\njobs: [\n");
  ChangedFile fine = wholeFileAdded(".github/workflows/b.yml", "on: push\njobs: {}\n");
  ScanOptions o;
  ScanResult scan = scanPullRequest({broken, fine}, o);
  std::optional<Coverage> c = coverageOf(scan, o);
  REQUIRE(c.has_value());
  REQUIRE(c->files.size() == 1);
  CHECK(c->files[0].path == ".github/workflows/a.yml");
  CHECK(c->files[0].status == FileReview::Skipped);
  CHECK(c->files[0].reason == "not checked: " + scan.unchecked[0].reason);
  CHECK_FALSE(c->complete);
  CHECK(c->reason == "1 workflow, action or configuration file(s) could not be read, so their rules were not checked");

  o.disabled = {"security/unparsed-workflow"};
  scan = scanPullRequest({broken, fine}, o);
  CHECK(scan.findings.empty());
  c = coverageOf(scan, o);
  REQUIRE(c.has_value());
  CHECK(c->files.size() == 1);
  CHECK(c->complete);
}

TEST_CASE("security rules: disable, minSeverity, dependencies and maxFindings") {
  ChangedFile wf = wholeFileAdded(".github/workflows/ci.yml",
                                  "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                                  "      - uses: actions/checkout@v4\n"                          // 6: notice
                                  "      - uses: someone/action@v1\n"                            // 7: warning
                                  "      - run: echo ${{ github.event.head_commit.message }}\n"  // 8: error
                                  "permissions: {}\n");
  ChangedFile req = wholeFileAdded("requirements.txt", "requests==2.32.3\n");
  std::vector<ChangedFile> files{wf, req};
  ScanOptions o;
  CHECK(scanChangedFiles(files, o).size() == 5);  // and line 6's security/checkout-persists-token
  CHECK(summary(scanChangedFiles(files, o)).front() == ".github/workflows/ci.yml:8 security/expression-injection");

  o.minSeverity = Severity::Warning;
  CHECK(summary(scanChangedFiles(files, o)) ==
        std::vector<std::string>{".github/workflows/ci.yml:8 security/expression-injection",
                                 ".github/workflows/ci.yml:7 security/unpinned-action"});
  o = {};
  o.disabled = {"security/unpinned-action", "security/unpinned-github-action"};
  CHECK(scanChangedFiles(files, o).size() == 3);
  o.disabled = {"security/"};
  CHECK(scanChangedFiles(files, o).empty());
  o = {};
  o.dependencies = false;
  CHECK(scanChangedFiles(files, o).size() == 4);
  o = {};
  o.maxFindings = 1;
  CHECK(summary(scanChangedFiles(files, o)) ==
        std::vector<std::string>{".github/workflows/ci.yml:8 security/expression-injection"});
}

TEST_CASE("security rules: a pedantic rule reports only when the persona asks for it") {
  ChangedFile wf = wholeFileAdded(".github/workflows/ci.yml",
                                  "on: push\n"                       // 1: no concurrency
                                  "permissions:\n  issues: write\n"  // 3: no comment
                                  "jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                                  "      - run: echo ${{ 'constant' }}\n");  // 8: obfuscation (default)
  ScanOptions o;
  CHECK(summary(scanChangedFiles({wf}, o)) ==
        std::vector<std::string>{".github/workflows/ci.yml:8 security/obfuscation"});
  for (Persona p : {Persona::Pedantic, Persona::Auditor}) {
    CAPTURE(toString(p));
    o.persona = p;
    CHECK(summary(scanChangedFiles({wf}, o)) ==
          std::vector<std::string>{".github/workflows/ci.yml:1 security/concurrency-limits",
                                   ".github/workflows/ci.yml:3 security/undocumented-permissions",
                                   ".github/workflows/ci.yml:8 security/obfuscation"});
  }
}

TEST_CASE("security rules: the finding's first line ends with its rule's confidence") {
  ChangedFile wf = wholeFileAdded(".github/workflows/ci.yml",
                                  "on: push\npermissions: {}\njobs:\n  b:\n    runs-on: ubuntu-latest\n"
                                  "    if: contains('main,dev', github.ref_name)\n    steps:\n      - run: make\n");
  std::vector<Finding> findings = scanChangedFiles({wf}, {});
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].ruleId == "security/unsound-contains");
  std::string firstLine = findings[0].message.substr(0, findings[0].message.find('\n'));
  CHECK(firstLine.ends_with(" (confidence: medium)"));
  CHECK(firstLine.find("whoever triggers the run chooses its value") != std::string::npos);
}

TEST_CASE("security rules: a script splits into commands past separators, continuations, quotes and prefixes") {
  std::vector<std::string_view> script{"cargo \\", "  publish --no-verify  # done",
                                       "FOO=1 sudo -E npm i \"a b\" && echo '; gem install x'",
                                       "/usr/bin/twine upload `", "  dist/*"};
  std::vector<std::string> got;
  for (const ShellCommand& c : shellCommands(script)) {
    std::string words;
    for (const std::string& w : c.words) words += (words.empty() ? "" : " ") + w;
    got.push_back(std::to_string(c.line) + ": " + words);
  }
  CHECK(got == std::vector<std::string>{"0: cargo publish --no-verify", "2: npm i a b", "2: echo ; gem install x",
                                        "3: twine upload dist/*"});
}

TEST_CASE("security rules: an expression's code is lower case, without spaces, literals emptied") {
  CHECK(expressionCode("${{ toJSON( Secrets ) }}") == "tojson(secrets)");
  CHECK(expressionCode("${{ format('{0} toJSON(secrets)', 'it''s') }}") == "format('','')");
  CHECK(expressionCode("a && 'X' || b", true) == "a&&'x'||b");
}

TEST_CASE("security rules: secrets: inherit to the repository owner's own workflows is fine") {
  ChangedFile f =
      wholeFileAdded(".github/workflows/d.yml",
                     "on: push\njobs:\n  d:\n"
                     "    uses: Example-Org/shared/.github/workflows/d.yml@8f4b7f84864484a7bf31766abe9204da3cbe65b3\n"
                     "    secrets: inherit\npermissions: {}\n");
  ScanOptions o;
  CHECK(summary(scanChangedFiles({f}, o)) ==
        std::vector<std::string>{".github/workflows/d.yml:5 security/secrets-inherit"});
  o.repositoryOwner = "example-org";
  CHECK(scanChangedFiles({f}, o).empty());
}

TEST_CASE("security rules: files are classified by path and a script by its #! line") {
  CHECK(classify(".github/workflows/ci.yml") == FileKind::Workflow);
  CHECK(classify(".github/workflows/sub/ci.yml") != FileKind::Workflow);  // GitHub reads the top level only
  CHECK(classify("a/b/action.yaml") == FileKind::Action);
  CHECK(classify("docker/Dockerfile.release") == FileKind::Dockerfile);
  CHECK(classify("build/rules.mk") == FileKind::Makefile);
  CHECK(classify("tools/setup", "#!/usr/bin/env bash") == FileKind::ShellScript);
  CHECK(classify("tools/setup", "#!/usr/bin/env python3") == FileKind::Other);
  CHECK(classify("svc/requirements-dev.txt") == FileKind::Manifest);
  CHECK(classify("README.md") == FileKind::Other);
}

TEST_CASE("security rules: dependency parsers name the package and its version") {
  std::vector<std::string_view> lines{"[dependencies]", "serde = { version = \"1.0\", features = [\"derive\"] }",
                                      "local = { path = \"../local\" }"};
  std::vector<Dependency> deps = tomlManifestDeps(lines);
  REQUIRE(deps.size() == 2);
  CHECK(deps[0].name == "serde");
  CHECK(deps[0].version == "1.0");
  CHECK(deps[1].version == "{ path = \"../local\" }");
  Dependency r = pep508("Django[argon2] >= 5.1 ; python_version >= '3.10'", 4);
  CHECK(r.name == "Django");
  CHECK(r.version == ">= 5.1");
  CHECK(r.anchors == std::vector<int>{4});
}

TEST_CASE("security rules: every rule is in docs/security-rules.md with its severity, confidence and persona") {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/docs/security-rules.md");
  std::stringstream doc;
  doc << in.rdbuf();
  for (const RuleInfo& r : allRules()) {
    CAPTURE(r.id);
    std::string row = "| `" + std::string(r.id) + "` | " + std::string(toString(r.severity)) + " | " +
                      std::string(toString(r.confidence)) + " | " + std::string(toString(r.persona)) + " |";
    CHECK(doc.str().find(row) != std::string::npos);
  }
}

TEST_CASE("security rules: parameters of the wrong type are refused with the parameter's name") {
  boost::json::object ok{{"disable", boost::json::array{"security/secret"}},
                         {"minSeverity", "warning"},
                         {"dependencies", false},
                         {"maxFindings", 5},
                         {"persona", "auditor"}};
  Result<ScanOptions> o = readSecurityParams(ok);
  REQUIRE(o.ok());
  CHECK(o->disabled == std::vector<std::string>{"security/secret"});
  CHECK(o->minSeverity == Severity::Warning);
  CHECK_FALSE(o->dependencies);
  CHECK(o->maxFindings == 5);
  CHECK(o->persona == Persona::Auditor);
  for (auto [name, bad] : std::vector<std::pair<const char*, boost::json::value>>{{"disable", "security/secret"},
                                                                                  {"minSeverity", "fatal"},
                                                                                  {"dependencies", "yes"},
                                                                                  {"maxFindings", 0},
                                                                                  {"persona", "paranoid"}}) {
    CAPTURE(name);
    Result<ScanOptions> r = readSecurityParams(boost::json::object{{name, bad}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::TaskpackInvalid);
    CHECK(r.error().subject == std::string("with.") + name);
  }
}

TEST_CASE("security rules: hostile files end in findings or none, never a crash") {
  std::string blockNesting;
  for (int depth = 0; depth < 1000; ++depth) blockNesting += std::string(static_cast<std::size_t>(depth), ' ') + "a:\n";
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary.push_back(static_cast<char>(i * 37 % 256));
  const std::pair<const char*, std::string> cases[] = {
      {".github/workflows/flow.yml", std::string(200000, '[')},
      {".github/workflows/map.yml", std::string(100000, '{')},
      {".github/workflows/block.yml", blockNesting},
      {".github/workflows/types.yml", "on: 42\njobs: [1, 2]\n"},
      {".github/workflows/steps.yml",
       "on: push\njobs:\n  a:\n    steps: {x: 1}\n    runs-on: {group: g}\n    container: [1]\n"},
      {".github/workflows/keys.yml", "on: push\njobs:\n  ? [a, b]\n  : steps: []\n"},
      {".github/workflows/binary.yml", binary},
      {"package.json", "{\n  \"dependencies\": {\n\"\n  \"x\n"},
      {"yarn.lock", "\"unterminated:\n  version\n"},
      {"pnpm-lock.yaml", "packages:\n  ':\n  @:\n"},
      {"Gemfile.lock", "    x ()\n    (\n"},
      {"pyproject.toml", "[project]\ndependencies = [\n\"a[\n"},
      {"pom.xml", "<dependency>\n<version></version>\n</dependency>\n"},
      {"scripts/x.sh", "curl \\\n\\\n| \\\n"},
  };
  for (const auto& [path, content] : cases) {
    CAPTURE(path);
    std::vector<Finding> findings = scanChangedFiles({wholeFileAdded(path, content)}, {});
    for (const Finding& f : findings) CHECK(f.line >= 1);
  }
}
