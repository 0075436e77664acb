// The agent-workflow rules beyond their corpus pairs: where a finding goes
// when the pull request adds only the line that makes a workflow risky, the
// prompt file written through a heredoc, one finding for a taskpack policy
// its steps inherit, and gh-aw files the rules cannot read.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "agents/security/changed_file.h"
#include "agents/security/scan/scan.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

ChangedFile withAdded(const std::string& path, const std::string& content, const std::vector<int>& added) {
  ChangedFile all = wholeFileAdded(path, content);
  ChangedFile f;
  f.path = path;
  f.content = content;
  for (std::size_t i = 0; i < all.addedLines.size(); ++i)
    for (int a : added)
      if (all.addedLines[i] == a) f.addedLines.push_back(a), f.addedText.push_back(all.addedText[i]);
  return f;
}

std::vector<std::string> agentFindings(const std::vector<ChangedFile>& files) {
  ScanOptions o;
  o.maxFindings = 1000;
  std::vector<std::string> out;
  for (const Finding& f : scanChangedFiles(files, o))
    if (f.ruleId.starts_with("security/agent-")) out.push_back(f.path + ":" + std::to_string(f.line) + " " + f.ruleId);
  return out;
}

const char* kClaudeForAnyone =
    "on:\n"                                                                 // 1
    "  issues:\n"                                                           // 2
    "    types: [opened]\n"                                                 // 3
    "permissions:\n"                                                        // 4
    "  contents: write\n"                                                   // 5
    "jobs:\n"                                                               // 6
    "  fix:\n"                                                              // 7
    "    runs-on: ubuntu-latest\n"                                          // 8
    "    steps:\n"                                                          // 9
    "      - uses: anthropics/claude-code-action@v1\n"                      // 10
    "        with:\n"                                                       // 11
    "          allowed_non_write_users: \"*\"\n"                            // 12
    "          prompt: \"Fix issue #${{ github.event.issue.number }}\"\n";  // 13

}  // namespace

TEST_CASE("agent rules: a pull request that only adds the outsider trigger is told on the trigger's line") {
  // The workflow was run by pushes before; the pull request adds `issues:`.
  ChangedFile f = withAdded(".github/workflows/fix.yml", kClaudeForAnyone, {2, 3});
  CHECK(agentFindings({f}) == std::vector<std::string>{".github/workflows/fix.yml:2 security/agent-untrusted-actor"});
}

TEST_CASE("agent rules: the write grant's line is an anchor too") {
  ChangedFile f = withAdded(".github/workflows/fix.yml", kClaudeForAnyone, {5});
  CHECK(agentFindings({f}) == std::vector<std::string>{".github/workflows/fix.yml:5 security/agent-untrusted-actor"});
}

TEST_CASE("agent rules: a prompt file written through a heredoc is found on the line with the event text") {
  const char* workflow =
      "on: issue_comment\n"                                    // 1
      "permissions: {}\n"                                      // 2
      "jobs:\n"                                                // 3
      "  codex:\n"                                             // 4
      "    runs-on: ubuntu-latest\n"                           // 5
      "    steps:\n"                                           // 6
      "      - env:\n"                                         // 7
      "          COMMENT: ${{ github.event.comment.body }}\n"  // 8
      "        run: |\n"                                       // 9
      "          cat > prompt.md <<EOF\n"                      // 10
      "          Answer this comment:\n"                       // 11
      "          $COMMENT\n"                                   // 12
      "          EOF\n"                                        // 13
      "      - uses: openai/codex-action@v1\n"                 // 14
      "        with:\n"                                        // 15
      "          prompt-file: prompt.md\n";                    // 16
  CHECK(agentFindings({wholeFileAdded(".github/workflows/codex.yml", workflow)}) ==
        std::vector<std::string>{".github/workflows/codex.yml:12 security/agent-prompt-injection"});
}

TEST_CASE("agent rules: a taskpack step that inherits the spec's open policy adds no second finding") {
  const char* taskpack =
      "apiVersion: loopwright.dev/v1alpha1\n"                              // 1
      "kind: Taskpack\n"                                                   // 2
      "metadata: {name: t}\n"                                              // 3
      "spec:\n"                                                            // 4
      "  sandbox:\n"                                                       // 5
      "    preferredBackends: [direct-dedicated]\n"                        // 6
      "    networkMode: allow-outbound\n"                                  // 7
      "  stages:\n"                                                        // 8
      "    - name: s\n"                                                    // 9
      "      steps:\n"                                                     // 10
      "        - name: a\n"                                                // 11
      "          run: [a.sh]\n"                                            // 12
      "          sandbox: {requiredCapabilities: [processTreeCleanup]}\n"  // 13
      "        - name: b\n"                                                // 14
      "          run: [b.sh]\n"                                            // 15
      "          sandbox: {networkMode: none}\n";                          // 16
  CHECK(agentFindings({wholeFileAdded(".loopwright/taskpack.yaml", taskpack)}) ==
        std::vector<std::string>{".loopwright/taskpack.yaml:7 security/agent-taskpack-outbound"});
}

TEST_CASE("agent rules: gh-aw files without frontmatter or with broken frontmatter get no agent finding") {
  const char* noFrontmatter = "# Notes\n\nTitle: ${{ github.event.issue.title }}\n";
  const char* broken = "---\non: [issues\n---\n\nTitle: ${{ github.event.issue.title }}\n";
  CHECK(agentFindings({wholeFileAdded(".github/workflows/notes.md", noFrontmatter),
                       wholeFileAdded(".github/workflows/broken.md", broken)})
            .empty());
}

TEST_CASE("agent rules: Markdown outside .github/workflows is not read as a gh-aw workflow") {
  const char* doc = "---\non: issues\n---\n\nTitle: ${{ github.event.issue.title }}\n";
  CHECK(
      agentFindings({wholeFileAdded("docs/agent.md", doc), wholeFileAdded(".github/workflows/sub/x.md", doc)}).empty());
  CHECK(agentFindings({wholeFileAdded(".github/workflows/x.md", doc)}) ==
        std::vector<std::string>{".github/workflows/x.md:5 security/agent-prompt-injection"});
}
