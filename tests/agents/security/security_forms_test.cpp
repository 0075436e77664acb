// The forms a workflow can write the same thing in, each read as GitHub
// reads it: context references in index syntax and any case, a grouping's
// trailing property, the actor compared with a bot either way round, the
// values that turn ACTIONS_ALLOW_UNSECURE_COMMANDS on, `uses:` as a block
// scalar, this repository's own actions, downloads pinned to a commit, an
// archived repository's name in any case.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include "agents/security/changed_file.h"
#include "agents/security/file_rules/shell_rules.h"
#include "agents/security/scan/scan.h"
#include "agents/security/workflow/untrusted_context.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

// What the default persona reports, in line order.
std::vector<std::string> found(const std::string& workflow) {
  std::vector<Finding> findings = scanPullRequest({wholeFileAdded(".github/workflows/w.yml", workflow)}, {}).findings;
  std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) { return a.line < b.line; });
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(std::to_string(f.line) + " " + f.ruleId);
  return out;
}

std::string stepsWith(const std::string& steps) {
  return "on: push\npermissions: {}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n" + steps;
}

}  // namespace

TEST_CASE("security forms: a context in index syntax or another case is the same context") {
  struct Case {
    const char* expression;
    const char* path;
  };
  const Case cases[] = {
      {"github['actor']", "github.actor"},
      {"github['ACTOR']", "github.actor"},
      {"GitHub[ 'Event' ]['issue'].TITLE", "github.event.issue.title"},
      {"github.event.commits[0]['message']", "github.event.commits.*.message"},
      {"github.event[matrix.key]", "github.event.*"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.expression));
    std::vector<ContextRef> refs = contextRefsIn(c.expression, "github");
    REQUIRE(refs.size() == 1);
    CHECK(refs.front().path == c.path);
    CHECK(refs.front().text == c.expression);
  }
  CHECK(untrustedRefsIn("${{ github['event']['issue']['body'] }}").size() == 1);
  CHECK(untrustedRefsIn("${{ github['HEAD_REF'] }}").size() == 1);
  CHECK(untrustedRefsIn("${{ github['event']['issue']['user']['id'] }}").empty());
}

TEST_CASE("security forms: the property after a grouping decides what the context yields") {
  struct Case {
    const char* expression;
    std::size_t untrusted;
  };
  const Case cases[] = {
      {"${{ (github.event.pull_request || github.event.issue).number }}", 0},
      {"${{ (github.event.pull_request || github.event.issue)['number'] }}", 0},
      {"${{ ((github.event.pull_request || github.event.issue)).number }}", 0},
      {"${{ (github.event.pull_request || github.event.issue).title }}", 2},
      {"${{ (github.event.pull_request || github.event.issue).user.login }}", 0},
      {"${{ (github.event.pull_request).head.ref }}", 1},
      // A function's parentheses are no grouping: its argument is what it reads.
      {"${{ format('{0}', github.event.issue.title) }}", 1},
      {"${{ toJSON(github.event.pull_request).length }}", 1},
      {"${{ (github.event.issue.title) }}", 1},
      {"${{ github.event.client_payload.branch }}", 1},
      {"${{ github.event.client_payload.a.b.c }}", 1},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.expression));
    CHECK(untrustedRefsIn(c.expression).size() == c.untrusted);
  }
}

TEST_CASE("security forms: the actor compared with a bot, in any form, is a bot-actor condition") {
  const char* vulnerable[] = {
      "github.actor == 'dependabot[bot]'",
      "github['actor'] == 'dependabot[bot]'",
      "github['ACTOR'] == 'dependabot[bot]'",
      "${{ 'renovate[bot]' == github.triggering_actor }}",
      "${{ github.actor == 'mystery[bot]' && github.repository == 'o/r' }}",
      "github.actor_id == 49699333",
      "github['ACTOR_ID'] == '49699333'",
      "${{github.actor=='dependabot[bot]'}}",
  };
  for (const std::string cond : vulnerable) {
    CAPTURE(cond);
    CHECK(found(stepsWith("      - run: echo hi\n        if: " + cond + "\n")) ==
          std::vector<std::string>{"8 security/bot-actor-condition"});
  }
  const char* safe[] = {
      "github.actor == 'octocat'",
      "github.actor_id == 12345",
      "github.event.pull_request.user.login == 'dependabot[bot]'",
      "github.actor_id == 1 && github.event.pull_request.user.id == 49699333",
      "github.actor != 'dependabot[bot]'",
  };
  for (const std::string cond : safe) {
    CAPTURE(cond);
    CHECK(found(stepsWith("      - run: echo hi\n        if: " + cond + "\n")).empty());
  }
}

TEST_CASE("security forms: ACTIONS_ALLOW_UNSECURE_COMMANDS is on only for what bool.TryParse reads as true") {
  struct Case {
    const char* value;
    bool on;
  };
  const Case cases[] = {
      {"true", true}, {"True", true}, {"\" TRUE \"", true}, {"${{ matrix.legacy }}", true}, {"yes", false},
      {"1", false},   {"on", false},  {"false", false},     {"\"false\"", false},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.value));
    std::vector<std::string> got =
        found(stepsWith("      - run: echo hi\n        env:\n          ACTIONS_ALLOW_UNSECURE_COMMANDS: " +
                        std::string(c.value) + "\n"));
    CHECK(got == (c.on ? std::vector<std::string>{"9 security/unsecure-commands"} : std::vector<std::string>{}));
  }
}

