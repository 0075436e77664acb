// The workflow model's data flow (workflow_flow.h, shell_flow.h,
// caller_inputs.h) and the action catalogue: what a value can hold, read
// from the model alone.
#include <doctest/doctest.h>

#include <string>

#include "agents/security/text.h"
#include "agents/security/workflow/action_catalogue.h"
#include "agents/security/workflow/caller_inputs.h"
#include "agents/security/workflow/shell_flow.h"
#include "agents/security/workflow/workflow_flow.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

WorkflowModel parsed(const std::string& yaml, bool isAction = false) {
  Result<WorkflowModel> w = parseWorkflow(yaml, isAction);
  REQUIRE(w.ok());
  return *w;
}

// The reach of `expression` read in the last step of the first job.
Reach reachAt(const WorkflowModel& w, std::string_view expression) {
  const JobModel& j = w.jobs.front();
  FlowScope at{w, &j, j.steps.empty() ? nullptr : &j.steps.back()};
  Reach worst = Reach::None;
  for (const Taint& t : expressionTaints(expression, at))
    if (t.reach > worst) worst = t.reach;
  return worst;
}

// The reach of what the last step's script writes on its last write.
Taint lastWrite(const WorkflowModel& w) {
  const JobModel& j = w.jobs.front();
  std::vector<ScriptWrite> writes = scriptWrites(j.steps.back(), {w, &j, &j.steps.back()});
  REQUIRE_FALSE(writes.empty());
  return writes.back().taint;
}

const char* kEnvLevels =
    "on: issues\n"
    "env:\n"
    "  A: ${{ github.event.issue.title }}\n"
    "  B: ${{ github.event.issue.title }}\n"
    "jobs:\n"
    "  j:\n"
    "    runs-on: ubuntu-latest\n"
    "    env:\n"
    "      B: fixed\n"
    "      C: ${{ github.event.issue.body }}\n"
    "    steps:\n"
    "      - run: echo\n"
    "        env:\n"
    "          C: also fixed\n";

}  // namespace

TEST_CASE("security flow: env. reads the innermost env: that sets the name") {
  WorkflowModel w = parsed(kEnvLevels);
  CHECK(reachAt(w, "${{ env.A }}") == Reach::Attacker);  // workflow level
  CHECK(reachAt(w, "${{ env.B }}") == Reach::None);      // the job's literal hides the workflow's title
  CHECK(reachAt(w, "${{ env.C }}") == Reach::None);      // the step's literal hides the job's body
  CHECK(reachAt(w, "${{ env.D }}") == Reach::Unknown);   // set outside this file
}

TEST_CASE("security flow: a step's env: value that reads env. reads the job's and the workflow's") {
  WorkflowModel w = parsed(
      "on: issues\nenv:\n  T: ${{ github.event.issue.title }}\njobs:\n  j:\n    runs-on: x\n    steps:\n"
      "      - run: echo \"$T\" \"${{ env.T }}\"\n        env:\n          T: ${{ env.T }}\n");
  CHECK(reachAt(w, "${{ env.T }}") == Reach::Attacker);
  const JobModel& j = w.jobs.front();
  CHECK(environmentVariableTaint("T", {w, &j, &j.steps.front()}).reach == Reach::Attacker);
}

TEST_CASE("security flow: branch names and dispatch inputs are untraced, ids and SHAs fixed") {
  WorkflowModel w = parsed(kEnvLevels);
  CHECK(reachAt(w, "${{ github.ref_name }}") == Reach::Unknown);
  // repository_dispatch's payload is untrusted_context.h's (zizmor and poutine read it so).
  CHECK(reachAt(w, "${{ github.event.client_payload.version }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ github.event.inputs.tag }}") == Reach::Unknown);
  CHECK(reachAt(w, "${{ github.sha }}") == Reach::None);
  CHECK(reachAt(w, "${{ github.event.pull_request.number }}") == Reach::None);
}

