// builtin/security on the repository configuration files it reads besides
// workflows: Dependabot's and pre-commit's — which files they are, a file
// the rules cannot read, a change to one line, and the scan log's kinds.
// The rules' shapes are the cases in tests/data/security/cases.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "agents/security/changed_file.h"
#include "agents/security/scan/scan.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

std::vector<std::string> places(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.path + ":" + std::to_string(f.line) + " " + f.ruleId);
  return out;
}

const char* const kNoCooldown =
    "version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    cooldown:\n      default-days: 7\n"
    "  - package-ecosystem: pip\n    directory: /\n    schedule:\n      interval: daily\n";

}  // namespace

TEST_CASE("security config files: Dependabot's and pre-commit's are known by their place and name") {
  CHECK(classify(".github/dependabot.yml") == FileKind::Dependabot);
  CHECK(classify(".github/dependabot.yaml") == FileKind::Dependabot);
  CHECK(classify("vendor/lib/.github/dependabot.yml") == FileKind::Dependabot);  // a nested repository's
  CHECK(classify(".github/workflows/dependabot.yml") == FileKind::Workflow);     // a workflow of that name
  CHECK(classify("dependabot.yml") == FileKind::Other);                          // Dependabot reads .github/ only
  CHECK(classify(".github/dependabot.yml.orig") == FileKind::Other);
  CHECK(classify(".pre-commit-config.yaml") == FileKind::PreCommit);
  CHECK(classify("tools/.pre-commit-config.yml") == FileKind::PreCommit);  // `pre-commit -c tools/…`
  CHECK(classify(".pre-commit-hooks.yaml") == FileKind::Other);            // what a hook repository offers
  CHECK(needsContent(FileKind::Dependabot));
  CHECK(needsContent(FileKind::PreCommit));
}

TEST_CASE("security config files: an update entry the pull request adds is reported, and one it did not touch is not") {
  ChangedFile added = wholeFileAdded(".github/dependabot.yml", kNoCooldown);
  CHECK(places(scanPullRequest({added}, {}).findings) ==
        std::vector<std::string>{".github/dependabot.yml:7 security/dependabot-cooldown"});

  ChangedFile firstOnly = added;  // only the npm entry, which has its cooldown, is new
  firstOnly.addedLines = {3, 4, 5, 6};
  firstOnly.addedText.resize(4);
  CHECK(scanPullRequest({firstOnly}, {}).findings.empty());
}

TEST_CASE("security config files: lowering default-days is reported on the changed line") {
  ChangedFile f = wholeFileAdded(".github/dependabot.yml",
                                 "version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n"
                                 "    cooldown:\n      default-days: 2\n");
  f.addedLines = {6};
  f.addedText = {"      default-days: 2"};
  ScanResult scan = scanPullRequest({f}, {});
  CHECK(places(scan.findings) == std::vector<std::string>{".github/dependabot.yml:6 security/dependabot-cooldown"});
  REQUIRE(scan.findings.size() == 1);
  CHECK(scan.findings[0].severity == Severity::Warning);
  CHECK(scan.findings[0].message.starts_with(
      "`npm` updates in `/` wait `default-days: 2`, fewer than 7. (confidence: high)\n\nDependabot proposes"));
}

TEST_CASE("security config files: one that cannot be read is reported as not checked, as a workflow is") {
  // `allow` behind a tab: GitHub refuses the file too, but a reviewer must see it was not checked.
  ChangedFile tab = wholeFileAdded(".github/dependabot.yml",
                                   "version: 2\nupdates:\n  - package-ecosystem: npm\n\tdirectory: /\n"
                                   "    insecure-external-code-execution: allow\n");
  ChangedFile list = wholeFileAdded(".pre-commit-config.yaml", "- repo: http://example.com/hooks\n");
  ChangedFile big = wholeFileAdded("tools/.pre-commit-config.yml", "repos:\n  - repo: https://example.com/h\n");
  big.truncated = true;
  ScanOptions o;
  ScanResult scan = scanPullRequest({tab, list, big}, o);
  CHECK(places(scan.findings) == std::vector<std::string>{".github/dependabot.yml:4 security/unparsed-workflow",
                                                          ".pre-commit-config.yaml:1 security/unparsed-workflow",
                                                          "tools/.pre-commit-config.yml:2 security/unparsed-workflow"});
  REQUIRE(scan.unchecked.size() == 3);
  CHECK(scan.findings[0].message.starts_with("This Dependabot configuration cannot be read (" +
                                             scan.unchecked[0].reason +
                                             "), so none of the Dependabot rules were checked on it."));
  CHECK(scan.unchecked[1].reason == "line 1, column 1: is a list, not a mapping");
  CHECK(scan.findings[1].message.starts_with("This pre-commit configuration cannot be read ("));
  CHECK(scan.unchecked[2].reason == "line 2: is cut short by github.file's 1 MiB bound after 39 bytes");
  std::optional<Coverage> c = coverageOf(scan, o);
  REQUIRE(c.has_value());
  CHECK(c->files.size() == 3);
  CHECK_FALSE(c->complete);
}

TEST_CASE("security config files: the scan log names every kind of file it read") {
  std::vector<ChangedFile> files = {
      wholeFileAdded(".github/dependabot.yml", kNoCooldown),
      wholeFileAdded(".pre-commit-config.yaml", "repos: []\n"),
      wholeFileAdded(".github/workflows/triage.md", "---\non: issues\n---\nTriage the issue.\n"),
      wholeFileAdded(".loopwright/taskpack.yaml", "spec: {}\n"),
      wholeFileAdded("README.md", "hello\n"),
  };
  std::string log = scanSummary(scanPullRequest(files, {}), {});
  CHECK(
      log.starts_with("scanned: 1 other (added lines only), 1 agentic workflow, 1 taskpack, "
                      "1 Dependabot configuration, 1 pre-commit configuration; rules run: "));
}