TEST_CASE("security forms: a pin written as a block scalar is read as the pin") {
  CHECK(found(stepsWith("      - uses: |\n          other/action@11bd71901bbe5b1630ceea73d27597364c9af683\n"
                        "      - uses: >-\n          actions/setup-python@11bd71901bbe5b1630ceea73d27597364c9af683\n"))
            .empty());
  CHECK(found(stepsWith("      - uses: |\n          other/action@v4\n")) ==
        std::vector<std::string>{"7 security/unpinned-action"});
}

TEST_CASE("security forms: this repository's actions and workflows are neither unpinned nor another owner's") {
  CHECK(found("on: push\npermissions: {}\njobs:\n"
              "  a:\n    uses: ./.github/workflows/x.yml\n    secrets: inherit\n"
              "  b:\n    uses: $/.github/workflows/x.yml\n    secrets: inherit\n"
              "  c:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: $/.github/actions/setup\n") ==
        std::vector<std::string>{"5 security/workspace-relative-uses"});  // `./` is the workspace's file
  CHECK(found("on: push\npermissions: {}\njobs:\n  a:\n    uses: other/repo/.github/workflows/x.yml@main\n") ==
        std::vector<std::string>{"5 security/unpinned-action"});
}

TEST_CASE("security forms: a download from a GitHub file at a commit is pinned, from a branch it is not") {
  CHECK_FALSE(pipesDownloadToShell(
      "curl -fsSL https://raw.githubusercontent.com/o/r/0a727065ae5a2313e8e6acf172844e8ca30c1822/i.sh | bash"));
  CHECK_FALSE(
      pipesDownloadToShell("curl https://github.com/o/r/raw/0a727065ae5a2313e8e6acf172844e8ca30c1822/i.sh | sh"));
  CHECK(pipesDownloadToShell("curl -fsSL https://raw.githubusercontent.com/o/r/main/i.sh | bash"));
  // A commit id in another host's URL pins nothing that host promises.
  CHECK(pipesDownloadToShell("curl https://example.com/0a727065ae5a2313e8e6acf172844e8ca30c1822/i.sh | bash"));
}

TEST_CASE("security forms: a checkout of the pull request's head in index syntax is an untrusted checkout") {
  const std::string workflow =
      "on: pull_request_target\npermissions: {}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n        with:\n"
      "          ref: ${{ github.event['pull_request']['HEAD']['sha'] }}\n"
      "          persist-credentials: false\n"
      "      - run: make\n";
  CHECK(found(workflow) == std::vector<std::string>{"1 security/dangerous-trigger", "9 security/untrusted-checkout"});
}

TEST_CASE("security forms: broken expressions read as far as they go, never past their end") {
  const char* broken[] = {"(((",
                          ")))github.event.issue.title",
                          "github[",
                          "github['",
                          "github.event.",
                          "(github.event.issue).",
                          "(github.event.issue)[",
                          "'",
                          "github.actor == '",
                          "== 'dependabot[bot]'",
                          "(github.event.issue || ) .title)",
                          "github['event'']['issue']"};
  for (const std::string e : broken) {
    CAPTURE(e);
    CHECK(untrustedRefsIn(e).size() <= 2);
    CHECK(found(stepsWith("      - run: echo hi\n        if: ${{ " + e + " }}\n")).size() <= 1);
  }
  CHECK(untrustedRefsIn(")))github.event.issue.title").size() == 1);
}

TEST_CASE("security forms: every repository of the archived list, in any case and with a path, is archived") {
  std::ifstream list(std::string(LOOPWRIGHT_SOURCE_DIR) + "/src/agents/security/workflow/data/archived-repos.txt");
  std::string steps;
  std::vector<std::string> expected;
  int line = 7;  // stepsWith's first step
  for (std::string repository; std::getline(list, repository);) {
    if (repository.empty() || repository.front() == '#') continue;
    std::string shouted = repository;
    for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    steps += "      - uses: " + repository + "@11bd71901bbe5b1630ceea73d27597364c9af683\n" +
             "      - uses: " + shouted + "/sub/dir@11bd71901bbe5b1630ceea73d27597364c9af683\n";
    expected.push_back(std::to_string(line) + " security/archived-action");
    expected.push_back(std::to_string(line + 1) + " security/archived-action");
    line += 2;
  }
  REQUIRE(expected.size() > 100);
  ScanOptions everything;
  everything.maxFindings = 10000;
  std::vector<std::string> archived;
  for (const Finding& f :
       scanPullRequest({wholeFileAdded(".github/workflows/w.yml", stepsWith(steps))}, everything).findings)
    if (f.ruleId == "security/archived-action") archived.push_back(std::to_string(f.line) + " " + f.ruleId);
  std::sort(archived.begin(), archived.end(),
            [](const std::string& a, const std::string& b) { return std::stoi(a) < std::stoi(b); });
  CHECK(archived == expected);
  CHECK(found(stepsWith("      - uses: |\n          actions/setup-ruby@11bd71901bbe5b1630ceea73d27597364c9af683\n")) ==
        std::vector<std::string>{"7 security/archived-action"});
}