TEST_CASE("security flow: the steps of a parallel: entry are steps of the job") {
  WorkflowModel w = parsed(
      "on: pull_request\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: a\n      - parallel:\n"
      "          - run: b\n          - id: c\n            run: c\n      - run: d\n");
  std::vector<std::string> runs;
  for (const StepModel& s : w.jobs.front().steps) runs.push_back(s.run.text);
  CHECK(runs == std::vector<std::string>{"a", "b", "c", "d"});
}

TEST_CASE("security flow: a static matrix is expanded, include adds and a one-key exclude removes") {
  WorkflowModel w = parsed(
      "on: pull_request_target\n"
      "jobs:\n"
      "  j:\n"
      "    runs-on: ${{ matrix.os }}\n"
      "    strategy:\n"
      "      matrix:\n"
      "        os: [ubuntu-latest, self-hosted]\n"
      "        name: [a]\n"
      "        exclude:\n"
      "          - os: self-hosted\n"
      "        include:\n"
      "          - name: ${{ github.event.pull_request.title }}\n"
      "            os: macos-latest\n"
      "    steps:\n"
      "      - run: echo\n");
  CHECK(reachAt(w, "${{ matrix.name }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ matrix.os }}") == Reach::None);
  CHECK(reachAt(w, "${{ matrix.missing }}") == Reach::None);
  std::vector<std::string> labels;
  for (const Located& l : possibleValues(w.jobs.front().runsOn.front(), w.jobs.front())) labels.push_back(l.text);
  CHECK(labels == std::vector<std::string>{"ubuntu-latest", "macos-latest"});
}

TEST_CASE("security flow: an image or label written as alternatives takes each literal one") {
  WorkflowModel w = parsed("on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: a\n");
  const JobModel& j = w.jobs.front();
  auto values = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const Located& v : possibleValues({text, 3}, j)) out.push_back(v.text);
    return out;
  };
  CHECK(values("${{ inputs.redis == 'true' && 'redis:7' || '' }}") == std::vector<std::string>{"redis:7", ""});
  CHECK(values("${{ inputs.image || 'it''s' }}") == std::vector<std::string>{"${{ inputs.image || 'it''s' }}"});
  CHECK(values("node:20") == std::vector<std::string>{"node:20"});
}

TEST_CASE("security flow: a matrix from fromJSON holds what its argument holds") {
  auto matrixOf = [](const std::string& expression) {
    return parsed("on: issue_comment\njobs:\n  j:\n    runs-on: x\n    strategy:\n      matrix: " + expression +
                  "\n    steps:\n      - run: echo\n");
  };
  CHECK(reachAt(matrixOf("${{ fromJSON(github.event.comment.body) }}"), "${{ matrix.x }}") == Reach::Attacker);
  CHECK(reachAt(matrixOf("${{ fromJSON(needs.plan.outputs.matrix) }}"), "${{ matrix.x }}") == Reach::Unknown);
  CHECK(reachAt(matrixOf("${{ fromJSON('{\"x\":[1]}') }}"), "${{ matrix.x }}") == Reach::None);
}

TEST_CASE("security flow: comparisons and contains() yield no text, || and format() carry it") {
  WorkflowModel w = parsed(kEnvLevels);
  CHECK(reachAt(w, "${{ github.event.issue.title == 'x' }}") == Reach::None);
  CHECK(reachAt(w, "${{ !github.event.issue.title }}") == Reach::None);
  CHECK(reachAt(w, "${{ contains(github.event.issue.title, 'x') }}") == Reach::None);
  CHECK(reachAt(w, "${{ (github.event.issue.title == 'x') }}") == Reach::None);
  CHECK(reachAt(w, "${{ 'github.event.issue.title' }}") == Reach::None);  // a string literal
  CHECK(reachAt(w, "${{ false || github.event.issue.title }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ x == 'y' && github.event.issue.title || 'z' }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ format('{0}', github.event.issue.title) }}") == Reach::Attacker);
  // `a && b` is b, or a falsy a (no text); a group's member is read through it.
  CHECK(reachAt(w, "${{ github.event.issue.title && 'x' || '' }}") == Reach::None);
  CHECK(reachAt(w, "${{ (github.event.pull_request || github.event.issue).number }}") == Reach::None);
  CHECK(reachAt(w, "${{ (github.event.pull_request || github.event.issue).title }}") == Reach::Attacker);
}

