#include <doctest/doctest.h>

#include <algorithm>

#include "policy/load/taskpack_loader.h"
#include "policy/model/tool_names.h"

using namespace lw;

namespace {

Result<Taskpack> withTools(const std::string& tools) {
  std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
      "  stages:\n    - name: s\n      on: [pull_request]\n      steps:\n"
      "        - name: a\n          run: [x]\n          tools: " +
      tools + "\n";
  return parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{"/home/alice"});
}

}  // namespace

TEST_CASE("tool names: every tool the bridge offers is known, and only those") {
  for (const char* name :
       {"github.pull", "github.pulls.diff", "github.pulls.files", "github.file", "github.issue", "github.issues.search",
        "github.labels", "github.event", "findings.report", "model.complete"})
    CHECK_MESSAGE(isKnownTool(name), name);
  CHECK(knownToolNames().size() == 10);
  CHECK(std::is_sorted(knownToolNames().begin(), knownToolNames().end()));
  CHECK_FALSE(isKnownTool("github.pull.diff"));
  CHECK_FALSE(isKnownTool("shell.exec"));
}

TEST_CASE("tool names: validate refuses an unknown tool with a did-you-mean at file:line:col") {
  auto ok = withTools("[github.pulls.diff, github.issues.search, github.file]");
  CHECK_MESSAGE(ok.ok(), (ok.ok() ? "" : ok.error().diagnostics.front().message));
  auto bad = withTools("[github.event, github.pull.diff]");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::TaskpackInvalid);
  REQUIRE(bad.error().diagnostics.size() == 1);
  const Diagnostic& d = bad.error().diagnostics[0];
  CHECK(d.message == "'github.pull.diff' is not a tool the bridge offers");
  CHECK(d.hint == "did you mean 'github.pulls.diff'?");
  CHECK(d.location.file == "tp.yaml");
  CHECK(d.location.line == 11);
  CHECK(d.location.column == 33);
  CHECK(d.location.path == "spec.stages[0].steps[0].tools[1]");
}

TEST_CASE("tool names: a name nothing resembles lists the tools") {
  auto bad = withTools("[shell.exec]");
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error().diagnostics.size() == 1);
  CHECK(bad.error().diagnostics[0].hint ==
        "the bridge offers findings.report, github.event, github.file, github.issue, github.issues.search, "
        "github.labels, github.pull, github.pulls.diff, github.pulls.files, model.complete");
}