TEST_CASE("security flow: step outputs follow GITHUB_OUTPUT writes and the catalogue") {
  WorkflowModel w = parsed(
      "on: pull_request_target\n"
      "jobs:\n"
      "  j:\n"
      "    runs-on: x\n"
      "    steps:\n"
      "      - id: mix\n"
      "        env:\n"
      "          REF: ${{ github.head_ref }}\n"
      "        run: |\n"
      "          echo \"branch=$REF\" >> \"$GITHUB_OUTPUT\"\n"
      "          echo \"fixed=yes\" >> \"$GITHUB_OUTPUT\"\n"
      "          {\n"
      "            echo \"notes<<EOF\"\n"
      "            echo \"$REF\"\n"
      "            echo EOF\n"
      "          } >> \"$GITHUB_OUTPUT\"\n"
      "      - id: files\n"
      "        uses: tj-actions/changed-files@v46\n"
      "      - id: other\n"
      "        uses: some/action@v1\n"
      "      - run: echo\n");
  CHECK(reachAt(w, "${{ steps.mix.outputs.branch }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ steps.mix.outputs.fixed }}") == Reach::None);
  CHECK(reachAt(w, "${{ steps.mix.outputs.notes }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ steps.mix.outputs.unset }}") == Reach::Unknown);
  CHECK(reachAt(w, "${{ steps.files.outputs.all_changed_files }}") == Reach::Attacker);
  CHECK(reachAt(w, "${{ steps.other.outputs.data }}") == Reach::Unknown);
  CHECK(reachAt(w, "${{ steps.other.outcome }}") == Reach::None);
  CHECK(reachAt(w, "${{ steps.later.outputs.x }}") == Reach::Unknown);
}

TEST_CASE("security flow: typed inputs hold no text, untyped ones are the caller's") {
  WorkflowModel w = parsed(
      "on:\n"
      "  workflow_call:\n"
      "    inputs:\n"
      "      dry: {type: boolean}\n"
      "      title: {type: string}\n"
      "jobs:\n"
      "  j:\n"
      "    runs-on: x\n"
      "    steps:\n"
      "      - run: echo\n");
  CHECK(reachAt(w, "${{ inputs.dry }}") == Reach::None);
  CHECK(reachAt(w, "${{ inputs.title }}") == Reach::Unknown);
  w.attackerInputs.emplace_back("title", Located{"`github.event.issue.title` (passed by c.yml:7)", 7});
  CHECK(reachAt(w, "${{ inputs.title }}") == Reach::Attacker);
}

TEST_CASE("security flow: callers in the pull request mark the inputs they pass outside text to") {
  std::vector<ChangedFile> files = {wholeFileAdded(".github/workflows/caller.yml",
                                                   "on: pull_request_target\n"
                                                   "jobs:\n"
                                                   "  call:\n"
                                                   "    uses: ./.github/workflows/callee.yml\n"
                                                   "    with:\n"
                                                   "      title: ${{ github.event.pull_request.title }}\n"
                                                   "      number: ${{ github.event.pull_request.number }}\n"
                                                   "  act:\n"
                                                   "    runs-on: x\n"
                                                   "    steps:\n"
                                                   "      - uses: ./tools/act\n"
                                                   "        with:\n"
                                                   "          body: ${{ github.event.pull_request.body }}\n")};
  CallerInputs callers = callerInputsOf(files);
  REQUIRE(callers.count(".github/workflows/callee.yml") == 1);
  const LocatedMap& passed = callers.at(".github/workflows/callee.yml");
  REQUIRE(passed.size() == 1);
  CHECK(passed.front().first == "title");
  CHECK(passed.front().second.text.find("caller.yml:6") != std::string::npos);
  REQUIRE(callers.count("tools/act") == 1);
  CHECK(callers.at("tools/act").front().first == "body");
  CHECK(calleeKey("tools/act/action.yml", true) == "tools/act");
  CHECK(calleeKey("action.yml", true).empty());
}

TEST_CASE("security flow: one shell assignment per line carries text to a GITHUB_ENV write") {
  auto script = [](const std::string& run, const std::string& on = "pull_request_target") {
    return parsed("on: " + on +
                  "\njobs:\n  j:\n    runs-on: x\n    steps:\n      - env:\n          TITLE: "
                  "${{ github.event.pull_request.title }}\n        run: |\n" +
                  run);
  };
  CHECK(
      lastWrite(script("          m=$(echo \"$TITLE\" | sed s/x//)\n          echo \"$m\" >> $GITHUB_PATH\n")).reach ==
      Reach::Attacker);
  CHECK(
      lastWrite(script("          export m=\"$TITLE\"\n          echo \"X=${m}\" | tee -a \"$GITHUB_ENV\"\n")).reach ==
      Reach::Attacker);
  CHECK(lastWrite(script("          m=$TITLE\n          m=fixed\n          echo \"X=$m\" >> $GITHUB_ENV\n")).reach ==
        Reach::None);
  CHECK(lastWrite(script("          echo \"X=$(date +%Y%m%d)\" >> $GITHUB_ENV\n")).reach == Reach::Unknown);
  CHECK(lastWrite(script("          echo \"X=$GITHUB_HEAD_REF\" >> $GITHUB_ENV\n")).reach == Reach::Attacker);
  CHECK(lastWrite(script("          echo \"$RUNNER_TEMP/bin\" >> $GITHUB_PATH\n")).reach == Reach::None);
  CHECK(lastWrite(script("          echo X=%TITLE% >> %GITHUB_ENV%\n")).reach == Reach::Attacker);
  CHECK(lastWrite(script("          echo \"X=$env:TITLE\" >> $env:GITHUB_ENV\n")).reach == Reach::Attacker);
  // A here-document's body and a closed group are what their line writes.
  CHECK(lastWrite(script("          cat <<EOF >> \"$GITHUB_ENV\"\n          X=$TITLE\n          EOF\n")).reach ==
        Reach::Attacker);
  CHECK(lastWrite(script("          cat <<'EOF' >> \"$GITHUB_ENV\"\n          X=$TITLE\n          EOF\n")).reach ==
        Reach::None);
  CHECK(lastWrite(script("          {\n            echo \"X<<EOF\"\n            echo \"$TITLE\"\n            echo EOF\n"
                         "          } >> \"$GITHUB_ENV\"\n"))
            .reach == Reach::Attacker);
  Taint t = lastWrite(script("          m=$(echo \"$TITLE\")\n          echo \"$m\" >> $GITHUB_PATH\n"));
  CHECK(t.via == "`$m` ← `$TITLE` ← `github.event.pull_request.title`");
}

TEST_CASE("security flow: which lines write to GITHUB_ENV, and whether what they write can be told") {
  struct Case {
    const char* line;
    bool writes;
    Reach reach;
  };
  const Case cases[] = {
      {"echo \"A=$x\" >> \"$GITHUB_ENV\"", true, Reach::Unknown},
      {"echo A=$x>>${GITHUB_ENV}", true, Reach::Unknown},
      {"echo \"A=$x\" > $GITHUB_ENV", true, Reach::Unknown},
      {"echo A=$(cat f) >> $GITHUB_ENV", true, Reach::Unknown},
      {"echo A=`cat f` >> $GITHUB_ENV", true, Reach::Unknown},
      {"make-env >> $GITHUB_ENV", true, Reach::Unknown},
      {"make-env | tee -a \"$GITHUB_ENV\" | cat", true, Reach::Unknown},
      {"echo \"A=$GITHUB_REF_NAME\" >> $GITHUB_ENV", true, Reach::Unknown},
      {"echo \"A=b\" | tee -a $GITHUB_ENV", true, Reach::None},
      {"printf 'A=b\\n' >> \"$GITHUB_ENV\"", true, Reach::None},
      {"echo A=b >> $GITHUB_ENV", true, Reach::None},
      {"echo \"$HOME/bin\" >> $GITHUB_PATH", true, Reach::None},
      {"echo A=$x >> GITHUB_ENV", false, Reach::None},     // a file named GITHUB_ENV, not the variable
      {"echo A=$x >> $GITHUB_ENVX", false, Reach::None},   // another variable
      {"# echo A=$x >> $GITHUB_ENV", false, Reach::None},  // a comment
      {"echo A=$x >> $OTHER", false, Reach::None},
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    WorkflowModel w = parsed(
        std::string("on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: |\n          ") + c.line + "\n");
    const JobModel& j = w.jobs.front();
    std::vector<ScriptWrite> writes = scriptWrites(j.steps.front(), {w, &j, &j.steps.front()});
    REQUIRE(writes.size() == (c.writes ? 1u : 0u));
    if (c.writes) CHECK(writes.front().taint.reach == c.reach);
  }
  // A command continued with `\\` writes on its first line.
  WorkflowModel w = parsed(
      "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: |\n          true\n          echo A=$x \\\n"
      "            >> $GITHUB_ENV\n");
  const JobModel& j = w.jobs.front();
  std::vector<ScriptWrite> writes = scriptWrites(j.steps.front(), {w, &j, &j.steps.front()});
  REQUIRE(writes.size() == 1);
  CHECK(writes.front().line == 1);
}

TEST_CASE("security catalogue: caches by default per action version, off switches and tag guards") {
  auto cacheOf = [](const std::string& step, bool tagBuildsOnly = false) {
    std::string yaml = "on: release\njobs:\n  j:\n    runs-on: x\n    steps:\n" + step;
    WorkflowModel w = parsed(yaml);
    std::vector<std::string_view> lines = splitLines(yaml);
    const Located* on = cacheTurnedOn(w.jobs.front().steps.front(), lines, tagBuildsOnly);
    return on == nullptr ? 0 : on->line;
  };
  constexpr const char* kSha = "a0853c24544627f65ddf259abe73b1d18a591444";
  CHECK(cacheOf("      - uses: actions/setup-node@v5\n") == 6);
  CHECK(cacheOf("      - uses: actions/setup-node@v4\n") == 0);
  CHECK(cacheOf("      - uses: actions/setup-node@" + std::string(kSha) + " # v5.0.0\n") == 6);
  CHECK(cacheOf("      - uses: actions/setup-node@" + std::string(kSha) + " # v4.1.0\n") == 0);
  CHECK(cacheOf("      - uses: actions/setup-node@v4\n        with:\n          cache: npm\n") == 8);
  CHECK(cacheOf("      - uses: actions/setup-node@v5\n        with:\n          package-manager-cache: false\n") == 0);
  CHECK(cacheOf("      - uses: astral-sh/setup-uv@v6\n") == 6);
  CHECK(cacheOf("      - uses: astral-sh/setup-uv@v10\n") == 0);
  CHECK(cacheOf("      - uses: astral-sh/setup-uv@v10\n        with:\n          enable-cache: true\n") == 8);
  CHECK(cacheOf("      - uses: swatinem/rust-cache@v2\n        with:\n          lookup-only: true\n") == 0);
  CHECK(cacheOf("      - uses: docker/setup-buildx-action@v3\n") == 0);
  CHECK(cacheOf("      - uses: docker/setup-buildx-action@v3\n        with:\n          version: latest\n") == 6);
  const std::string guarded =
      "      - uses: PyO3/maturin-action@v1\n        with:\n          sccache: ${{ !startsWith(github.ref, "
      "'refs/tags/') }}\n";
  CHECK(cacheOf(guarded, false) == 8);
  CHECK(cacheOf(guarded, true) == 0);
}

TEST_CASE("security catalogue: inputs that run as code are found by action and input name") {
  WorkflowModel w = parsed(
      "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n"
      "      - uses: Azure/CLI@v2\n        with:\n          azcliversion: latest\n          inlineScript: echo\n"
      "      - uses: some/action@v1\n        with:\n          script: echo\n");
  const auto& steps = w.jobs.front().steps;
  std::vector<const Located*> azure = codeExecutingInputs(steps[0]);
  REQUIRE(azure.size() == 1);
  CHECK(azure.front()->text == "echo");
  CHECK(codeExecutingInputs(steps[1]).empty());
}
